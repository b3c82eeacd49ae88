#!/usr/bin/env bash
# Set up snapkv_nb for development on a fresh machine: Debian's OpenBLAS (Linux, for fast fp32
# matmul on CPU), Debian's Chromium (for the docs check), a venv in .venv with the library in
# editable mode and its dev extras, then the evaluation project (eval/, snapkv_eval: the benchmarks and
# their `snapkv-eval` command) editable on top of it. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)" = Linux ] && command -v apt-get >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  need=""
  ls /usr/lib/*/openblas-pthread/libopenblas.so.0 >/dev/null 2>&1 || need="$need libopenblas0-pthread"
  if [ "${SNAPKV_DOCS_CHECK:-1}" = 1 ] && ! command -v chromium >/dev/null 2>&1; then need="$need chromium"; fi
  if [ -n "$need" ]; then
    echo "setup: apt-get install$need"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
  fi
fi

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -m pip install -q -e ".[dev]" 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -m pip install -q -e eval 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -c "import snapkv_nb, snapkv_eval, mlx.core, mlx_lm, nbdev" || { echo "setup: the venv is broken" >&2; exit 1; }
echo "setup: ok ($(.venv/bin/python -c 'import mlx.core as mx, mlx_lm; print("mlx", mx.__version__, "mlx-lm", mlx_lm.__version__)'))"
