#!/usr/bin/env bash
# study_test.sh CASE SCRIPT BINDIR SRCDIR — the input checks of the perf
# studies (study-lib.sh; CTest perf.selftest.study_<case>.<script>, label
# selftest): SCRIPT (duet-study, study, band-scan, suite-aa, aa-raw or
# duet-table) run
#   none  without arguments: one usage line, exit 2
#   bad   with an input that is no build (SRCDIR as BINDIR, a JSON file as EXE)
#         or, for duet-table, a runs.tsv with only its header: one line, exit 2
# where they printed bash errors (unbound $1) or an empty table with exit 0.
# bg-expect (lib/tools/bg_expect.c) records the check.
set -euo pipefail
[ $# -eq 4 ] || { echo "buildgate: study_test.sh: want CASE SCRIPT BINDIR SRCDIR" >&2; exit 2; }
case_=$1 script=$2 bin=$3 src=$4
expect="$bin/../../lib/bg-expect" w="$bin/study-test-$script"
mkdir -p "$w"
run=(bash "$src/study/$script.sh")
if [ "$case_" = none ]; then
  exec "$expect" --exit 2 --stderr "buildgate: " --contains "/$script.sh: usage: " -- "${run[@]}"
fi
[ "$case_" = bad ] || { echo "buildgate: study_test.sh: unknown case '$case_'" >&2; exit 2; }
case "$script" in
  duet-study) args=("$src" "$w/out") want="BINDIR '$src': no bg-perf there" ;;
  study) args=("$src") want="BINDIR '$src': no bg-perf there" ;;
  band-scan) args=("$src" 'randomx/*/*/hash/' '^randomx/' 0.05 1.02 5 10 "$w") want="BINDIR '$src': no perf-aa-resample there" ;;
  suite-aa) args=("$src" "$w/out" 1) want="BINDIR '$src': no bg-perf there" ;;
  aa-raw) args=("$src/budgets.json" "$w/out" '^synth/chain$' 1 1 0.01) want="EXE '$src/budgets.json': not an executable file" ;;
  duet-table) printf 'tag\tbench\tmode\tpct\trun\toutcome\tratio\tlo\thi\twidth\tseconds\tload1\n' >"$w/runs.tsv"
              args=("$w/runs.tsv") want="no runs in it (only the header): nothing to tabulate" ;;
  *) echo "buildgate: study_test.sh: unknown script '$script'" >&2; exit 2 ;;
esac
exec "$expect" --exit 2 --stderr "buildgate: " --contains "$want" --unchanged "$w/out" -- "${run[@]}" "${args[@]}"
