#!/usr/bin/env bash
# The test command: set up (tools/setup.sh), then run the notebooks' cells once with tools/run_nbs.py:
#   bash tools/test.sh               every notebook of both projects (nbs/, eval/nbs/), every cell, slow ones included,
#                                    then the docs built and checked from those executions (what CI runs)
#   bash tools/test.sh --quick       the library's notebooks without the cells that need a real model, a server or
#                                    mlx.launch (flags `slow`, `server`): a few minutes
#   bash tools/test.sh --nb NAME ... those notebooks, every cell, plus 01d_methods (the checks every method must pass)
# Prints 'notebooks: N passed, N failed' at the end. Other arguments go to tools/run_nbs.py (e.g. --jobs 1).
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh || exit 1
exec .venv/bin/python tools/run_nbs.py "$@"
