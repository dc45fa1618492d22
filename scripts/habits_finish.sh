#!/usr/bin/env bash
# Issue 20's mechanical step, run once by whoever merges the branches that were open beside
# i20-habits (and safe to run again: a second run changes nothing):
#   1. delete the `# BEGIN habits-finish` ... `# END habits-finish` blocks in pyproject.toml, which
#      kept the files other branches were changing out of the formatter and the wider rules;
#   2. move any test file still at tests/test_*.py into its tier (the table below; default unit),
#      and name each test by its tier's path where README, comments and scripts name it;
#   3. scripts/wrap_long_lines.py, ruff format, ruff check --fix, ruff format again;
#   4. list what ruff cannot fix by itself as per-file ignores in pyproject.toml (a marked block
#      of remaining exceptions, scripts/ruff_exceptions.py), so the check is green;
#   5. run the checks (format, lint, strict types, import contracts) and print what is left.
# It commits nothing: read `git status` and `git diff --stat`, then commit.
#   scripts/habits_finish.sh [--no-checks]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
venv=$root/.venv
[[ -x $venv/bin/ruff ]] || { echo "habits_finish: no $venv/bin/ruff; run scripts/test once first" >&2; exit 2; }
started=$(date +%s)

# 1. the pending blocks
if grep -q '^# BEGIN habits-finish' pyproject.toml; then
  "$venv/bin/python" - <<'EOF'
import re, pathlib
path = pathlib.Path("pyproject.toml")
text = path.read_text()
path.write_text(re.sub(r"(?ms)^# BEGIN habits-finish.*?^# END habits-finish\n", "", text))
EOF
  echo "pyproject.toml: the habits-finish blocks deleted"
fi

# 2. tests still in the flat folder go to their tier (first matching pattern wins)
tier_of() {
  case $1 in
    test_tui_tmux*|test_signals*|test_packaging*|test_reproductions*|test_cancel*|test_*_http*|test_tui_cli*) echo e2e ;;
    test_tui*) echo tui ;;
    test_fault*|test_fuzz*|test_hostile*|test_*damage*|test_*bounds*|test_context_fit*) echo faults ;;
    test_*cli*|test_api*|test_pipeline*|test_backends*|test_mcp*|test_compaction*|test_housekeeping*|\
    test_cross*|test_export*|test_recall*|test_fake_ollama*|test_local_llm*|test_gate_pipeline*|\
    test_gate_stream*|test_memory_pipeline*|test_compose*|test_answer_form*) echo integration ;;
    *) echo unit ;;
  esac
}
shopt -s nullglob
for file in tests/test_*.py; do
  name=$(basename "$file")
  tier=$(tier_of "$name")
  if [[ -e tests/$tier/$name ]]; then
    echo "habits_finish: tests/$tier/$name exists already; $file left where it is" >&2
    continue
  fi
  git mv "$file" "tests/$tier/$name" 2>/dev/null || mv "$file" "tests/$tier/$name"
  # a test one folder deeper: data paths one level up
  sed -i 's|Path(__file__).parent / "data"|Path(__file__).parent.parent / "data"|;
          s|Path(__file__).resolve().parent.parent|Path(__file__).resolve().parents[2]|' "tests/$tier/$name"
  echo "moved $file -> tests/$tier/$name"
done

# 2b. what names a test by its old flat path names it in its tier (README, code comments, scripts)
for file in tests/{unit,integration,tui,e2e,faults}/test_*.py; do
  name=$(basename "$file")
  tier=$(basename "$(dirname "$file")")
  grep -rlF --include='*.py' --include='*.md' --include='*.toml' "tests/$name" \
    README.md CHANGELOG.md pyproject.toml tatlock scripts docs 2>/dev/null \
    | xargs -r sed -i "s|tests/$name|tests/$tier/$name|g" || true
done

# 3. format and fix: long comments and strings split first (the formatter leaves them), then
#    the formatter, the fixes, and the formatter again for what the fixes moved
fix() {
  "$venv/bin/ruff" check --quiet --fix --exit-zero --output-format concise tatlock tests scripts \
    >/dev/null
}
"$venv/bin/python" scripts/wrap_long_lines.py tatlock 2>/dev/null || true
"$venv/bin/ruff" format --quiet tatlock tests scripts
"$venv/bin/python" scripts/wrap_long_lines.py tatlock 2>/dev/null || true
"$venv/bin/ruff" format --quiet tatlock tests scripts
fix
"$venv/bin/ruff" format --quiet tatlock tests scripts
echo "formatted and fixed in $(( $(date +%s) - started )) s; $(git status --short | wc -l) path(s) changed"

# 4. what ruff cannot fix by itself: per-file ignores in a marked block of pyproject.toml
"$venv/bin/python" scripts/ruff_exceptions.py tatlock tests scripts

# 5. the checks
[[ ${1:-} == --no-checks ]] && exit 0
status=0
echo "== ruff format --check"; "$venv/bin/ruff" format --check --quiet tatlock tests scripts || status=1
echo "== ruff check"; "$venv/bin/ruff" check --quiet tatlock tests scripts || status=1
echo "== mypy"; "$venv/bin/mypy" || status=1
echo "== lint-imports"; "$venv/bin/lint-imports" --no-cache | tail -2 || status=1
left=(tests/test_*.py)
[[ ${#left[@]} -eq 0 ]] || { echo "still flat: ${left[*]}"; status=1; }
echo "habits_finish: done in $(( $(date +%s) - started )) s, checks $([[ $status == 0 ]] && echo green || echo 'NOT green: see above')"
exit $status
