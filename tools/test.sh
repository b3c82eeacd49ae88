#!/usr/bin/env bash
# The test command: set up (tools/setup.sh), then run every notebook's cell tests with nbdev_test, slow cells (real
# model) included, in both nbdev projects of the repository: the library (nbs/) and the evaluation project (eval/nbs/).
# Prints 'notebooks: N passed, N failed' at the end, counting both. Extra arguments go to both nbdev_test runs;
# SNAPKV_TEST_PROJECTS=". eval" (the default) names the projects to test, e.g. SNAPKV_TEST_PROJECTS=eval.
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh || exit 1
blas=$(ls /usr/lib/*/openblas-pthread/libopenblas.so.0 2>/dev/null | head -n 1)
[ -n "$blas" ] && export LD_PRELOAD="$blas${LD_PRELOAD:+:$LD_PRELOAD}"
root=$PWD out=$(mktemp)
rc=0 total=0 failed=0
for project in ${SNAPKV_TEST_PROJECTS-. eval}; do
  echo "== nbdev_test in $project/"
  (cd "$project" && "$root/.venv/bin/nbdev_test" --flags "${SNAPKV_TEST_FLAGS-slow}" --do_print --timing "$@") 2>&1 | tee "$out"
  prc=${PIPESTATUS[0]}
  n=$(grep -o 'Starting [^ ]*\.ipynb' "$out" | wc -l) # lines of parallel runs can run together
  f=$(sed -n '/Tests Failed On The Following Notebooks/,$p' "$out" | grep -c $'^\t')
  [ "$prc" != 0 ] && [ "$f" = 0 ] && f=1
  [ "$prc" != 0 ] && rc=$prc
  total=$((total + n)) failed=$((failed + f))
done
rm -f "$out"
echo "notebooks: $((total - failed)) passed, $failed failed"
exit "$rc"
