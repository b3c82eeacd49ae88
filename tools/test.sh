#!/usr/bin/env bash
# The test command: set up (tools/setup.sh), then run every notebook's cell tests with nbdev_test,
# slow cells (real model) included. Prints 'notebooks: N passed, N failed' at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh || exit 1
blas=$(ls /usr/lib/*/openblas-pthread/libopenblas.so.0 2>/dev/null | head -n 1)
[ -n "$blas" ] && export LD_PRELOAD="$blas${LD_PRELOAD:+:$LD_PRELOAD}"
out=$(mktemp)
.venv/bin/nbdev_test --flags "${SNAPKV_TEST_FLAGS-slow}" --do_print --timing "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
total=$(grep -c '^Starting ' "$out")
failed=$(sed -n '/Tests Failed On The Following Notebooks/,$p' "$out" | grep -c $'^\t')
[ "$rc" != 0 ] && [ "$failed" = 0 ] && failed=1
echo "notebooks: $((total - failed)) passed, $failed failed"
rm -f "$out"
exit "$rc"
