#!/usr/bin/env bash
# Self-test of the host's dataset cache (docs/digest_agreement.md "Dataset
# cache", check/dataset_cache.h) on a small stand-in: datasets of the first
# 4096 items only (--items), so each build takes seconds, not minutes.
#   1. a first tree builds every key's entry, reporting its progress;
#   2. a second tree reuses them (and says so), building nothing;
#   3. damaged entries are said, never used, and rebuilt: a flipped byte
#      (checksum), another key's dataset under a consistent stamp (re-derived
#      items) and a truncated file (size);
#   4. after the rebuild a fourth tree reuses every entry again;
#   5. a full-memory variant without its dataset (the setup stopped as too
#      slow here) is a skip saying so, not a fail.
#
# Usage: dataset_cache.sh BIN_DIR WORK_DIR
set -uo pipefail
bin=$1 work=$2
outer=${BG_CHECKS_FILE:-/dev/null}
unset BG_CHECKS_FILE
check() { BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement \
          --name "digest.selftest.dataset_cache.$1" --expect-equal "$2" "$3" || true; }
rm -rf "$work" && mkdir -p "$work" || exit 3
cache=$work/cache
chain=72656c61792d6a69742d70726f66696c652d66697865642d6b65792d7631  # hex of the chain key
k000=74657374206b657920303030 k001=74657374206b657920303031       # "test key 000", "001"
entry() { echo "$cache/selftest-id-randomx-v1-$1-n4096.rxds"; }
# make <tree>: one --make-datasets run; its checks in <tree>.jsonl, stderr in <tree>.err
make() {
  mkdir -p "$work/$1"
  BG_CHECKS_FILE="$work/$1.jsonl" BG_TEST_NAME=ds BG_PROGRESS_FILE="$work/$1.progress" \
    "$bin/bg-digest-check" --make-datasets "$work/$1" --items 4096 --init-threads 2 \
    --dataset-cache "$cache" --dataset-cache-id selftest-id >"$work/$1.out" 2>"$work/$1.err"
}
count() { grep -c "$1" "$2"; }

make t1
check built.exit 0 "$?"
check built.observed 3 "$(count '"name":"ds.build.[123]","test":"ds","verdict":"pass","expected":"dataset built and saved","observed":"built in .* saved in the dataset cache ' "$work/t1.jsonl")"
check built.stamps 3 "$(ls "$cache"/*.rxds.stamp | wc -l | tr -d ' ')"
check built.link "$(entry $k000)" "$(readlink "$work/t1/$k000.rxds")"
# the build reported its progress for bg-run --stall (bg_progress.h)
check built.progress 1 "$(count '^12288 12288 dataset items built' "$work/t1.progress")"

make t2
check reused.exit 0 "$?"
check reused.observed 3 "$(count '"verdict":"pass","expected":"dataset reused and verified","observed":"reused from the dataset cache .* (verified: checksum and 32 items re-derived)' "$work/t2.jsonl")"
check reused.nothing_built 0 "$(count 'building dataset' "$work/t2.err")"
check reused.link "$(entry $chain)" "$(readlink "$work/t2/$chain.rxds")"

# damage: key 001's entry becomes key 000's dataset under a stamp that names
# key 001 (its checksum consistent), then key 000's loses one byte's value
# and the chain key's entry is cut short
cp "$(entry $k000)" "$(entry $k001)"
sed "s/^key-hex $k000\$/key-hex $k001/" "$(entry $k000).stamp" >"$(entry $k001).stamp"
check damage.stamp_edited 1 "$(count "^key-hex $k001\$" "$(entry $k001).stamp")"
printf 'X' | dd of="$(entry $k000)" bs=1 seek=100000 conv=notrunc 2>/dev/null
head -c 65536 "$(entry $chain)" >"$work/cut" && mv "$work/cut" "$(entry $chain)"
make t3
check damaged.exit 0 "$?"
check damaged.checksum 1 "$(count "cache entry $(entry $k000) not used: its checksum is [0-9a-f]* where the stamp says [0-9a-f]*: the file is damaged: rebuilding it" "$work/t3.err")"
check damaged.other_key 1 "$(count "cache entry $(entry $k001) not used: item [0-9]* differs from the one randomx_init_dataset computes from the key" "$work/t3.err")"
check damaged.size 1 "$(count "cache entry $(entry $chain) not used: it has 65536 bytes where the stamp says 262144: rebuilding it" "$work/t3.err")"
check damaged.rebuilt 3 "$(count '"observed":"built in .* (the entry there was not used: ' "$work/t3.jsonl")"
check damaged.no_reuse 0 "$(count '"expected":"dataset reused and verified"' "$work/t3.jsonl")"

make t4
check repaired.reused 3 "$(count '"expected":"dataset reused and verified"' "$work/t4.jsonl")"

# a full-memory variant whose dataset the setup did not make (stopped as too
# slow for this host: a skip, bg-run --stall) skips naming that, never fails
mkdir -p "$work/none"
BG_CHECKS_FILE="$work/none.jsonl" BG_TEST_NAME=none "$bin/bg-digest-check" --flags jit,full-mem \
  --n 1024 --k 128 --dataset-dir "$work/none" >/dev/null 2>&1
check missing.exit 77 "$?"
check missing.skip 1 "$(count '"verdict":"skip",.*"observed":"no dataset .*: the dataset setup (digest.runtime.dataset) did not make it' "$work/none.jsonl")"

# the options go together
BG_CHECKS_FILE=/dev/null "$bin/bg-digest-check" --make-datasets "$work/t1" --dataset-cache "$cache" \
  >/dev/null 2>"$work/usage.err"
check usage.exit 2 "$?"
check usage.line "buildgate: bg-digest-check: --dataset-cache: --dataset-cache and --dataset-cache-id go together" "$(cat "$work/usage.err")"
exit 0
