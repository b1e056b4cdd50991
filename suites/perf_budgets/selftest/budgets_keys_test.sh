#!/usr/bin/env bash
# budgets_keys_test.sh BINDIR SRCDIR — budgets.json keys the gate does not read
# are refused (perf_budget.h; bg_json_known_keys): a misspelt key was ignored,
# so "seq_max_pair": 10 silently left seq_max_pairs at its default.  Each
# mutant of the shipped budgets.json is one key changed at one level the gate
# reads (the top level, defaults, a benchmarks entry, variant_table); bg-perf
# compare must exit 4 with the one line naming the file, the key, where, and
# the known key it is close to.  A value of the wrong type, a level that is no
# object and a key given twice are refused too (they fell back to the default:
# "band": "0.01" judged at 5 %; "benchmarks": [...] crashed bg-perf).  The
# shipped budgets.json itself must load.
# One check perf.selftest.budgets_unknown_keys: expected vs observed lines.
set -u
bin=$1 src=$2
w="$bin/selftest-budgets-keys"; rm -rf "$w"; mkdir -p "$w" || exit 3
perf="$bin/bg-perf" check="$bin/../../lib/bg-check"
tpl="$src/../../fixtures/perf_budgets/duet-pool/template.json"
shipped="$src/budgets.json"
expected="" observed=""
# one FILE: "exit N: <first stderr line>" of bg-perf compare with budgets FILE
one() {
  local rc=0
  env -u BG_CHECKS_FILE "$perf" compare --base "$tpl" --head "$tpl" --budgets "$1" >/dev/null 2>"$w/err" || rc=$?
  printf 'exit %s: %s' "$rc" "$(head -n 1 "$w/err")"
}
# mutant NAME SED WANT: the shipped file through SED; WANT the line after the file name
mutant() {
  mutant_as "" "$@"
}
# mutant_as PREFIX NAME SED WANT: PREFIX before the file name ("budgets: ")
mutant_as() {
  local pre=$1; shift
  sed "$2" "$shipped" >"$w/$1.json" || exit 3
  cmp -s "$shipped" "$w/$1.json" && { echo "buildgate: budgets_keys_test.sh: mutant $1 did not apply (budgets.json changed)" >&2; exit 5; }
  expected="$expected$1: exit 4: buildgate: bg-perf: $pre$w/$1.json: $3
"
  observed="$observed$1: $(one "$w/$1.json")
"
}
expected="shipped: exit 0: 
" observed="shipped: $(one "$shipped")
"
mutant defaults 's/"seq_max_pairs":/"seq_max_pair":/' \
  "unknown key 'seq_max_pair' in defaults (did you mean 'seq_max_pairs'?)"
mutant entry 's/"synth\/": {"band"/"synth\/": {"bnad"/' \
  "unknown key 'bnad' in benchmarks \"synth/\" (did you mean 'band'?)"
mutant top 's/^  "gates": {/  "gate": {/' "unknown key 'gate' in the top level (did you mean 'gates'?)"
mutant table 's/^  "gates": {/  "variant_table": {"margn": 0.02}, "gates": {/' \
  "unknown key 'margn' in variant_table (did you mean 'margin'?)"
mutant far 's/"seq_time_cap":/"colour": 1, "seq_time_cap":/' "unknown key 'colour' in defaults"
mutant_as "budgets: " string 's/"synth\/": {"band": \([0-9.]*\)/"synth\/": {"band": "\1"/' \
  'synth/: "band" must be a number (e.g. band: 0.05), not a string'
mutant_as "budgets: " array 's/^  "benchmarks": {/  "benchmarks": [{"band": 0.5}], "x": {/' \
  'the top level: "benchmarks" must be an object'
mutant_as "budgets: " twice 's/"synth\/": {"band": \([0-9.]*\)/"synth\/": {"band": \1, "band": 0.9/' \
  'synth/: "band" is given twice'
printf 'expected:\n%sobserved:\n%s' "$expected" "$observed"
exec "$check" --suite perf_budgets --name perf.selftest.budgets_unknown_keys --expect-equal "$expected" "$observed"
