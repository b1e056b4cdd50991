#!/usr/bin/env bash
# history_test.sh CASE BINDIR SRCDIR — self-tests of bg-perf-history (label
# selftest; docs/perf_budgets.md "Change points over main's history").
# A real perf check line (bg-perf compare of a real perf-bench run) is the
# value of each run; 40 nightly runs are made from it by setting its
# details.median_head to a planted series (noise +-0.5 %, deterministic), each
# wrapped as the results.json of one commit (c01 .. c40), and appended in order.
#   step     +3 % from run 26 (commit c26): changes exits 1 naming the slowdown,
#            the commit range c25..c26 and the ci/bisect command
#   cycles   the step case on an estimated-cycles check (the line renamed
#            perf.callgrind_cycles.synth/chain): the command names ci/bisect with
#            that check, which ci/bisect judges by estimated cycles
#   aa       no step: changes exits 0, no change
#   corrupt  a history cut short: append exits 5 and leaves it as it was
#   twice    the same results appended twice: the second appends nothing
#   ack      the +3 % step, acknowledged (--acknowledged FILE naming c25..c26 and
#            a reason): exit 0, reported as acknowledged with its reason
#   ack_new  +3 % from c14, acknowledged, then a NEW +3 % from c30: exit 1
#            naming c29..c30, the acknowledged one still reported as such
#            (main's bg-perf-history has no --acknowledged: exit 2 in both)
#   ack_loose the ack_new history with entries that must accept nothing: a
#            range c13..c31 spanning both steps, a commit not in the history, a
#            misspelt check, a reversed range: both steps fail, three notes say
#            why those entries accept nothing (the first session-3 version let
#            the wide range accept both steps, and said nothing of the others)
set -euo pipefail
case_=$1 bin=$2 src=$3
w="$bin/selftest-history-$case_"; rm -rf "$w"; mkdir -p "$w"
perf="$bin/bg-perf" hist="$bin/bg-perf-history" bench="$bin/perf-bench" expect="$bin/../../lib/bg-expect"
name="perf.selftest.history_$case_"

"$bench" --benchmark_filter='^synth/chain$' --benchmark_repetitions=3 \
  --benchmark_min_time=0.01 --benchmark_out="$w/run.json" >/dev/null
BG_CHECKS_FILE="$w/line.jsonl" "$perf" compare --base "$w/run.json" --head "$w/run.json" \
  --budgets "$src/budgets.json" >/dev/null || true
line=$(grep '"median_head"' "$w/line.jsonl" | head -n 1)
[ -n "$line" ] || { echo "buildgate: history_test.sh: bg-perf compare wrote no check with median_head" >&2; exit 3; }

# results K VALUE: the results.json of commit cK whose one perf check has median_head VALUE
results() {
  local l
  l=$(printf '%s' "$line" | sed 's/"median_head":[-0-9.e+]*/"median_head":'"$2"'/')
  printf '{"schema":1,"generated":"2026-11-%02dT02:17:00Z","host":{"key":"linux-x86_64-test-2c"},"run":{"commit":"c%02d"},"checks":[%s]}\n' \
    "$(( $1 % 28 + 1 ))" "$1" "$l" >"$w/r$1.json"
}

# plant STEP_PCT [FROM [STEP2_PCT FROM2]]: appends 40 runs, +STEP_PCT % from run
# FROM (26), then +STEP2_PCT % more from run FROM2
plant() {
  for k in $(seq 1 40); do
    v=$(awk -v k="$k" -v s="$1" -v a="${2:-26}" -v s2="${3:-0}" -v a2="${4:-41}" 'BEGIN {
          e = ((k * 7919) % 101) / 100 - 0.5;  # -0.5 .. +0.5
          printf "%.6f", 1000 * (1 + (k >= a ? s / 100 : 0)) * (1 + (k >= a2 ? s2 / 100 : 0)) * (1 + e / 100) }')
    results "$k" "$v"
    "$hist" append --history "$w/history.json" --results "$w/r$k.json" >/dev/null
  done
}

# acks GOOD BAD: the acknowledgement file of the planted check's step GOOD..BAD
acks() {
  local check
  check=$(printf '%s' "$line" | sed 's/.*"name":"\([^"]*\)".*/\1/')
  printf '{"schema": 1, "acknowledged": [{"check": "%s", "good": "%s", "bad": "%s", "reason": "%s"}]}\n' \
    "$check" "$1" "$2" "accepted: the test says so" >"$w/acks.json"
}

case "$case_" in
  ack)
    plant 3; acks c25 c26
    exec "$expect" --name "$name" --exit 0 --contains "acknowledged slowdown" --contains "between c25" \
      --contains "acknowledged c25..c26 in $w/acks.json: accepted: the test says so" \
      --contains "0 slowdowns of at least 1.0 % (1 more acknowledged)" -- \
      "$hist" changes --history "$w/history.json" --acknowledged "$w/acks.json" ;;
  ack_new)
    plant 3 14 3 30; acks c13 c14
    exec "$expect" --name "$name" --exit 1 --contains "acknowledged c13..c14 in" \
      --contains "--good c29 --bad c30" --contains "1 slowdown of at least 1.0 % (1 more acknowledged)" -- \
      "$hist" changes --history "$w/history.json" --acknowledged "$w/acks.json" ;;
  ack_loose)
    plant 3 14 3 30
    check=$(printf '%s' "$line" | sed 's/.*"name":"\([^"]*\)".*/\1/')
    printf '{"schema": 1, "acknowledged": [%s, %s, %s, %s]}\n' \
      "{\"check\": \"$check\", \"good\": \"c13\", \"bad\": \"c31\", \"reason\": \"wide\"}" \
      "{\"check\": \"$check\", \"good\": \"zz\", \"bad\": \"c14\", \"reason\": \"typo commit\"}" \
      "{\"check\": \"${check}x\", \"good\": \"c13\", \"bad\": \"c14\", \"reason\": \"typo check\"}" \
      "{\"check\": \"$check\", \"good\": \"c26\", \"bad\": \"c25\", \"reason\": \"reversed\"}" >"$w/acks.json"
    exec "$expect" --name "$name" --exit 1 --contains "2 slowdowns of at least 1.0 % (0 more acknowledged)" \
      --contains "acknowledged[1] ($check zz..c14) accepts nothing: its good commit is not in the history" \
      --contains "acknowledged[2] (${check}x c13..c14) accepts nothing: no run of the history has that check" \
      --contains "acknowledged[3] ($check c26..c25) accepts nothing: good comes after bad in the history (reversed)" -- \
      "$hist" changes --history "$w/history.json" --acknowledged "$w/acks.json" ;;
  step)
    plant 3
    exec "$expect" --name "$name" --exit 1 --contains "SLOWDOWN" --contains "between c25" \
      --contains "and c26" --contains "next: ci/bisect --checks" --contains "--good c25 --bad c26" -- \
      "$hist" changes --history "$w/history.json" --md "$w/changes.md" ;;
  cycles)
    line=$(printf '%s' "$line" | sed 's/"name":"perf\.[a-z_]*\./"name":"perf.callgrind_cycles./; s/"metric":"[a-z_]*"/"metric":"estimated_cycles"/')
    plant 3
    exec "$expect" --name "$name" --exit 1 --contains "SLOWDOWN perf.callgrind_cycles.synth/chain" \
      --contains "next: ci/bisect --checks perf.callgrind_cycles.synth/chain --good c25 --bad c26" -- \
      "$hist" changes --history "$w/history.json" ;;
  aa)
    plant 0
    exec "$expect" --name "$name" --exit 0 --contains "0 changes found" -- \
      "$hist" changes --history "$w/history.json" ;;
  corrupt)
    plant 0
    head -c 300 "$w/history.json" >"$w/cut" && mv "$w/cut" "$w/history.json"
    exec "$expect" --name "$name" --exit 5 --contains "buildgate: bg-perf-history:" \
      --unchanged "$w/history.json" -- \
      "$hist" append --history "$w/history.json" --results "$w/r40.json" ;;
  twice)
    plant 0
    exec "$expect" --name "$name" --exit 0 --contains "is in the history already: nothing appended" \
      --unchanged "$w/history.json" -- \
      "$hist" append --history "$w/history.json" --results "$w/r40.json" ;;
  *) echo "buildgate: history_test.sh: unknown case '$case_'" >&2; exit 2 ;;
esac
