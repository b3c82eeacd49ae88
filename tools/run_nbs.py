#!/usr/bin/env python3
"""Run the notebooks' cells once: the test runner behind tools/test.sh, whose executed copies the docs are built from.

    python tools/run_nbs.py              every notebook of both projects (nbs/, eval/nbs/), every cell but
                                         `#| eval: false` (slow ones included); then the docs from those executions
    python tools/run_nbs.py --quick      the library's notebooks (nbs/) without the cells flagged `slow` (a real model)
                                         or `server` (a server process or `mlx.launch`): the inner loop, no docs
    python tools/run_nbs.py --nb 07_context [...]
                                         those notebooks, every cell, plus 01d_methods (the checks every method must
                                         pass); no docs

A full run executes each notebook through nbdev's processing (tools/docs.py's `proc_one`: the cells `nbdev_test`
runs, plus the `show_doc` cells nbdev adds for the pages) in a fresh worker process, `--jobs` at a time (default: the
CPU count), the slowest first (tools/nb_times.json, rewritten by `--save-times` after a full run); the inner-loop
tiers run `nbdev_test` itself. The executed notebooks land in
_proc/, each one's output in _proc/logs/NAME.log (printed when it fails). The last line is
`notebooks: N passed, N failed`.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs  # noqa: E402

ROOT, PROC = docs.ROOT, docs.PROC
TIMES = ROOT/"tools"/"nb_times.json"  # seconds per notebook in the last full run: the order notebooks start in
METHOD_CHECKS = "01d_methods.ipynb"  # what every method must pass: `--nb` runs it beside the notebooks named
QUICK_SKIP = "slow server"  # cell flags `--quick` leaves out (settings.ini's tst_flags: what `nbdev_test` skips too)


def tier(args) -> tuple:
    "(notebooks, flags of the cells not run, build the docs?) for the arguments given."
    every = docs.notebooks("")
    if args.quick:
        return [n for n in every if (docs.NBS/n).exists()], QUICK_SKIP, False
    if args.nb:
        names = [n if n.endswith(".ipynb") else n + ".ipynb" for n in args.nb]
        unknown = [n for n in names if n not in every]
        if unknown:
            raise SystemExit(f"run_nbs: no notebook {', '.join(unknown)} in nbs/ or eval/nbs/")
        return sorted(set(names) | {METHOD_CHECKS}), "", False
    return every, "", True


def slowest_first(names: list) -> list:
    "`names`, those that took longest in the last full run first (unknown ones first of all: they may be slow)."
    times = json.loads(TIMES.read_text()) if TIMES.exists() else {}
    return sorted(names, key=lambda n: -times.get(n, float("inf")))


def run_one(name: str) -> tuple:
    """Execute one notebook in this worker process (`docs.proc_one`), its output (and its subprocesses') in
    _proc/logs/NAME.log; (name, passed?, seconds)."""
    import traceback
    log = PROC/"logs"/(name[:-6] + ".log")
    t0, ok = time.time(), True
    sys.stdout.flush(); sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "w") as f:
        os.dup2(f.fileno(), 1); os.dup2(f.fileno(), 2)
        try:
            docs.proc_one(name)
        except BaseException:  # a failing cell (or anything else): the notebook failed, the worker goes on
            traceback.print_exc()
            ok = False
        finally:
            sys.stdout.flush(); sys.stderr.flush()
            os.dup2(saved[0], 1); os.dup2(saved[1], 2)
            os.chdir(ROOT)
    for fd in saved:
        os.close(fd)
    return name, ok, time.time() - t0


def init_worker(skip: str):
    "A worker's environment: the notebooks' (docs.child_env: Agg, OpenBLAS noted) and the flags of the cells not run."
    os.environ.update(docs.child_env())
    os.environ["DOCS_SKIP_FLAGS"] = skip


def execute(names: list, skip: str, jobs: int) -> dict:
    """Every notebook of `names` executed into _proc/ by `jobs` worker processes, a fresh one for each notebook (forked
    from this process, which has imported nothing heavy): no notebook sees another's registrations, warnings said
    once per process or settings; the slowest first; {name: (passed?, seconds)}."""
    import multiprocessing as mp
    import run_nbs  # the workers' task by this module's name: a notebook's IPython shell replaces the workers' __main__
    res = {}
    ctx = mp.get_context("fork")  # this process has imported nothing but the standard library and tools/docs.py
    with ctx.Pool(jobs, initializer=init_worker, initargs=(skip,), maxtasksperchild=1) as pool:
        for name, ok, dt in pool.imap_unordered(run_nbs.run_one, slowest_first(names), chunksize=1):
            print(f"{'ok    ' if ok else 'FAILED'} {name} ({dt:.0f}s)", flush=True)
            if not ok:
                print((PROC/"logs"/(name[:-6] + ".log")).read_text()[-6000:], flush=True)
            res[name] = ok, dt
    return res


def nbdev_test(names: list, skip: str, jobs: int) -> list:
    """The inner-loop tiers: `nbdev_test` itself (worker processes reused, so imports are paid once per worker) on
    `names`, cells flagged `skip` left out; the notebooks that failed."""
    flags = " ".join(f for f in docs.FLAGS if f not in skip.split())  # nbdev_test runs tst_flags' cells given --flags
    failed = []
    for d in docs.NB_DIRS:
        mine = [n for n in names if (d/n).exists()]
        if not mine:
            continue
        path = [] if len(mine) == len(list(d.glob("[!_.]*.ipynb"))) else ["--path", " ".join(mine)]
        if len(mine) > 1 and path:  # nbdev_test takes one name or glob: several notebooks, one call each
            failed += [n for n in mine if nbdev_test([n], skip, jobs)]
            continue
        cmd = [str(Path(sys.executable).parent/"nbdev_test"), *path, "--flags", flags, "--n_workers", str(jobs),
               "--do_print", "--timing"]
        r = subprocess.run(cmd, cwd=d.parent, env=docs.child_env(), capture_output=True, text=True)
        print(r.stdout, end="", flush=True)
        if r.returncode:
            print(r.stderr[-6000:], flush=True)
            bad = r.stderr.split("Tests Failed On The Following Notebooks:")[-1].split()
            failed += [n for n in mine if n in bad] or mine
    return failed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="nbs/ only, without `slow` and `server` cells")
    g.add_argument("--nb", nargs="+", metavar="NAME", help="these notebooks (and 01d_methods), every cell")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="notebooks at a time")
    p.add_argument("--no-docs", action="store_true", help="after a full run, do not build and check the docs")
    p.add_argument("--save-times", action="store_true", help="after a full run, write tools/nb_times.json")
    args = p.parse_args(argv)
    env = docs.child_env()
    if env.get("LD_PRELOAD") != os.environ.get("LD_PRELOAD"):  # Debian's OpenBLAS, preloaded from the start
        os.execve(sys.executable, [sys.executable, __file__, *(sys.argv[1:] if argv is None else argv)], env)
    names, skip, build_docs = tier(args)
    if not build_docs:
        failed = nbdev_test(names, skip, args.jobs)
        print(f"run_nbs: failed: {' '.join(failed)}" if failed else "run_nbs: all passed", flush=True)
        print(f"notebooks: {len(names) - len(failed)} passed, {len(failed)} failed", flush=True)
        return 1 if failed else 0
    docs.fresh_proc()
    (PROC/"logs").mkdir()
    t0 = time.time()
    print(f"run_nbs: {len(names)} notebooks, {args.jobs} at a time, cells flagged [{skip}] not run", flush=True)
    res = execute(names, skip, args.jobs)
    failed = sorted(n for n, (ok, _) in res.items() if not ok)
    wall = time.time() - t0
    print(f"run_nbs: {wall:.0f}s wall; slowest: " +
          ", ".join(f"{n[:-6]} {t:.0f}s" for n, (_, t) in sorted(res.items(), key=lambda x: -x[1][1])[:8]), flush=True)
    if args.save_times and not (args.quick or args.nb):
        TIMES.write_text(json.dumps({n: round(t) for n, (_, t) in sorted(res.items())}, indent=1) + "\n")
    n = len(names)
    if build_docs and not args.no_docs and not failed:  # pages and README from these executions, counted as one more
        n += 1
        if subprocess.run([sys.executable, str(ROOT/"tools"/"docs.py"), "--check", "--executed"], cwd=ROOT).returncode:
            failed.append("the docs (tools/docs.py --check --executed)")
        print(f"run_nbs: docs {'check FAILED' if failed else 'checked'}", flush=True)
    if failed:
        print("run_nbs: failed: " + " ".join(failed), flush=True)
    print(f"notebooks: {n - len(failed)} passed, {len(failed)} failed", flush=True)  # the docs check counted as one
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
