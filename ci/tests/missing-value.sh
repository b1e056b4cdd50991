#!/usr/bin/env bash
# missing-value.sh — an option of a ci script given without its value is
# refused in the lib's one line (bg_help_missing_value, lib/src/bg_help.c;
# ci/common.sh bg_need_value), exit 2, before anything runs:
#   buildgate: ci/<name>: <option>: missing value (see ci/<name> --help)
# (ci/bisect, ci/open-pr, ci/adopt-known and ci/lint/* said "<option> needs a
# value" or "needs a reason/directory/path/tool's path", others lacked the
# --help pointer).
#
# Usage: missing-value.sh BG_CHECK CI_DIR WORK [--selftest]
#   CI_DIR  the repository's ci/ folder
#   --selftest  run the checks against a copy of the scripts whose wording is
#               the old one ("<option> needs a value"): passes only when every
#               check fails (label selftest)
# Checks (suite ci): <test>.<script> per script below.
# Exit: 0 pass, 1 a check failed, 2 usage, 3 I/O.
set -u
[ $# -eq 3 ] || [ "${4:-}" = --selftest ] ||
  { echo "buildgate: missing-value.sh: want BG_CHECK CI_DIR WORK [--selftest]" >&2; exit 2; }
check=$1 ci=$2 work=$3 n=${BG_TEST_NAME:-missing_value}
mkdir -p "$work" || exit 3
# script and the option refused, each one that takes a value
cases=("test --build-dir" "update-baselines --approve" "bisect --good" "adopt-known --approve"
       "open-pr --branch" "compare-checks --renames" "compare-gate --work" "gate --report-dir"
       "lint/shellcheck --check")
if [ "${4:-}" = --selftest ]; then
  rm -rf "${work:?}/ci" "${work:?}/lib" && mkdir -p "$work/ci/lint" "$work/lib/sh" || exit 3
  for f in "${cases[@]%% *}" common.sh bisect-lib.sh lint/record.sh; do cp "$ci/$f" "$work/ci/$f" || exit 3; done
  cp "$ci/../lib/sh/bg_cli.sh" "$work/lib/sh/bg_cli.sh" || exit 3 # ci/common.sh reads it
  sed -i.orig 's/: \$1: missing value/: $1 needs a value/' "$work/ci/gate" "$work/ci/lint/record.sh" || exit 3
  sed -i.orig 's/"\$1: missing value/"$1 needs a value/' "$work/lib/sh/bg_cli.sh" || exit 3
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME="$n.mutant" "$0" "$check" "$work/ci" "$work/run" >/dev/null 2>&1
  rc=$?
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  rm -f "$work/mutant.jsonl"
  exec "$check" --suite ci --name "$n.mutant_caught" \
    --expect-equal "exit 1, ${#cases[@]} failing checks" "exit $rc, ${fails:-0} failing checks"
fi
r=0
for c in "${cases[@]}"; do
  s=${c%% *} opt=${c#* }
  (cd "$work" && "$ci/$s" "$opt") >"$work/out" 2>"$work/err" </dev/null
  rc=$?
  "$check" --suite ci --name "$n.$s" \
    --expect-equal "exit 2, 1 line: buildgate: ci/$s: $opt: missing value (see ci/$s --help)" \
    "exit $rc, $(wc -l <"$work/err" | tr -d ' ') line: $(head -n 1 "$work/err")" || r=1
done
exit $r
