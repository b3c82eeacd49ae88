#!/usr/bin/env bash
# Build and check the documentation without quarto (which cannot be installed on these machines).
#
#   bash tools/docs.sh            build: _proc/ (executed), _proc/_site/*.html, README.md (+ README_files/)
#   bash tools/docs.sh --check    build, then check: README.md unchanged, every page loads in headless
#                                 Chromium without errors and shows its API docs and images (CI runs this)
#   bash tools/docs.sh --readme   only regenerate README.md from nbs/index.ipynb
#
# How (see the report in the index notebook's "Docs" section for the why):
#  1. nbdev's own processing of nbs/*.ipynb into _proc/ (what `nbdev_proc_nbs` does, minus its attempt to
#     install quarto), with one change: instead of executing only the cells `show_doc` needs, every cell is
#     executed except `#| slow` ones and `#| eval: false` ones, so the plots are in the pages. Slow cells of
#     the notebooks in $DOCS_SLOW_NBS (default: 20_viz 30_cli, the real-model pictures and the demo, ~30 s)
#     are executed too; set DOCS_SLOW_NBS="" to skip them (no model needed then). DOCS_ONLY="index 20_viz"
#     builds only those pages (for quick iterations).
#  2. each processed notebook -> _proc/_site/NAME.html with nbconvert, a sidebar in the reading order of
#     nbs/sidebar.yml, nbs/styles.css, no external scripts.
#  3. README.md <- _proc/index.ipynb with nbconvert's markdown exporter; images go to README_files/.
#  4. with quarto on PATH: `quarto render` in _proc/ -> _docs/, the site `nbdev_docs` makes, now with plots.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
blas=$(ls /usr/lib/*/openblas-pthread/libopenblas.so.0 2>/dev/null | head -n 1 || true)
if [ -n "$blas" ] && [[ "${LD_PRELOAD:-}" != *libopenblas* ]]; then export LD_PRELOAD="$blas${LD_PRELOAD:+:$LD_PRELOAD}"; fi
export DOCS_SLOW_NBS="${DOCS_SLOW_NBS-20_viz 30_cli}"
export MPLBACKEND=Agg

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/docs.py" <<'PY'
import json, os, re, shutil, subprocess, sys, tempfile, time, html
from pathlib import Path

args = sys.argv[1:]
CHECK, README_ONLY = "--check" in args, "--readme" in args
ROOT = Path.cwd()
NBS, PROC = ROOT/"nbs", ROOT/"_proc"
SITE = PROC/"_site"   # inside _proc/ (git-ignored; quarto skips folders starting with _)
SLOW_NBS = set(os.environ.get("DOCS_SLOW_NBS", "").split())
t_start = time.time()

def log(*a): print("docs:", *a, flush=True)
def fail(msg): print(f"docs: FAILED: {msg}", file=sys.stderr, flush=True); sys.exit(1)

# ---- 1. process and execute -------------------------------------------------------------------------
from execnb.shell import CaptureShell
from nbdev.processors import FilterDefaults, exec_show_docs
from nbdev.process import Processor
import nbdev.serve, nbdev.serve_drv

class exec_all(Processor):
    "Execute every code cell except `#| slow` (unless the notebook is in DOCS_SLOW_NBS) and `#| eval: false`."
    def begin(self):
        self.k = CaptureShell()
        self.k.run_cell("from nbdev.showdoc import show_doc")
        self.name = Path(self.nb.path_).stem
        self.slow = self.name in SLOW_NBS
        os.chdir(Path(self.nb.path_).parent)   # notebooks read ../results/*.json relative to nbs/
        self.t0 = time.time()
    def __call__(self, cell):
        if cell.cell_type != "code" or not cell.source: return
        d = cell.directives_
        if "slow" in d and not self.slow: return
        if d.get("eval:", [""])[0].lower() == "false": return
        self.k.cell(cell)
        if self.k.exc:
            raise Exception(f"docs: error executing {self.name} cell {cell.idx_}:\n{cell.source}") from self.k.exc
    def end(self):
        os.chdir(ROOT)
        log(f"executed {self.name} ({time.time() - self.t0:.0f}s)")

class DocsFilter(FilterDefaults):
    def base_procs(self):
        return [exec_all if p is exec_show_docs else p for p in super().base_procs()]

def process(only=None):
    """nbdev's notebook processing into _proc/ (what `nbdev_proc_nbs` does, without its quarto install),
    with `DocsFilter`; each notebook in a fresh Python process, as nbdev_test runs them."""
    if only is None:
        if PROC.exists(): shutil.rmtree(PROC)
        PROC.mkdir()
        for f in sorted(NBS.iterdir()):   # _quarto.yml, sidebar.yml, styles.css, ... as proc_nbs copies them
            if f.is_file() and f.suffix != ".ipynb" and not f.name.startswith("."): shutil.copy2(f, PROC/f.name)
        names = [f.name for f in sorted(NBS.glob("*.ipynb")) if not f.name.startswith((".", "_"))]
        if os.environ.get("DOCS_ONLY"):   # for quick iterations: DOCS_ONLY="index 20_viz" bash tools/docs.sh
            names = [n for n in names if n[:-6] in os.environ["DOCS_ONLY"].split()]
    else: names = [only]
    PROC.mkdir(exist_ok=True)
    for n in names:
        r = subprocess.run([sys.executable, __file__, "--proc-one", n])
        if r.returncode: fail(f"executing {n} failed (output above)")

def proc_one(name):
    "Process and execute one notebook (run in its own process)."
    nbdev.serve_drv.main((NBS/name, PROC/name, DocsFilter))

def reading_order():
    "Notebooks in the order of nbs/sidebar.yml (those that exist)."
    names = re.findall(r"^\s*-\s*(\S+\.ipynb)\s*$", (NBS/"sidebar.yml").read_text(), re.M)
    return [n for n in names if (PROC/n).exists()]

# ---- 2. HTML pages ----------------------------------------------------------------------------------
import nbformat
from nbconvert import HTMLExporter, MarkdownExporter

def prepare(nb):
    "Quarto-isms nbconvert does not know: frontmatter -> title; `#|` lines dropped; echo: false -> no input."
    cells = []
    for c in nb.cells:
        if c.cell_type == "raw" and c.source.startswith("---"):
            import yaml
            fm = yaml.safe_load(c.source.strip().strip("-")) or {}
            src = f"# {fm.get('title', '')}\n\n" + (f"> {fm['description']}" if fm.get("description") else "")
            cells.append(nbformat.v4.new_markdown_cell(src)); continue
        if c.cell_type == "code":
            lines = c.source.splitlines()
            opts = [l for l in lines if l.startswith("#|")]
            c.source = "\n".join(l for l in lines if not l.startswith("#|")).strip("\n")
            for o in c.get("outputs", []):   # show_doc's quarto link attributes -> plain HTML
                md = o.get("data", {}).get("text/markdown")
                if md: o["data"]["text/markdown"] = re.sub(r'\[source\]\(([^)]*)\)\{target="_blank" style="([^"]*)"\}',
                                                           r'<a href="\1" target="_blank" style="\2">source</a>', md)
            tags = c.metadata.setdefault("tags", [])
            if any(re.match(r"#\|\s*echo:\s*false", o) for o in opts): tags.append("remove_input")
            if any(re.match(r"#\|\s*(output|include):\s*false", o) for o in opts): continue
            if not c.source and not c.get("outputs"): continue
        cells.append(c)
    nb.cells = cells
    nb.metadata.setdefault("language_info", {"name": "python"})   # code blocks marked as python
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

def title_of(nb, name):
    for c in nb.cells:
        if c.cell_type == "markdown" and c.source.startswith("# "): return c.source.splitlines()[0][2:].strip()
    return name

def render_site(order):
    if SITE.exists(): shutil.rmtree(SITE)
    SITE.mkdir()
    nbs = {n: prepare(nbformat.read(PROC/n, as_version=4)) for n in order}
    titles = {n: title_of(nb, n) for n, nb in nbs.items()}
    css = (NBS/"styles.css").read_text() if (NBS/"styles.css").exists() else ""
    from nbconvert.preprocessors import TagRemovePreprocessor
    ex = HTMLExporter(template_name="lab", exclude_input_prompt=True, exclude_output_prompt=True, preprocessors=[TagRemovePreprocessor(remove_input_tags={"remove_input"}, enabled=True)])
    for n, nb in nbs.items():
        body, _ = ex.from_notebook_node(nb)
        body = re.sub(r'<script[^>]*src="https?://[^"]*"[^>]*>\s*</script>', "", body)   # no CDN scripts
        body = re.sub(r'<script type="module">.*?</script>', "", body, flags=re.S)   # mermaid loader (CDN)
        body = re.sub(r'href="(\w+)\.ipynb(#[^"]*)?"', r'href="\1.html\2"', body)   # links between notebooks
        page = n.replace(".ipynb", ".html")
        nav = "".join(f'<a href="{m.replace(".ipynb", ".html")}"{" class=current" if m == n else ""}>{html.escape(titles[m])}</a>'
                      for m in order)
        nav = f'<nav class="docs-nav"><span class="brand">snapkv_nb</span>{nav}</nav>'
        body = body.replace("<head>", "<head>\n" + CHECK_JS, 1)
        body = body.replace("</head>", f"{NAV_CSS}<style>{css}</style></head>", 1)
        body = re.sub(r"(<body[^>]*>)", r"\1" + nav.replace("\\", "\\\\"), body, count=1)
        (SITE/page).write_text(body, encoding="utf-8")
    log(f"rendered {len(nbs)} pages into {SITE.relative_to(ROOT)}/")
    return nbs

# ---- 3. README ----------------------------------------------------------------------------------------
def make_readme(dest:Path, img_dir:str="README_files"):
    "README.md from the executed _proc/index.ipynb (images written to `img_dir` next to it)."
    nb = prepare(nbformat.read(PROC/"index.ipynb", as_version=4))
    from nbconvert.preprocessors import TagRemovePreprocessor
    ex = MarkdownExporter(preprocessors=[TagRemovePreprocessor(remove_input_tags={"remove_input"}, enabled=True)])
    md, res = ex.from_notebook_node(nb, resources={"output_files_dir": img_dir, "unique_key": "README"})
    out_dir = dest.parent
    for fn, data in res.get("outputs", {}).items():
        p = out_dir/fn; p.parent.mkdir(parents=True, exist_ok=True); p.write_bytes(data)
    md = md.replace("](../results/", "](results/")   # links relative to nbs/ -> relative to the repo root
    md = re.sub(r"\]\((\w+\.ipynb)", r"](nbs/\1", md)
    md = md.replace("<!-- WARNING: THIS FILE WAS AUTOGENERATED! DO NOT EDIT! -->", "")   # nbdev's, about _proc/
    md = md.replace("![png](", "![figure](")
    md = re.sub(r"[ \t]+\n", "\n", md)
    md = re.sub(r"\n{3,}", "\n\n", md).strip() + "\n"
    header = "<!-- Generated from nbs/index.ipynb by tools/docs.sh: edit the notebook, not this file. -->\n\n"
    dest.write_text(header + md, encoding="utf-8")

# ---- 4. checks with headless Chromium --------------------------------------------------------------------
def chromium():
    for c in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(c): return shutil.which(c)
    fail("no chromium on PATH (tools/setup.sh installs Debian's `chromium`)")

def browse(url, profile, extra=()):
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
           f"--user-data-dir={profile}", "--virtual-time-budget=8000", *extra, url]
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}   # OpenBLAS preloaded into chromium aborts it
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)

def exported_names(nb_name):
    "Functions and classes in the `__all__` of the module a notebook exports to (its `#| default_exp`), or []."
    src = "\n".join(c.source for c in nbformat.read(NBS/nb_name, as_version=4).cells if c.cell_type == "code")
    m = re.search(r"^#\|\s*default_exp\s+(\S+)", src, re.M)
    if not m: return []
    import importlib
    mod = importlib.import_module(f"snapkv_nb.{m.group(1)}")
    return [n for n in getattr(mod, "__all__", []) if callable(getattr(mod, n, None))]   # show_doc documents these

def expects_images(nb):
    "A page must show images if any of its executed cells has an image output."
    return any("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))

def check_site(nbs):
    problems = []
    with tempfile.TemporaryDirectory(prefix="docs-chromium-") as prof:
        for n, nb in nbs.items():
            page = SITE/n.replace(".ipynb", ".html")
            r = browse(page.as_uri(), prof, ["--dump-dom"])
            m = re.search(r'<pre id="docs-check"[^>]*>(.*?)</pre>', r.stdout, re.S)
            if r.returncode or not m:
                problems.append(f"{page.name}: chromium did not report (exit {r.returncode}): {r.stderr.strip()[-300:]}"); continue
            info = json.loads(html.unescape(m.group(1)))
            dom_text = re.sub(r"<[^>]+>", " ", r.stdout)
            errs = list(info["errors"])
            if "Traceback (most recent call last)" in dom_text: errs.append("a Traceback in the page")
            errs += [f"error output in cell" for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
            if info["broken_images"]: errs.append(f"broken images {info['broken_images']}")
            if expects_images(nb) and info["images"] == 0: errs.append("no <img> although the notebook has plots")
            heads = " | ".join(info["headings"])
            missing = [s for s in exported_names(n) if not any(h == s or h.startswith(s + " ") or h.endswith("." + s) or h == f"{s}()"
                                                             for h in info["headings"])]
            if missing: errs.append(f"no API doc heading for {missing}")
            if info["text_len"] < 200: errs.append("page nearly empty")
            status = "ok" if not errs else "FAIL"
            log(f"check {page.name}: {status} ({info['images']} images, {info['tables']} tables, {len(info['headings'])} headings)")
            problems += [f"{page.name}: {e}" for e in errs]
        shot = SITE/"screenshot_index.png"
        browse((SITE/"index.html").as_uri(), prof, [f"--screenshot={shot}", "--window-size=1280,1600", "--hide-scrollbars"])
        if shot.exists(): log(f"screenshot of the index page: {shot.relative_to(ROOT)}")
    return problems

# ---- main ----------------------------------------------------------------------------------------------
if "--proc-one" in args:
    proc_one(args[args.index("--proc-one") + 1]); sys.exit(0)

if README_ONLY:
    process(only="index.ipynb")
    make_readme(ROOT/"README.md"); log("wrote README.md"); sys.exit(0)

process()
order = reading_order()
log("pages in reading order:", " ".join(order))
nbs = render_site(order)

problems = []
if CHECK:
    with tempfile.TemporaryDirectory() as d:
        make_readme(Path(d)/"README.md")
        new, old = (Path(d)/"README.md").read_text(), (ROOT/"README.md").read_text() if (ROOT/"README.md").exists() else ""
        if new != old:
            import difflib
            diff = "".join(list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "README.md (committed)", "README.md (from nbs/index.ipynb)"))[:60])
            problems.append("README.md is stale: run `bash tools/docs.sh` and commit README.md\n" + diff)
        missing = [p for p in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", new) if not p.startswith("http") and not (ROOT/p).exists()]
        if missing: problems.append(f"README.md links missing images: {missing}")
    problems += check_site(nbs)
else:
    make_readme(ROOT/"README.md"); log("wrote README.md")

if shutil.which("quarto"):
    log("quarto found: rendering the site in _proc/ (as nbdev_docs does)")
    subprocess.run("cd _proc && quarto render --no-cache", shell=True, check=True)
    if (PROC/"_docs").exists():
        shutil.rmtree(ROOT/"_docs", ignore_errors=True); shutil.move(str(PROC/"_docs"), str(ROOT/"_docs"))

if problems:
    for p in problems: print(f"docs: FAILED: {p}", file=sys.stderr)
    sys.exit(1)
log(f"{'checked' if CHECK else 'built'} in {time.time() - t_start:.0f}s: open {SITE.relative_to(ROOT)}/index.html")
PY
"$PY" "$tmp/docs.py" "$@"
