from configparser import ConfigParser
import setuptools

# note: all settings are in settings.ini; edit there, not here
config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

cfg_keys = 'version description keywords author author_email'.split()
expected = cfg_keys + "lib_name user branch license status min_python audience language".split()
for o in expected: assert o in cfg, "missing expected setting: {}".format(o)
setup_cfg = {o:cfg[o] for o in cfg_keys}

statuses = [ '1 - Planning', '2 - Pre-Alpha', '3 - Alpha',
    '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive' ]
py_versions = '3.10 3.11 3.12 3.13'.split()

requirements = cfg.get('requirements', '').split()
dev_requirements = cfg.get('dev_requirements', '').split()

setuptools.setup(
    name = cfg['lib_name'],
    license = 'Apache-2.0',
    classifiers = [
        'Development Status :: ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'Natural Language :: ' + cfg['language'].title(),
    ] + ['Programming Language :: Python :: '+o for o in py_versions[py_versions.index(cfg['min_python']):]],
    url = cfg['git_url'],
    # snapkv_eval/data holds the license texts the benchmarks read (verbatim copies of Debian's
    # /usr/share/common-licenses files; GPL-3 is the library's snapkv_nb/data/GPL-3.txt): package data, not modules
    packages = setuptools.find_namespace_packages(include=['snapkv_eval', 'snapkv_eval.*'], exclude=['*.__pycache__']),
    package_data = {'snapkv_eval.data': ['*.txt']},
    include_package_data = True,
    install_requires = requirements,
    extras_require = {'dev': dev_requirements},
    python_requires = '>=' + cfg['min_python'],
    long_description = cfg['description'],
    zip_safe = False,
    entry_points = {
        'console_scripts': cfg.get('console_scripts','').split(),
        'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d']
    },
    **setup_cfg)
