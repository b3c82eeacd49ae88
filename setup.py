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
pictures_requirements = cfg.get('pictures_requirements', '').split()
min_python = cfg['min_python']

setuptools.setup(
    name = cfg['lib_name'],
    license = 'Apache-2.0',
    license_files = ['LICENSE'],
    classifiers = [
        'Development Status :: ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'Natural Language :: ' + cfg['language'].title(),
    ] + ['Programming Language :: Python :: '+o for o in py_versions[py_versions.index(min_python):]],
    url = cfg['git_url'],
    # snapkv_nb/data holds text files, not modules: it is listed as a (namespace) package so setuptools ships it
    # without its "absent from the `packages` configuration" warning, and package_data names its files
    packages = setuptools.find_namespace_packages(include=['snapkv_nb', 'snapkv_nb.*'], exclude=['*.__pycache__']),
    package_data = {'snapkv_nb.data': ['*.txt', '*.json', 'surrogates/*.safetensors']},
    include_package_data = True,
    install_requires = requirements,
    extras_require = {'dev': dev_requirements, 'pictures': pictures_requirements},
    dependency_links = cfg.get('dep_links','').split(),
    python_requires = '>=' + cfg['min_python'],
    long_description = open('README.md', encoding='utf-8').read(),
    long_description_content_type = 'text/markdown',
    zip_safe = False,
    entry_points = {
        'console_scripts': cfg.get('console_scripts','').split(),
        'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d']
    },
    **setup_cfg)
