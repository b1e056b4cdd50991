#!/usr/bin/env bash
# Self-test: a corrupted chain fixture must turn the digest gate red, with a
# report naming every affected variant and the first diverging checkpoint;
# a broken fixture must stop with one clear line and a distinct exit code.
#
# Usage: corrupt_chain.sh BIN_DIR WORK_DIR
#   BIN_DIR has bg-digest-check, bg-chain, bg-report, bg-check; fixtures come
#   from $BG_FIXTURES_DIR and are copied, never modified.
set -uo pipefail
bin=$1 work=$2
# Inner runs must not write into this test's own checks: only check() does.
outer=${BG_CHECKS_FILE:-/dev/null}
unset BG_CHECKS_FILE
check() { BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name "digest.selftest.corrupt_chain.$1" \
          --expect-equal "$2" "$3" || true; }
rm -rf "$work" && mkdir -p "$work/fx/randomx" "$work/checks" || exit 3
cp "$BG_FIXTURES_DIR/randomx/kat.json" "$BG_FIXTURES_DIR/randomx/chains.json" "$work/fx/randomx/" || exit 3
fx="$work/fx/randomx/chains.json"

# 1. Flip one hex digit of checkpoint 3 of the 64-hash chain (hash index 23).
# (cJSON prints the checkpoint array on one line: field 8 between quotes is checkpoint 3)
awk -F'"' -v OFS='"' '/"n":[ \t]*64,/ { in64 = 1 }
     in64 && $2 == "checkpoints" { $8 = (substr($8, 1, 1) == "0" ? "1" : "0") substr($8, 2); in64 = 0 }
     { print }' "$BG_FIXTURES_DIR/randomx/chains.json" >"$fx"
check fixture_changed 1 "$(cmp -s "$fx" "$BG_FIXTURES_DIR/randomx/chains.json" && echo 0 || echo 1)"

variants=("argon2=ref" "jit,argon2=ref")
for flags in "${variants[@]}"; do
  slug=$(BG_FIXTURES_DIR="$work/fx" "$bin/bg-chain" --n 1 --k 1 --flags "$flags" 2>/dev/null |
         sed -n 's/.*"variant":[[:space:]]*"\([^"]*\)".*/\1/p')
  [ -n "$slug" ] || { check "variant_runs.$flags" "runs" "cannot run"; continue; }
  BG_CHECKS_FILE="$work/checks/digest.runtime.$slug.jsonl" BG_TEST_NAME="digest.runtime.$slug" \
  BG_FIXTURES_DIR="$work/fx" "$bin/bg-digest-check" --flags "$flags" --n 64 --k 8 >"$work/$slug.log" 2>&1
  rc=$?
  check "exit.$slug" 1 "$rc"
done
"$bin/bg-report" --checks-dir "$work/checks" --out-dir "$work/report" >"$work/report.log" 2>&1
check report_exit 1 "$?"
for flags in "${variants[@]}"; do
  slug=$(BG_FIXTURES_DIR="$work/fx" "$bin/bg-chain" --n 1 --k 1 --flags "$flags" 2>/dev/null |
         sed -n 's/.*"variant":[[:space:]]*"\([^"]*\)".*/\1/p')
  check "report_names.$slug" 1 "$(grep -c "### \*\*FAIL\*\* \`digest.runtime.$slug.chain\`" "$work/report/report.md")"
done
check report_checkpoint 2 "$(grep -c '"checkpoint":[[:space:]]*3,' "$work/report/report.md")"
check report_hash_index 2 "$(grep -c '"hash_index":[[:space:]]*23' "$work/report/report.md")"
# a hand-edited value reads as a variant's failure: its next step names the diff (bg_fixture_hint)
check chain_diff_hint 2 "$(cat "$work"/checks/*.jsonl | grep -c "\"action\":[[:space:]]*\"$work/fx/randomx/chains.json is not in the fixtures/ folder of a git repository: if the stored value was edited, \`diff\` it against the repository's fixtures/randomx/chains.json (")"

# 2. Truncated fixture: one clear line, exit 5 (fixture), no crash.
head -c 200 "$BG_FIXTURES_DIR/randomx/chains.json" >"$fx"
BG_CHECKS_FILE="$work/trunc.jsonl" \
BG_FIXTURES_DIR="$work/fx" "$bin/bg-digest-check" --flags argon2=ref --n 64 --k 8 >/dev/null 2>"$work/trunc.err"
check truncated_exit 5 "$?"
# ... and its next step says how to restore it (a copy outside the repository: from the repository's)
check truncated_restore_hint 1 "$(grep -c "\"action\":[[:space:]]*\"$work/fx/randomx/chains.json is not in the fixtures/ folder of a git repository: copy the repository's fixtures/randomx/chains.json (" "$work/trunc.jsonl")"
check truncated_message 1 "$(grep -c '^buildgate: bg-digest-check: fixture: .*chains.json is not valid JSON' "$work/trunc.err")"

# 3. A fixture for another RandomX version: exit 5, names what it has.
sed 's/"randomx-v1"/"randomx-v9"/' "$BG_FIXTURES_DIR/randomx/chains.json" >"$fx"
BG_FIXTURES_DIR="$work/fx" "$bin/bg-digest-check" --flags argon2=ref --n 64 --k 8 >/dev/null 2>"$work/ver.err"
check other_version_exit 5 "$?"
check other_version_message 1 "$(grep -c 'has no chain for randomx-v1.*it has: randomx-v9' "$work/ver.err")"
# 3b. A sound fixture without the asked chain (--n 8 --k 4): the line says record one, and
# no restore step contradicts it (the file is not broken; fresh-user trial MEDIUM)
cp "$BG_FIXTURES_DIR/randomx/chains.json" "$fx"
BG_CHECKS_FILE="$work/noentry.jsonl" BG_TEST_NAME=noentry \
BG_FIXTURES_DIR="$work/fx" "$bin/bg-digest-check" --flags argon2=ref --n 8 --k 4 >/dev/null 2>"$work/noentry.err"
check no_entry_exit 5 "$?"
check no_entry_message 1 "$(grep -c 'has no chain for randomx-v1 key .* n=8 k=4 .*record one with bg-chain --record' "$work/noentry.err")"
check no_entry_no_restore 0 "$(grep -c '"action"' "$work/noentry.jsonl")"

# 4. Missing fixture: exit 5 (fixture), one line naming the file.
rm -f "$fx"
BG_FIXTURES_DIR="$work/fx" "$bin/bg-digest-check" --flags argon2=ref --n 64 --k 8 >/dev/null 2>"$work/miss.err"
check missing_exit 5 "$?"
check missing_message 1 "$(grep -c '^buildgate: bg-digest-check: fixture: cannot open .*chains.json' "$work/miss.err")"
cp "$BG_FIXTURES_DIR/randomx/chains.json" "$fx"

# 5. A KAT vector relabelled to another version (or deleted) must not drop out silently.
kat="$work/fx/randomx/kat.json"
awk '!done && /"algorithm": "randomx-v1"/ { sub(/randomx-v1/, "randomx-v2"); done = 1 } { print }' \
  "$BG_FIXTURES_DIR/randomx/kat.json" >"$kat"
BG_FIXTURES_DIR="$work/fx" "$bin/bg-digest-check" --flags argon2=ref --n 64 --k 8 >/dev/null 2>"$work/kat.err"
check kat_relabelled_exit 5 "$?"
check kat_relabelled_message 1 "$(grep -c '4 vectors for randomx-v1, but vector_counts says 5' "$work/kat.err")"
cp "$BG_FIXTURES_DIR/randomx/kat.json" "$kat"

# 6. Recording over an existing entry is refused without --replace/--reason.
cp "$BG_FIXTURES_DIR/randomx/chains.json" "$fx"
before=$(cksum <"$fx")
"$bin/bg-chain" --n 64 --k 8 --flags jit,argon2=ref --record "$fx" >/dev/null 2>"$work/rec.err"
check record_refused_exit 6 "$?"
check record_unchanged "$before" "$(cksum <"$fx")"
"$bin/bg-chain" --n 64 --k 8 --flags jit,argon2=ref --record "$fx" --replace >/dev/null 2>&1
check replace_needs_reason 2 "$?"
exit 0
