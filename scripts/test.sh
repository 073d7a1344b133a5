#!/usr/bin/env bash
# Builds Roofline and runs every test: the lit suites (compiler, tools,
# CUDA device code), the GoogleTest unit tests (run through lit too) and
# the round trip of every summary they wrote through both tools.
# The last line is "N passed, M failed". Tests needing a GPU are skipped,
# and counted as such, where there is none.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }

LIT=/usr/lib/llvm-22/bin/lit
log=$(mktemp)
"$LIT" -sv build/test build/unittests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit aligns the colons ("Passed     : 80") when some tests are unsupported.
count() { grep -E "^\s+$1\s*:" "$log" | sed -E "s/^\s+$1\s*:\s*([0-9]+).*/\1/" | head -1; }
passed=$(count Passed); failed=$(count Failed)
skipped=$(( $(count Unsupported || echo 0) + 0 ))
xfail=$(count "Expectedly Failed"); upass=$(count "Unexpectedly Passed")
passed=$(( ${passed:-0} + ${xfail:-0} ))
failed=$(( ${failed:-0} + ${upass:-0} ))
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
rm -f "$log"

# Every static summary the suite wrote, read back by roofline-report and
# roofline-audit (scripts/roundtrip-summaries.py): one more test.
if python3 scripts/roundtrip-summaries.py --build build; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi
[ "$skipped" -gt 0 ] && echo "$skipped skipped (they need a GPU or the CUDA toolkit)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
