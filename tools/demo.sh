#!/usr/bin/env bash
# The demo on a fresh machine: set up (tools/setup.sh: Debian's OpenBLAS, a .venv with the package), then
# `snapkv demo` (the embedded SmolLM2-135M-Instruct answers a question about a fact in the middle of a
# ~1000-token text, with the full KV cache and with SnapKV; both answers, memory and speed are printed).
# Extra arguments go to `snapkv demo` (e.g. --budget 64). The docs build is not needed for the demo, so
# Chromium is not installed here.
set -euo pipefail
cd "$(dirname "$0")/.."
SNAPKV_DOCS_CHECK=0 bash tools/setup.sh
exec .venv/bin/snapkv demo "$@"
