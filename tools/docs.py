#!/usr/bin/env python3
"""Build and check the documentation without quarto (which cannot be installed on these machines).

    python tools/docs.py            build: _proc/ (executed), _proc/_site/*.html, README.md (+ README_files/)
    python tools/docs.py --check    build, then check: README.md unchanged, every page loads in headless
                                    Chromium without errors and shows its API docs and images (CI runs this)
    python tools/docs.py --readme   only regenerate README.md from nbs/index.ipynb
    python tools/docs.py --save-outputs 20_viz ...
                                    execute those notebooks in place (every cell but `#| eval: false`, slow ones
                                    included) and nbdev_clean them, so their committed outputs show the plots

(`bash tools/docs.sh ...` runs this with the project's venv.)

The site holds both nbdev projects of the repository: the library's notebooks (nbs/) and the evaluation project's
(eval/nbs/, library snapkv_eval), side by side in one flat _proc/ (their notebook names differ), so links between
them work; each notebook runs from its own folder (the evaluation notebooks read ../results = eval/results/).

How (see the index notebook's "Documentation" section for the why):
 1. nbdev's own processing of nbs/*.ipynb and eval/nbs/*.ipynb into _proc/ (what `nbdev_proc_nbs` does, minus its attempt to install
    quarto), with one change: instead of executing only the cells `show_doc` needs, every cell is executed except
    `#| slow` ones and `#| eval: false` ones, so the plots are in the pages. Slow cells of the notebooks in
    $DOCS_SLOW_NBS (default: 20_viz 30_cli, the real-model pictures and the demo) are executed too; set
    DOCS_SLOW_NBS="" to skip them (no model needed then). DOCS_ONLY="index 20_viz" builds only those pages.
 2. each processed notebook -> _proc/_site/NAME.html with nbconvert, a sidebar in the reading order of
    nbs/sidebar.yml, nbs/styles.css, no external scripts.
 3. README.md <- _proc/index.ipynb with nbconvert's markdown exporter; images go to README_files/.
 4. with quarto on PATH: `quarto render` in _proc/ -> _docs/, the site `nbdev_docs` makes, now with plots.
"""
from __future__ import annotations

import argparse
import difflib
import glob
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBS, PROC = ROOT/"nbs", ROOT/"_proc"
NB_DIRS = (NBS, ROOT/"eval"/"nbs")  # the library's notebooks, then the evaluation project's
LIBS = {NBS: "snapkv_nb", ROOT/"eval"/"nbs": "snapkv_eval"}  # the package each folder's notebooks export to
SITE = PROC/"_site"  # inside _proc/ (git-ignored; quarto skips folders starting with _)
DEFAULT_SLOW_NBS = "20_viz 30_cli"
FLAGS = ("slow", "server")  # cell flags (settings.ini's tst_flags): a real model; a server process or `mlx.launch`
README_HEADER = "<!-- Generated from nbs/index.ipynb by tools/docs.sh: edit the notebook, not this file. -->\n\n"


def log(*a):
    print("docs:", *a, flush=True)


def fail(msg: str):
    print(f"docs: FAILED: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def slow_nbs() -> set:
    "Notebooks whose `#| slow` cells are executed too (from $DOCS_SLOW_NBS)."
    return set(os.environ.get("DOCS_SLOW_NBS", DEFAULT_SLOW_NBS).split())


def skip_flags(name: str) -> set:
    """The flags whose cells notebook `name` does not execute: $DOCS_SKIP_FLAGS when it is set (tools/run_nbs.py sets
    it: empty for every cell), else `slow` unless the notebook is in $DOCS_SLOW_NBS."""
    if "DOCS_SKIP_FLAGS" in os.environ:
        return set(os.environ["DOCS_SKIP_FLAGS"].split())
    return set() if name in slow_nbs() else {"slow"}


def child_env(environ: dict | None = None) -> dict:
    """The environment for the notebook-executing processes: matplotlib without a display, and Debian's OpenBLAS
    preloaded when it is installed (mlx's bundled BLAS is far slower for fp32 matmuls)."""
    env = dict(os.environ if environ is None else environ)
    env["MPLBACKEND"] = "Agg"
    env.setdefault("DOCS_SLOW_NBS", DEFAULT_SLOW_NBS)
    blas = sorted(glob.glob("/usr/lib/*/openblas-pthread/libopenblas.so.0"))
    if blas and "libopenblas" not in env.get("LD_PRELOAD", ""):
        env["LD_PRELOAD"] = blas[0] + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    return env


# ---- 1. process and execute -------------------------------------------------------------------------------
def docs_filter():
    "nbdev's `FilterDefaults` with `exec_show_docs` replaced by a processor that executes every cell (see the module doc)."
    from execnb.shell import CaptureShell
    from nbdev.process import Processor
    from nbdev.processors import FilterDefaults, exec_show_docs

    class exec_all(Processor):
        "Execute every code cell except those flagged by `skip_flags` (e.g. `#| slow`) and `#| eval: false`."
        def begin(self):
            self.k = CaptureShell()
            self.k.run_cell("from nbdev.showdoc import show_doc")
            self.name = Path(self.nb.path_).stem
            self.skip = skip_flags(self.name)
            os.chdir(Path(self.nb.path_).parent)  # notebooks read results relative to their own folder
            self.t0 = time.time()

        def __call__(self, cell):
            if cell.cell_type != "code" or not cell.source:
                return
            d = cell.directives_
            if self.skip & d.keys():
                return
            if d.get("eval:", [""])[0].lower() == "false":
                return
            t0 = time.time()
            self.k.cell(cell)
            if time.time() - t0 > 5:  # where a notebook's time goes (tools/run_nbs.py keeps this in _proc/logs/)
                log(f"{self.name} cell {cell.idx_} ({cell.source.splitlines()[0][:60]!r}): {time.time() - t0:.0f}s")
            if self.k.exc:
                raise Exception(f"docs: error executing {self.name} cell {cell.idx_}:\n{cell.source}") from self.k.exc

        def end(self):
            os.chdir(ROOT)
            log(f"executed {self.name} ({time.time() - self.t0:.0f}s)")

    class DocsFilter(FilterDefaults):
        def base_procs(self):
            return [exec_all if p is exec_show_docs else p for p in super().base_procs()]

    return DocsFilter


def source(name: str, dirs=NB_DIRS) -> Path:
    "The notebook file `name` (e.g. '10_fidelity.ipynb'): in the first of `dirs` that has it."
    for d in dirs:
        if (d/name).exists():
            return d/name
    raise FileNotFoundError(f"no notebook {name} in {', '.join(str(d) for d in dirs)}")


def notebooks(only: str | None = None) -> list:
    "The notebooks to process: all of NB_DIRS but hidden ones, those named in $DOCS_ONLY (without .ipynb) if it is set."
    names = sorted(f.name for d in NB_DIRS for f in d.glob("*.ipynb") if not f.name.startswith((".", "_")))
    if len(set(names)) != len(names):
        fail(f"notebook names must differ between {' and '.join(map(str, NB_DIRS))}: {sorted(n for n in names if names.count(n) > 1)}")
    only = only if only is not None else os.environ.get("DOCS_ONLY")
    return [n for n in names if n[:-6] in only.split()] if only else names


def fresh_proc():
    "An empty _proc/ with nbs/'s other files (_quarto.yml, sidebar.yml, styles.css, ...) as `nbdev_proc_nbs` copies them."
    if PROC.exists():
        shutil.rmtree(PROC)
    PROC.mkdir()
    for f in sorted(NBS.iterdir()):
        if f.is_file() and f.suffix != ".ipynb" and not f.name.startswith("."):
            shutil.copy2(f, PROC/f.name)


def process(names: list, fresh: bool = True):
    """nbdev's notebook processing into _proc/ (what `nbdev_proc_nbs` does, without its quarto install), with
    `docs_filter()`; each notebook in a fresh Python process, as nbdev_test runs them."""
    if fresh:
        fresh_proc()
    PROC.mkdir(exist_ok=True)
    env = child_env()
    for n in names:
        r = subprocess.run([sys.executable, __file__, "--proc-one", n], env=env, cwd=ROOT)
        if r.returncode:
            fail(f"executing {n} failed (output above)")


def proc_one(name: str):
    "Process and execute one notebook (run in its own process)."
    import nbdev.serve_drv
    os.chdir(source(name).parent.parent)  # the notebook's own nbdev project (nbs/ or eval/nbs/): its settings.ini
    nbdev.serve_drv.main((source(name), PROC/name, docs_filter()))


def sidebar_order(sidebar_text: str) -> list:
    "Notebook file names in the order nbs/sidebar.yml lists them."
    return re.findall(r"^\s*-\s*(\S+\.ipynb)\s*$", sidebar_text, re.M)


def missing_from_sidebars() -> list:
    "Notebooks of nbs/ and eval/nbs/ that their folder's sidebar.yml does not list (every page must be reachable)."
    return [f"{d.relative_to(ROOT)}/{f.name}" for d in NB_DIRS for f in sorted(d.glob("*.ipynb"))
            if not f.name.startswith((".", "_")) and f.name not in sidebar_order((d/"sidebar.yml").read_text())]


def reading_order() -> list:
    "Processed notebooks in the order of nbs/sidebar.yml, then eval/nbs/sidebar.yml."
    return [n for d in NB_DIRS for n in sidebar_order((d/"sidebar.yml").read_text()) if (PROC/n).exists()]


def skip_cell(cell) -> bool:
    "Cells `--save-outputs` does not run: markdown, and code marked `#| eval: false`."
    return cell.cell_type != "code" or re.search(r"^#\|\s*eval:\s*false\s*$", cell.source, re.M | re.I) is not None


def exec_in_place(name: str):
    "Execute the notebook `name` and write it back with its outputs (run in its own process, from its folder)."
    from execnb.nbio import read_nb, write_nb
    from execnb.shell import CaptureShell
    src = source(name)
    nb, sh = read_nb(src), CaptureShell()
    os.chdir(src.parent)
    sh.run_all(nb, exc_stop=True, preproc=skip_cell)
    write_nb(nb, src)


def save_outputs(names: list):
    "Execute each notebook in place in a fresh process, then `nbdev_clean` it (which keeps outputs: `clear_all = False`)."
    for n in names:
        r = subprocess.run([sys.executable, __file__, "--exec-one", n], env=child_env(), cwd=ROOT)
        if r.returncode:
            fail(f"executing {n} failed (output above)")
        src = source(n)
        subprocess.run([str(Path(sys.executable).parent/"nbdev_clean"), "--fname", str(src)], cwd=src.parent.parent, check=True)
        log(f"saved the outputs of {n}")


# ---- 2. HTML pages ----------------------------------------------------------------------------------------
def prepare(nb):
    "Quarto-isms nbconvert does not know: frontmatter -> title; `#|` lines dropped; echo: false -> no input."
    import nbformat
    cells = []
    for c in nb.cells:
        if c.cell_type == "raw" and c.source.startswith("---"):
            import yaml
            fm = yaml.safe_load(c.source.strip().strip("-")) or {}
            src = f"# {fm.get('title', '')}\n\n" + (f"> {fm['description']}" if fm.get("description") else "")
            cells.append(nbformat.v4.new_markdown_cell(src))
            continue
        if c.cell_type == "code":
            lines = c.source.splitlines()
            opts = [ln for ln in lines if ln.startswith("#|")]
            c.source = "\n".join(ln for ln in lines if not ln.startswith("#|")).strip("\n")
            for o in c.get("outputs", []):  # show_doc's quarto link attributes -> plain HTML
                md = o.get("data", {}).get("text/markdown")
                if md:
                    o["data"]["text/markdown"] = re.sub(r'\[source\]\(([^)]*)\)\{target="_blank" style="([^"]*)"\}',
                                                        r'<a href="\1" target="_blank" style="\2">source</a>', md)
            tags = c.metadata.setdefault("tags", [])
            if any(re.match(r"#\|\s*echo:\s*false", o) for o in opts):
                tags.append("remove_input")
            if any(re.match(r"#\|\s*(output|include):\s*false", o) for o in opts):
                continue
            if not c.source and not c.get("outputs"):
                continue
        cells.append(c)
    nb.cells = cells
    nb.metadata.setdefault("language_info", {"name": "python"})  # code blocks marked as python
    return nb


CHECK_JS = """<script>
window.__docs_errors = [];
window.addEventListener('error', e => {
  const t = e.target;
  if (t && t !== window && (t.src || t.href)) window.__docs_errors.push('resource failed: ' + (t.src || t.href).slice(0, 120));
  else window.__docs_errors.push('script error: ' + e.message);
}, true);
window.addEventListener('load', () => setTimeout(() => {
  const imgs = [...document.images];
  const bad = imgs.filter(i => !(i.complete && i.naturalWidth > 0));
  const heads = [...document.querySelectorAll('h1,h2,h3,h4')].map(h => h.textContent.replace('\u00b6', '').trim());
  const out = {errors: window.__docs_errors, images: imgs.length, broken_images: bad.map(i => i.src.slice(0, 80)),
               headings: heads, tables: document.querySelectorAll('table').length,
               text_len: document.body.innerText.length};
  const pre = document.createElement('pre'); pre.id = 'docs-check'; pre.style.display = 'none';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
}, 100));
</script>"""

NAV_CSS = """<style>
body { margin-left: 250px !important; }
nav.docs-nav { position: fixed; top: 0; left: 0; width: 230px; height: 100%; overflow-y: auto; padding: 1.2rem 0.8rem;
  background: #f7f7f9; border-right: 1px solid #ddd; font-family: sans-serif; font-size: 14px; }
nav.docs-nav a { display: block; padding: 4px 6px; color: #2a5db0; text-decoration: none; border-radius: 4px; }
nav.docs-nav a.current { background: #2a5db0; color: white; }
nav.docs-nav .brand { font-weight: bold; font-size: 16px; margin-bottom: 0.6rem; display: block; color: #222; }
</style>"""


def title_of(nb, name: str) -> str:
    "The first `# ` heading of a prepared notebook, else `name`."
    for c in nb.cells:
        if c.cell_type == "markdown" and c.source.startswith("# "):
            return c.source.splitlines()[0][2:].strip()
    return name


def nav_html(order: list, current: str, titles: dict) -> str:
    "The sidebar: one link per page in reading order, the current one marked."
    def link(m):
        return f'<a href="{m.replace(".ipynb", ".html")}"{" class=current" if m == current else ""}>{html.escape(titles[m])}</a>'
    links = "".join(link(m) for m in order)
    return f'<nav class="docs-nav"><span class="brand">snapkv_nb</span>{links}</nav>'


def page_html(body: str, nav: str, css: str) -> str:
    "An nbconvert page made self-contained and navigable: no CDN scripts, links between notebooks, the check script, the sidebar."
    body = re.sub(r'<script[^>]*src="https?://[^"]*"[^>]*>\s*</script>', "", body)  # no CDN scripts
    body = re.sub(r'<script type="module">.*?</script>', "", body, flags=re.S)  # mermaid loader (CDN)
    body = re.sub(r'href="(\w+)\.ipynb(#[^"]*)?"', r'href="\1.html\2"', body)  # links between notebooks
    body = body.replace("<head>", "<head>\n" + CHECK_JS, 1)
    body = body.replace("</head>", f"{NAV_CSS}<style>{css}</style></head>", 1)
    return re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + nav, body, count=1)


def render_site(order: list) -> dict:
    "Render every processed notebook of `order` into SITE; returns the prepared notebooks by name."
    import nbformat
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import TagRemovePreprocessor
    if SITE.exists():
        shutil.rmtree(SITE)
    SITE.mkdir()
    nbs = {n: prepare(nbformat.read(PROC/n, as_version=4)) for n in order}
    titles = {n: title_of(nb, n) for n, nb in nbs.items()}
    css = (NBS/"styles.css").read_text() if (NBS/"styles.css").exists() else ""
    ex = HTMLExporter(template_name="lab", exclude_input_prompt=True, exclude_output_prompt=True,
                      preprocessors=[TagRemovePreprocessor(remove_input_tags={"remove_input"}, enabled=True)])
    for n, nb in nbs.items():
        body, _ = ex.from_notebook_node(nb)
        (SITE/n.replace(".ipynb", ".html")).write_text(page_html(body, nav_html(order, n, titles), css), encoding="utf-8")
        for rel in set(re.findall(r'src="(\.\./[^"#?]+)"', body)):  # a committed file the page links (../eval/results/x.png)
            f, dest = (source(n).parent/rel).resolve(), (SITE/rel).resolve()
            if f.is_file() and ROOT in f.parents and PROC in dest.parents:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, dest)
    log(f"rendered {len(nbs)} pages into {SITE.relative_to(ROOT)}/")
    return nbs


# ---- 3. README --------------------------------------------------------------------------------------------
def nb_link(name: str, root: Path = ROOT) -> str:
    "The path of notebook `name` relative to the repository root: nbs/NAME, or eval/nbs/NAME for the evaluation project's."
    return source(name, [root/"nbs", root/"eval"/"nbs"]).relative_to(root).as_posix()


def readme_text(md: str, root: Path = ROOT) -> str:
    "nbconvert's markdown of the index notebook as README.md: links relative to the repository root, tidied."
    md = md.replace("](../", "](")  # links relative to nbs/ (e.g. ../eval/results/x.png) -> relative to the repo root
    md = re.sub(r"\]\((\w+\.ipynb)", lambda m: "](" + nb_link(m.group(1), root), md)
    md = md.replace("<!-- WARNING: THIS FILE WAS AUTOGENERATED! DO NOT EDIT! -->", "")  # nbdev's, about _proc/
    md = md.replace("![png](", "![figure](")
    md = re.sub(r"[ \t]+\n", "\n", md)
    md = re.sub(r"\n{3,}", "\n\n", md).strip() + "\n"
    return README_HEADER + md


def make_readme(dest: Path, img_dir: str = "README_files"):
    "README.md from the executed _proc/index.ipynb (images written to `img_dir` next to it)."
    import nbformat
    from nbconvert import MarkdownExporter
    from nbconvert.preprocessors import TagRemovePreprocessor
    nb = prepare(nbformat.read(PROC/"index.ipynb", as_version=4))
    ex = MarkdownExporter(preprocessors=[TagRemovePreprocessor(remove_input_tags={"remove_input"}, enabled=True)])
    md, res = ex.from_notebook_node(nb, resources={"output_files_dir": img_dir, "unique_key": "README"})
    for fn, data in res.get("outputs", {}).items():
        p = dest.parent/fn
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    dest.write_text(readme_text(md), encoding="utf-8")


def readme_problems(new: str, old: str, root: Path = ROOT) -> list:
    "Why the committed README (`old`) is not what the index notebook gives (`new`), and images it links that are missing."
    out = []
    if new != old:
        diff = "".join(list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "README.md (committed)",
                                                 "README.md (from nbs/index.ipynb)"))[:60])
        out.append("README.md is stale: run `bash tools/docs.sh` and commit README.md\n" + diff)
    missing = [p for p in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", new) if not p.startswith("http") and not (root/p).exists()]
    if missing:
        out.append(f"README.md links missing images: {missing}")
    return out


# ---- 4. checks with headless Chromium ---------------------------------------------------------------------
def chromium() -> str:
    for c in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(c):
            return shutil.which(c)
    fail("no chromium on PATH (tools/setup.sh installs Debian's `chromium`)")


def browse(url: str, profile: str, extra=()):
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
           f"--user-data-dir={profile}", "--virtual-time-budget=8000", *extra, url]
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}  # OpenBLAS preloaded into chromium aborts it
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)


def default_exp(nb_name: str) -> str | None:
    "The module a notebook exports to (its `#| default_exp`), e.g. 'fidelity', or None."
    import nbformat
    src = "\n".join(c.source for c in nbformat.read(source(nb_name), as_version=4).cells if c.cell_type == "code")
    m = re.search(r"^#\|\s*default_exp\s+(\S+)", src, re.M)
    return m.group(1) if m else None


def exported_names(nb_name: str) -> list:
    "Functions and classes defined in the module a notebook exports to (its `__all__`), or []: show_doc documents these."
    mod_name = default_exp(nb_name)
    if not mod_name:
        return []
    import importlib
    mod = importlib.import_module(f"{LIBS[source(nb_name).parent]}.{mod_name}")
    import inspect
    own = lambda o: (inspect.isfunction(o) or inspect.isclass(o)) and getattr(o, "__module__", None) == mod.__name__
    # re-exports are documented where defined, an alias (an old name kept) under its own name
    return [n for n in getattr(mod, "__all__", []) if own(o := getattr(mod, n, None)) and o.__name__ == n]


def expects_images(nb) -> bool:
    "A page must show images if any of its executed cells has an image output."
    return any("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


def has_doc_heading(name: str, headings: list) -> bool:
    "Whether one of a page's headings documents `name` (show_doc writes `name`, `name (args)`, `Class.name` or `name()`)."
    return any(h == name or h.startswith(name + " ") or h.endswith("." + name) or h == f"{name}()" for h in headings)


def page_problems(nb, info: dict, dom_text: str, names: list) -> list:
    "What is wrong with one rendered page, from what Chromium reported (`info`) and the page's text."
    errs = list(info["errors"])
    if "Traceback (most recent call last)" in dom_text:
        errs.append("a Traceback in the page")
    errs += ["error output in cell" for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    if info["broken_images"]:
        errs.append(f"broken images {info['broken_images']}")
    if expects_images(nb) and info["images"] == 0:
        errs.append("no <img> although the notebook has plots")
    missing = [s for s in names if not has_doc_heading(s, info["headings"])]
    if missing:
        errs.append(f"no API doc heading for {missing}")
    if info["text_len"] < 200:
        errs.append("page nearly empty")
    return errs


def check_site(nbs: dict) -> list:
    "Open every page in headless Chromium; the problems found."
    problems = []
    with tempfile.TemporaryDirectory(prefix="docs-chromium-") as prof:
        for n, nb in nbs.items():
            page = SITE/n.replace(".ipynb", ".html")
            r = browse(page.as_uri(), prof, ["--dump-dom"])
            m = re.search(r'<pre id="docs-check"[^>]*>(.*?)</pre>', r.stdout, re.S)
            if r.returncode or not m:
                problems.append(f"{page.name}: chromium did not report (exit {r.returncode}): {r.stderr.strip()[-300:]}")
                continue
            info = json.loads(html.unescape(m.group(1)))
            errs = page_problems(nb, info, re.sub(r"<[^>]+>", " ", r.stdout), exported_names(n))
            log(f"check {page.name}: {'ok' if not errs else 'FAIL'} ({info['images']} images, {info['tables']} tables, "
                f"{len(info['headings'])} headings)")
            problems += [f"{page.name}: {e}" for e in errs]
        shot = SITE/"screenshot_index.png"
        browse((SITE/"index.html").as_uri(), prof, [f"--screenshot={shot}", "--window-size=1280,1600", "--hide-scrollbars"])
        if shot.exists():
            log(f"screenshot of the index page: {shot.relative_to(ROOT)}")
    return problems


# ---- main -------------------------------------------------------------------------------------------------
def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="build, then check README.md and every page (CI)")
    p.add_argument("--readme", action="store_true", help="only regenerate README.md from nbs/index.ipynb")
    p.add_argument("--executed", action="store_true",
                   help="build from the notebooks tools/run_nbs.py executed into _proc/ (execute nothing)")
    p.add_argument("--save-outputs", nargs="+", metavar="NAME", help="execute these notebooks in place (names without .ipynb)")
    p.add_argument("--proc-one", metavar="NOTEBOOK", help=argparse.SUPPRESS)  # internal: one notebook, own process
    p.add_argument("--exec-one", metavar="NOTEBOOK", help=argparse.SUPPRESS)  # internal: one notebook, own process
    args = p.parse_args(argv)
    os.chdir(ROOT)
    os.environ.setdefault("MPLBACKEND", "Agg")  # this process imports the package (viz imports pyplot) for the checks
    if args.proc_one:
        proc_one(args.proc_one)
        return 0
    if args.exec_one:
        exec_in_place(args.exec_one)
        return 0
    if args.save_outputs:
        save_outputs([n if n.endswith(".ipynb") else n + ".ipynb" for n in args.save_outputs])
        return 0
    t0 = time.time()
    if args.readme:
        process(["index.ipynb"], fresh=False)
        make_readme(ROOT/"README.md")
        log("wrote README.md")
        return 0
    unlisted = missing_from_sidebars()
    if unlisted:
        fail(f"notebooks missing from their sidebar.yml: {' '.join(unlisted)}")
    if args.executed:
        if not (PROC/"index.ipynb").exists():
            fail("no executed notebooks in _proc/: run tools/run_nbs.py (bash tools/test.sh) first")
    else:
        process(notebooks())
    order = reading_order()
    log("pages in reading order:", " ".join(order))
    nbs = render_site(order)
    problems = []
    if not (PROC/"index.ipynb").exists():
        log("README.md not built or checked: DOCS_ONLY leaves out index")
    elif args.check:
        with tempfile.TemporaryDirectory() as d:
            make_readme(Path(d)/"README.md")
            old = (ROOT/"README.md").read_text() if (ROOT/"README.md").exists() else ""
            problems += readme_problems((Path(d)/"README.md").read_text(), old)
    else:
        make_readme(ROOT/"README.md")
        log("wrote README.md")
    if args.check:
        problems += check_site(nbs)
    if shutil.which("quarto"):
        log("quarto found: rendering the site in _proc/ (as nbdev_docs does)")
        subprocess.run(["quarto", "render", "--no-cache"], cwd=PROC, check=True)
        if (PROC/"_docs").exists():
            shutil.rmtree(ROOT/"_docs", ignore_errors=True)
            shutil.move(str(PROC/"_docs"), str(ROOT/"_docs"))
    for prob in problems:
        print(f"docs: FAILED: {prob}", file=sys.stderr)
    if problems:
        return 1
    log(f"{'checked' if args.check else 'built'} in {time.time() - t0:.0f}s: open {SITE.relative_to(ROOT)}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
