"""Tests of tools/docs.py's pure parts (no notebook execution, no Chromium): `python -m unittest discover -s tools`."""
import os
import sys
import unittest
from pathlib import Path
from unittest import mock

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs  # noqa: E402


def _nb(*cells):
    return nbformat.v4.new_notebook(cells=list(cells))


class TestReadingOrder(unittest.TestCase):
    def test_sidebar_order(self):
        yml = "website:\n  sidebar:\n    contents:\n      - index.ipynb\n      - 00_scoring.ipynb\n      - section: x\n      -  20_viz.ipynb  \n"
        self.assertEqual(docs.sidebar_order(yml), ["index.ipynb", "00_scoring.ipynb", "20_viz.ipynb"])

    def test_notebooks_only(self):
        self.assertEqual(docs.notebooks("index 10_fidelity nope"), ["10_fidelity.ipynb", "index.ipynb"])
        every = docs.notebooks("")
        self.assertIn("10_fidelity.ipynb", every)  # the evaluation project's (eval/nbs/)
        self.assertIn("01c_cache.ipynb", every)  # the library's (nbs/)
        self.assertFalse(any(n.startswith(("_", ".")) for n in every))

    def test_default_exp(self):
        self.assertEqual(docs.default_exp("00_common.ipynb"), "common")
        self.assertEqual(docs.default_exp("10_fidelity.ipynb"), "fidelity")
        self.assertEqual(docs.default_exp("20_viz.ipynb"), "viz")
        self.assertIsNone(docs.default_exp("index.ipynb"))

    def test_source_and_exported_names(self):
        root = Path(docs.ROOT)
        self.assertEqual(docs.source("10_fidelity.ipynb"), root/"eval"/"nbs"/"10_fidelity.ipynb")
        self.assertEqual(docs.source("01c_cache.ipynb"), root/"nbs"/"01c_cache.ipynb")
        with self.assertRaises(FileNotFoundError):
            docs.source("09_bench.ipynb")
        self.assertIn("text_path", docs.exported_names("00_common.ipynb"))  # snapkv_eval.common
        self.assertIn("plot_kept", docs.exported_names("20_viz.ipynb"))  # snapkv_nb.viz
        ctx = docs.exported_names("07_context.ipynb")  # an old name kept as an alias is documented under its own name
        self.assertIn("document_score_fn", ctx)
        self.assertNotIn("document_scorer", ctx)


class TestPrepare(unittest.TestCase):
    def test_frontmatter_options_and_hidden_cells(self):
        nb = _nb(nbformat.v4.new_raw_cell("---\ntitle: Hello\ndescription: A page\n---"),
                 nbformat.v4.new_code_cell("#| echo: false\nx = 1"),
                 nbformat.v4.new_code_cell("#| include: false\nsecret = 2"),
                 nbformat.v4.new_code_cell("#| hide"),
                 nbformat.v4.new_markdown_cell("text"))
        out = docs.prepare(nb)
        self.assertEqual([c.cell_type for c in out.cells], ["markdown", "code", "markdown"])
        self.assertEqual(out.cells[0].source, "# Hello\n\n> A page")
        self.assertEqual(out.cells[1].source, "x = 1")
        self.assertEqual(out.cells[1].metadata["tags"], ["remove_input"])
        self.assertEqual(docs.title_of(out, "fallback"), "Hello")
        self.assertEqual(docs.title_of(_nb(), "fallback"), "fallback")

    def test_show_doc_source_links(self):
        c = nbformat.v4.new_code_cell("show_doc(f)")
        c.outputs = [nbformat.v4.new_output("display_data", data={
            "text/markdown": '[source](https://x/y.py#L1){target="_blank" style="float:right"}'})]
        out = docs.prepare(_nb(c))
        self.assertEqual(out.cells[0].outputs[0]["data"]["text/markdown"],
                         '<a href="https://x/y.py#L1" target="_blank" style="float:right">source</a>')


class TestSaveOutputs(unittest.TestCase):
    def test_skip_cell(self):
        self.assertTrue(docs.skip_cell(nbformat.v4.new_markdown_cell("# x")))
        self.assertTrue(docs.skip_cell(nbformat.v4.new_code_cell("#| eval: false\nrun()")))
        self.assertTrue(docs.skip_cell(nbformat.v4.new_code_cell("#|eval:False\nrun()")))
        self.assertFalse(docs.skip_cell(nbformat.v4.new_code_cell("#| slow\nrun()")))
        self.assertFalse(docs.skip_cell(nbformat.v4.new_code_cell("x = 'eval: false'")))


class TestPages(unittest.TestCase):
    def test_nav_and_page(self):
        nav = docs.nav_html(["index.ipynb", "00_common.ipynb"], "00_common.ipynb", {"index.ipynb": "A & B", "00_common.ipynb": "Bench"})
        self.assertIn('<a href="index.html">A &amp; B</a>', nav)
        self.assertIn('<a href="00_common.html" class=current>Bench</a>', nav)
        body = ('<html><head></head><body class="x"><script src="https://cdn/x.js"></script>'
                '<a href="10_fidelity.ipynb#results">r</a></body></html>')
        page = docs.page_html(body, r"<nav>\1</nav>", "p{}")
        self.assertNotIn("cdn/x.js", page)
        self.assertIn('href="10_fidelity.html#results"', page)
        self.assertIn(r'<body class="x"><nav>\1</nav>', page)  # the nav is inserted verbatim (no regex escapes)
        self.assertIn("__docs_errors", page)

    def test_doc_headings(self):
        heads = ["run_fidelity", "FidelityPreset (name, lengths)", "SnapKVCache.fork", "environment()"]
        for name in ("run_fidelity", "FidelityPreset", "fork", "environment"):
            self.assertTrue(docs.has_doc_heading(name, heads), name)
        self.assertFalse(docs.has_doc_heading("run", heads))

    def test_page_problems(self):
        ok = dict(errors=[], images=1, broken_images=[], headings=["plot_kept"], text_len=500)
        c = nbformat.v4.new_code_cell("f()")
        c.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBOR"})]
        nb = _nb(c)
        self.assertEqual(docs.page_problems(nb, ok, "", ["plot_kept"]), [])
        bad = dict(ok, images=0, text_len=10, errors=["script error: x"])
        self.assertEqual(docs.page_problems(nb, bad, "Traceback (most recent call last)", ["plot_scores"]),
                         ["script error: x", "a Traceback in the page", "no <img> although the notebook has plots",
                          "no API doc heading for ['plot_scores']", "page nearly empty"])


class TestReadme(unittest.TestCase):
    def test_readme_text(self):
        md = "<!-- WARNING: THIS FILE WAS AUTOGENERATED! DO NOT EDIT! -->\n![png](README_files/a.png)  \n\n\n\n" \
             "[plots](../eval/results/perf_memory.png) see [the cache](01c_cache.ipynb) and [fidelity](10_fidelity.ipynb)"
        self.assertEqual(docs.readme_text(md), docs.README_HEADER +
                         "![figure](README_files/a.png)\n\n[plots](eval/results/perf_memory.png) see [the cache](nbs/01c_cache.ipynb) "
                         "and [fidelity](eval/nbs/10_fidelity.ipynb)\n")
        with self.assertRaises(FileNotFoundError):  # a link to a notebook that is in neither project
            docs.readme_text("[old](09_bench.ipynb)")

    def test_readme_problems(self):
        root = Path(docs.ROOT)
        self.assertEqual(docs.readme_problems("![a](eval/results/perf_memory.png)\n", "![a](eval/results/perf_memory.png)\n", root), [])
        probs = docs.readme_problems("new\n![a](nope.png)\n", "old\n", root)
        self.assertTrue(probs[0].startswith("README.md is stale"))
        self.assertIn("-old", probs[0])
        self.assertEqual(probs[1], "README.md links missing images: ['nope.png']")


class TestEnvironment(unittest.TestCase):
    def test_child_env(self):
        env = docs.child_env({"PATH": "/bin"})
        self.assertEqual(env["MPLBACKEND"], "Agg")
        self.assertEqual(env["DOCS_SLOW_NBS"], docs.DEFAULT_SLOW_NBS)
        self.assertEqual(docs.child_env({"DOCS_SLOW_NBS": ""})["DOCS_SLOW_NBS"], "")  # "" means: no slow cells
        with mock.patch.object(docs.glob, "glob", return_value=["/usr/lib/x/openblas-pthread/libopenblas.so.0"]):
            self.assertEqual(docs.child_env({"LD_PRELOAD": "/a.so"})["LD_PRELOAD"], "/usr/lib/x/openblas-pthread/libopenblas.so.0:/a.so")
            self.assertEqual(docs.child_env({"LD_PRELOAD": "/y/libopenblas.so"})["LD_PRELOAD"], "/y/libopenblas.so")
        with mock.patch.object(docs.glob, "glob", return_value=[]):
            self.assertNotIn("LD_PRELOAD", docs.child_env({}))

    def test_slow_nbs(self):
        with mock.patch.dict(os.environ, {"DOCS_SLOW_NBS": "20_viz"}):
            self.assertEqual(docs.slow_nbs(), {"20_viz"})
        with mock.patch.dict(os.environ, {"DOCS_SLOW_NBS": ""}):
            self.assertEqual(docs.slow_nbs(), set())

    def test_skip_flags(self):
        with mock.patch.dict(os.environ, {"DOCS_SLOW_NBS": "20_viz"}):
            os.environ.pop("DOCS_SKIP_FLAGS", None)
            self.assertEqual(docs.skip_flags("20_viz"), set())  # a docs build: slow cells only where asked
            self.assertEqual(docs.skip_flags("07_context"), {"slow"})
            with mock.patch.dict(os.environ, {"DOCS_SKIP_FLAGS": ""}):  # tools/run_nbs.py's full run: every cell
                self.assertEqual(docs.skip_flags("07_context"), set())
            with mock.patch.dict(os.environ, {"DOCS_SKIP_FLAGS": "slow server"}):  # --quick
                self.assertEqual(docs.skip_flags("20_viz"), {"slow", "server"})


class TestSidebar(unittest.TestCase):
    def test_every_notebook_listed(self):
        self.assertEqual(docs.missing_from_sidebars(), [])
        listed = docs.sidebar_order((docs.NBS/"sidebar.yml").read_text())
        with mock.patch.object(docs, "sidebar_order", return_value=[n for n in listed if n != "09_keydiff.ipynb"]):
            self.assertIn("nbs/09_keydiff.ipynb", docs.missing_from_sidebars())


class TestRunNbs(unittest.TestCase):
    def test_tiers(self):
        import run_nbs
        parse = lambda *a: run_nbs.tier(run_nbs.argparse.Namespace(quick="--quick" in a, nb=[x for x in a if x[0] != "-"]))
        every, skip, build = parse()
        self.assertEqual((sorted(every), skip, build), (docs.notebooks(""), "", True))
        quick, skip, build = parse("--quick")
        self.assertEqual((skip.split(), build), (["slow", "server"], False))
        self.assertTrue(quick and all((docs.NBS/n).exists() for n in quick))  # the library's notebooks only
        self.assertNotIn("10_fidelity.ipynb", quick)
        self.assertEqual(parse("07_context", "10_fidelity.ipynb"),
                         (["01d_methods.ipynb", "07_context.ipynb", "10_fidelity.ipynb"], "", False))
        with self.assertRaises(SystemExit):
            parse("07_contxt")

    def test_quick_flags_are_nbdev_tests_flags(self):  # plain `nbdev_test` skips what --quick skips
        import configparser
        import run_nbs
        for ini in (docs.ROOT/"settings.ini", docs.ROOT/"eval"/"settings.ini"):
            cfg = configparser.ConfigParser()
            cfg.read(ini)
            self.assertEqual(cfg["DEFAULT"]["tst_flags"].split(), run_nbs.QUICK_SKIP.split())

    def test_slowest_first(self):
        import run_nbs
        with mock.patch.object(run_nbs, "TIMES", Path(docs.ROOT)/"nope.json"):
            self.assertEqual(run_nbs.slowest_first(["b", "a"]), ["b", "a"])  # no record: as given
        with tempfile_json({"a.ipynb": 5, "b.ipynb": 50}) as p, mock.patch.object(run_nbs, "TIMES", p):
            self.assertEqual(run_nbs.slowest_first(["a.ipynb", "b.ipynb", "new.ipynb"]), ["new.ipynb", "b.ipynb", "a.ipynb"])


class tempfile_json:
    "A temporary JSON file holding `obj`, as a context manager giving its path."
    def __init__(self, obj):
        import json
        import tempfile
        self.d = tempfile.TemporaryDirectory()
        self.p = Path(self.d.name)/"t.json"
        self.p.write_text(json.dumps(obj))

    def __enter__(self):
        return self.p

    def __exit__(self, *a):
        self.d.cleanup()


if __name__ == "__main__":
    unittest.main()
