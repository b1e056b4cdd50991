#!/bin/sh
# mutant_caught.sh — the --selftest half of a usage test (label selftest): runs
# the test's own script against a mutant tool that accepts everything (exits 0,
# prints nothing) and passes only when exactly WANT of its checks fail.
#
# Usage: mutant_caught.sh BG_CHECK SUITE WANT WORK SCRIPT ARGS...
#   an ARG that is the word {mutant} is replaced by the mutant's path
# Records <test>.mutant_caught: "exit 1, WANT failing checks" vs what happened.
set -u
[ $# -ge 5 ] || { echo "buildgate: mutant_caught.sh: want BG_CHECK SUITE WANT WORK SCRIPT ARGS..." >&2; exit 2; }
check=$1 suite=$2 want=$3 work=$4
shift 4
mkdir -p "$work" || exit 3
rm -f "$work/mutant.jsonl"  # a re-run in the same tree counts this run's checks only
printf '#!/bin/sh\nexit 0\n' >"$work/mutant-tool" && chmod +x "$work/mutant-tool" || exit 3
script=$1
shift
for a in "$@"; do
  [ "$a" = "{mutant}" ] && a="$work/mutant-tool"
  set -- "$@" "$a"
  shift
done
BG_CHECKS_FILE="$work/mutant.jsonl" sh "$script" "$@"
rc=$?
fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
"$check" --suite "$suite" --name "${BG_TEST_NAME:-$suite}.mutant_caught" \
  --expect-equal "exit 1, $want failing checks" "exit $rc, ${fails:-0} failing checks"
