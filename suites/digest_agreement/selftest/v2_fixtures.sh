#!/usr/bin/env bash
# Self-test (digest.selftest.v2_fixtures): the RandomX v2 checks can fail.
# A corrupted v2 known answer and a planted wrong v2 chain checkpoint must each
# turn the v2 check red, naming the vector / the first diverging checkpoint; a
# v2 fixture with a vector removed by hand must stop with one line (exit 5).
#
# Usage: v2_fixtures.sh BG_CHECK RUN_VARIANT VARIANT VARIANT_DIR EMULATOR N K WORK_DIR
#   RUN_VARIANT VARIANT VARIANT_DIR EMULATOR: how the v2 build variant's probe
#   runs (builds/run_variant.sh; CMake passes the v2 `release` variant's)
#   N, K: the v2 chain run (an entry of chains.json, e.g. 16 4: checkpoint 3 is hash 11)
# Fixtures come from $BG_FIXTURES_DIR and are copied, never modified.
set -uo pipefail
check=$1 run=$2 v=$3 dir=$4 emu=$5 n=$6 k=$7 work=$8
outer=${BG_CHECKS_FILE:-/dev/null} me=${BG_TEST_NAME:-digest.selftest.v2_fixtures}
unset BG_CHECKS_FILE
rec() { BG_CHECKS_FILE=$outer "$check" --suite digest_agreement --name "$me.$1" --expect-equal "$2" "$3" || true; }
rm -rf "$work" && mkdir -p "$work/fx/randomx" || exit 3
src=$BG_FIXTURES_DIR/randomx
cp "$src/kat.json" "$src/kat-v2.json" "$src/chains.json" "$work/fx/randomx/" || exit 3
flags=jit,hard-aes,v2
# inner <name> <checks file>: the v2 probe's digest check against the copied fixtures; rc in $rc
inner() {
  BG_CHECKS_FILE=$2 BG_TEST_NAME=$1 BG_FIXTURES_DIR="$work/fx" \
    "$run" --variant "$v" "$check" "$dir" "$emu" bg-digest-check --flags "$flags" --n "$n" --k "$k" \
    >"$work/$1.log" 2>&1
  rc=$?
}
# verdict <checks file> <check name>: that check's verdict ("" when absent)
verdict() { grep -F "\"name\":\"$2\"" "$1" | sed -n 's/.*"verdict":"\([a-z]*\)".*/\1/p' | head -1; }

# 1. A v2 vector removed by hand: vector_counts catches it before any hashing
# (exit 5, one line).  Also tells whether the variant runs here at all.
grep -v '"id": "2d", "algorithm": "randomx-v2"' "$src/kat-v2.json" >"$work/fx/randomx/kat-v2.json"
inner v2.count "$work/count.jsonl"
if [ "$rc" = 77 ]; then
  BG_CHECKS_FILE=$outer "$check" --suite digest_agreement --name "$me" --verdict skip \
    --expected "the v2 build variant $v runs here" --observed "$(head -1 "$work/v2.count.log")"
  exit 77
fi
rec count.exit 5 "$rc"
rec count.message 1 "$(grep -c '^buildgate: bg-digest-check: fixture: .*kat-v2.json: 9 vectors for randomx-v2, but vector_counts says 10' "$work/v2.count.log")"

# 2. One run with both plants (each hash is slow in light memory): one hex digit
# of v2 vector 1a's hash flipped, and checkpoint 3 of the v2 n=N k=K chain
# (cJSON prints an entry's fields one per line: algorithm, key, n, k, digest,
# checkpoints).  The unplanted vector 1b must still pass: the failures are the plants'.
awk -F'"' -v OFS='"' '$4 == "1a" && $8 == "randomx-v2" {
       for (i = 1; i <= NF; i++) if ($i == "hash") { h = $(i + 2); $(i + 2) = (substr(h, 1, 1) == "0" ? "1" : "0") substr(h, 2) } }
     { print }' "$src/kat-v2.json" >"$work/fx/randomx/kat-v2.json"
rec kat.fixture_changed 1 "$(cmp -s "$work/fx/randomx/kat-v2.json" "$src/kat-v2.json" && echo 0 || echo 1)"
awk -F'"' -v OFS='"' -v n="$n" -v k="$k" '
     $2 == "algorithm" { v2 = ($4 == "randomx-v2") }
     $2 == "n" { nn = $0; sub(/.*:[ \t]*/, "", nn); sub(/,.*/, "", nn) }
     $2 == "k" { kk = $0; sub(/.*:[ \t]*/, "", kk); sub(/,.*/, "", kk) }
     v2 && nn == n && kk == k && $2 == "checkpoints" { $8 = (substr($8, 1, 1) == "0" ? "1" : "0") substr($8, 2); v2 = 0 }
     { print }' "$src/chains.json" >"$work/fx/randomx/chains.json"
rec chain.fixture_changed 1 "$(cmp -s "$work/fx/randomx/chains.json" "$src/chains.json" && echo 0 || echo 1)"
inner v2.planted "$work/planted.jsonl"
rec planted.exit 1 "$rc"
rec kat.1a_fails fail "$(verdict "$work/planted.jsonl" v2.planted.kat.1a)"
rec kat.1b_passes pass "$(verdict "$work/planted.jsonl" v2.planted.kat.1b)"
rec chain.fails fail "$(verdict "$work/planted.jsonl" v2.planted.chain)"
rec chain.names_checkpoint 1 "$(grep -F '"name":"v2.planted.chain"' "$work/planted.jsonl" | grep -c "checkpoint 3 (hash $((3 * k - 1)))")"
exit 0
