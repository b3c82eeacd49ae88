#!/usr/bin/env bash
# Lint the exported libraries (CI runs this after checking that the notebooks are clean):
#  1. ruff with pyflakes' rules (ruff.toml) on snapkv_nb/ and eval/snapkv_eval/: undefined names, names bound twice,
#     unused variables and imports. Fix what it reports in the notebooks, then nbdev_export.
#  2. long lines: at most $LINT_MAX_LONG (default 25) lines of snapkv_nb/ over 120 characters, each printed as
#     file:line: length. nbdev's own `__all__` statement and _modidx.py are not counted (nbdev writes them).
# Exits 1 if either check fails (both always run).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
RUFF=.venv/bin/ruff
[ -x "$RUFF" ] || RUFF=ruff
rc=0

echo "lint: ruff check (pyflakes rules, ruff.toml) on snapkv_nb and eval/snapkv_eval"
"$RUFF" check --output-format concise snapkv_nb eval/snapkv_eval || rc=1

"$PY" - "${LINT_MAX_LONG:-25}" <<'EOF' || rc=1
import ast, sys
from pathlib import Path

limit, width = int(sys.argv[1]), 120
long = []
for f in sorted(Path("snapkv_nb").rglob("*.py")):
    if f.name == "_modidx.py": continue
    text = f.read_text(encoding="utf-8")
    exempt = set() # the lines of nbdev's `__all__ = [...]` statement, however it wraps it
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            exempt.update(range(node.lineno, node.end_lineno + 1))
    long += [(f, i, len(line)) for i, line in enumerate(text.splitlines(), 1) if len(line) > width and i not in exempt]
for f, i, n in long: print(f"{f}:{i}: {n} characters")
print(f"lint: {len(long)} library lines over {width} characters (at most {limit})")
sys.exit(len(long) > limit)
EOF
[ "$rc" = 0 ] && echo "lint: ok" || echo "lint: FAILED" >&2
exit "$rc"
