#!/usr/bin/env bash
# Build and check the documentation without quarto: runs tools/docs.py (see its docstring) with the project's venv.
#   bash tools/docs.sh            build _proc/_site/*.html and README.md
#   bash tools/docs.sh --check    build, then check README.md and every page in headless Chromium (CI)
#   bash tools/docs.sh --readme   only regenerate README.md from nbs/index.ipynb
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
exec "$PY" tools/docs.py "$@"
