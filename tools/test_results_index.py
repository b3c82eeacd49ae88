"""Tests of tools/results_index.py on small made-up notebooks and results: `python -m unittest discover -s tools`."""
import ast
import contextlib
import io
import json
import re
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_index as ri  # noqa: E402


def _named(code:str, files:list) -> list:
    "The files of `files` that the code names, by the index's reading of it."
    rxs = ri.patterns([ast.parse(code)])
    return [f for f in files if any(re.fullmatch(r, f) for r in rxs)]


FILES = ["a_x.json", "a_y.json", "a_z.json", "b_1.json", "b_2.json", "c.json", "d_smol.json", "sub/e.json"]


class TestPatterns(unittest.TestCase):
    def test_literals_and_subfolders(self):
        self.assertEqual(_named('load("../results/c.json"); R/"sub/e.json"', FILES), ["c.json", "sub/e.json"])

    def test_fstring_over_a_loop_names_only_its_values(self):
        code = 'for k in ("x", "y"): load(f"../results/a_{k}.json")'
        self.assertEqual(_named(code, FILES), ["a_x.json", "a_y.json"])  # not a_z.json
        code = 'rs = {k: load(f"a_{k}.json") for k in "xz"}'
        self.assertEqual(_named(code, FILES), ["a_x.json", "a_z.json"])

    def test_fstring_over_a_named_tuple_unpacked(self):
        code = 'labels = (("smol", "S"), ("big", "B"))\nxs = [load(f"d_{m}.json") for m, lab in labels]'
        self.assertEqual(_named(code, FILES), ["d_smol.json"])

    def test_lambda_star_args(self):
        code = '_ld = lambda *fs: [load(f"b_{f}.json") for f in fs]\nx = _ld("2")'
        self.assertEqual(_named(code, FILES), ["b_2.json"])

    def test_glob_and_unknown_variable(self):
        self.assertEqual(_named('Path("../results").glob("b_?.json")', FILES), ["b_1.json", "b_2.json"])
        self.assertEqual(_named('def f(m): return load(f"a_{m}.json")', FILES), ["a_x.json", "a_y.json", "a_z.json"])

    def test_writers_pattern_and_docstrings_name_nothing(self):
        self.assertEqual(_named('def w(stem):\n    "writes c.json"\n    save(f"{stem}.json")', FILES), [])

    def test_text(self):
        rxs = ri.text_patterns("merged from `results/b_1.json` and `..._2.json`, see a_{x}.json")
        self.assertEqual([f for f in FILES if any(re.fullmatch(r, f) for r in rxs)],
                         ["a_x.json", "a_y.json", "a_z.json", "b_1.json"])


def _nb(path:Path, *cells):
    path.write_text(json.dumps({"cells": [{"cell_type": k, "source": s, "metadata": {}} for k, s in cells],
                                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


class TestIndex(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = self.root = Path(self.tmp.name)
        for d in ("eval/nbs", "eval/results/archive", "nbs"): (root/d).mkdir(parents=True)
        _nb(root/"eval/nbs/10_x.ipynb", ("code", 'r = load("../results/read.json")'))
        _nb(root/"nbs/index.ipynb", ("markdown", "see `eval/results/cited.json`"))
        env = {"commit": "0123456789ab", "dirty": True, "command": "snapkv-eval x --preset small"}
        for f in ("read.json", "cited.json", "unread.json", "archive/old.json"):
            (root/"eval/results"/f).write_text(json.dumps({"provenance": env}))
        (root/"eval/results/read_plot.png").write_bytes(b"")

    def tearDown(self): self.tmp.cleanup()

    def _main(self, *args):
        err = io.StringIO()
        with mock.patch.object(ri, "ROOT", self.root), contextlib.redirect_stderr(err): rc = ri.main(list(args))
        return rc, err.getvalue()

    def test_columns(self):
        text = ri.index_text(self.root)
        self.assertIn("| `read.json` | eval/nbs/10_x.ipynb | `snapkv-eval x --preset small` | 01234567+dirty "
                      "| read_plot.png |",
                      text)
        self.assertIn("| `cited.json` | nbs/index.ipynb (README) (text) |", text)
        self.assertIn("| `unread.json` | **nothing** |", text)
        self.assertIn("## Archive (1 files)", text)
        self.assertIn("| `archive/old.json` | `snapkv-eval x --preset small` |", text)

    def test_reads_through_another_notebooks_export(self):
        _nb(self.root/"eval/nbs/11_y.ipynb", ("code", '#| export\nCOST = "c_{}.json"\n'
                                                     'def read(results, model): return load(f"{results}/d_{model}.json")'))
        _nb(self.root/"nbs/index.ipynb", ("code", 'for m in ("smol",): read(R, m), load(COST.format(m))'))
        for f in ("d_smol.json", "d_big.json", "c_smol.json"): (self.root/"eval/results"/f).write_text("{}")
        got = ri.readers(self.root, ["d_smol.json", "d_big.json", "c_smol.json"])
        self.assertEqual(got, {"d_smol.json": ["eval/nbs/11_y.ipynb", "nbs/index.ipynb (README)"],  # in 11_y: any model
                               "d_big.json": ["eval/nbs/11_y.ipynb"],  # the README asks for smol only
                               "c_smol.json": ["eval/nbs/11_y.ipynb", "nbs/index.ipynb (README)"]})

    def test_check(self):
        self.assertEqual(self._main("--check")[0], 1)  # no INDEX.md yet
        self.assertEqual(self._main(), (0, ""))
        self.assertEqual(self._main("--check"), (0, ""))
        (self.root/"eval/results/new.json").write_text("{}")
        rc, err = self._main("--check")
        self.assertEqual((rc, err.count("\n")), (1, 1))
        self.assertIn("misses new.json", err)
        (self.root/"eval/results/new.json").unlink()
        (self.root/"eval/results/read.json").write_text(json.dumps({"call": "other"}))
        self.assertIn("is stale", self._main("--check")[1])

    def test_rebuilt_command(self):
        d = dict(model="smollm2", part="answers", seeds=[500, 529], presets=["full", "surrogate"], ratios=[2, 4])
        self.assertEqual(ri.command_of("doc_cost_x.json", d),
                         "`snapkv-eval doc-cost answers smollm2 results/doc_cost_x.json 500-529 full,surrogate 2,4`"
                         " (rebuilt)")
        d["seeds"] = [500, 501, 502]  # the documents of runs merged, not the range one command took
        self.assertIn("(rebuilt; runs of parts of these documents, merged)", ri.command_of("doc_cost_x.json", d))
        self.assertEqual(ri.command_of("tasks.json", {"preset": {"name": "full"}, "tasks": []}),
                         "`snapkv-eval tasks --preset full` (rebuilt)")


if __name__ == "__main__":
    unittest.main()
