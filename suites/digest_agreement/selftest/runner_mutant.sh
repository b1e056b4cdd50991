#!/usr/bin/env bash
# Self-test of the digest checks under runners (docs/digest_agreement.md
# "Under runners"): a runner that computes a wrong digest fails naming the
# first diverging checkpoint, a wrong known answer fails naming it, a listed
# deviation is xfail, a version between two measured ones that both list it is
# an inferred xfail, one outside them fails and proposes a line, a malformed
# known list is a fixture error.  The runners are selftest/mutant-runner.sh
# (the probe run natively, its output corrupted; one probe run shared by all
# cases through its cache file).
#
# Usage: runner_mutant.sh BIN_DIR WORK_DIR MUTANT_RUNNER
#   BIN_DIR has bg-digest-check and bg-check; fixtures come from
#   $BG_FIXTURES_DIR and are copied, never modified.
set -uo pipefail
bin=$1 work=$2 mut=$3
outer=${BG_CHECKS_FILE:-/dev/null}
unset BG_CHECKS_FILE
check() { BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name "digest.selftest.runner_mutant.$1" \
          --expect-equal "$2" "$3" || true; }
rm -rf "$work" && mkdir -p "$work/fx/randomx/known" "$work/path" || exit 3
cp "$BG_FIXTURES_DIR/randomx/kat.json" "$BG_FIXTURES_DIR/randomx/chains.json" "$work/fx/randomx/" || exit 3
cache=$work/observed.json
flags=argon2=ref slug=interp+soft-aes+light+argon2-ref
T=digest.mutant.$slug

# run CASE RUNNER: bg-digest-check --runner RUNNER in $work/CASE; exit code in $rc
run() {
  mkdir -p "$work/$1"
  BG_CHECKS_FILE="$work/$1/checks.jsonl" BG_TEST_NAME=$T BG_FIXTURES_DIR="$work/fx" \
    "$bin/bg-digest-check" --runner "$2" --flags "$flags" --n 16 --k 4 >"$work/$1/out.log" 2>&1
  rc=$?
}
# verdict CASE CHECK: the verdict of check $T.CHECK in that case's checks ("none" if absent)
verdict() {
  local v
  v=$(grep "\"name\":[[:space:]]*\"$T.$2\"" "$work/$1/checks.jsonl" 2>/dev/null |
      sed -n 's/.*"verdict":[[:space:]]*"\([a-z]*\)".*/\1/p' | head -1)
  echo "${v:-none}"
}

# 1. a right runner (nothing changed): every check passes
BG_X86_RUNNERS="mutant=$mut none $cache" run none mutant
check none.exit 0 "$rc"
check none.chain pass "$(verdict none chain)"

# 2. checkpoint 2 (hash 7) and everything after it differ: the chain fails
#    naming checkpoint 2, the known answers pass, a line is proposed
BG_X86_RUNNERS="mutant=$mut checkpoint:2 $cache" run chain mutant
check chain.exit 1 "$rc"
check chain.verdict fail "$(verdict chain chain)"
check chain.kat_1a pass "$(verdict chain kat.1a)"
check chain.names_checkpoint 1 "$(grep "\"name\":[[:space:]]*\"$T.chain\"" "$work/chain/checks.jsonl" |
  grep -c '"observed":[[:space:]]*"checkpoint 2 (hash 7) ')"
check chain.first_divergent 1 "$(grep -c '"first_divergent_checkpoint":{"checkpoint":2,"hash_index":7' "$work/chain/checks.jsonl")"
check chain.proposed 1 "$(grep -c "^mutant	\*	randomx-v1	$slug	chain	proposed, not reviewed" \
  "$work/chain/proposed-known/digest_agreement/mutant.tsv" 2>/dev/null)"

# 3. one known answer differs: that check fails, the others pass
BG_X86_RUNNERS="mutant=$mut kat:1b $cache" run kat mutant
check kat.exit 1 "$rc"
check kat.kat_1b fail "$(verdict kat kat.1b)"
check kat.kat_1c pass "$(verdict kat kat.1c)"
check kat.chain pass "$(verdict kat chain)"

# 4. the deviation listed for the runner: xfail, exit 0
printf 'mutant\t*\trandomx-v1\t%s\tchain\tself-test: a listed deviation\t1.0\n' "$slug" >"$work/fx/randomx/known/mutant.tsv"
BG_X86_RUNNERS="mutant=$mut checkpoint:2 $cache" run known mutant
check known.exit 0 "$rc"
check known.verdict xfail "$(verdict known chain)"
rm -f "$work/fx/randomx/known/mutant.tsv"

# 5. brackets: a stand-in qemu-x86_64 first in PATH answers --version with an
#    unmeasured version; the list measured the deviation at 7.2.22 and 10.0.13
printf 'qemu-x86_64\t>=7.2,<7.3\trandomx-v1\t%s\tchain\tself-test: lo\t7.2.22\n' "$slug" >"$work/fx/randomx/known/qemu-x86_64.tsv"
printf 'qemu-x86_64\t>=10.0,<10.1\trandomx-v1\t%s\tchain\tself-test: hi\t10.0.13\n' "$slug" >>"$work/fx/randomx/known/qemu-x86_64.tsv"
standin() {
  { echo '#!/bin/sh'
    echo "[ \"\$1\" = --version ] && { echo 'qemu-x86_64 version $1 (self-test stand-in)'; exit 0; }"
    echo "exec '$mut' checkpoint:2 '$cache' \"\$@\""; } >"$work/path/qemu-x86_64"
  chmod +x "$work/path/qemu-x86_64"
}
standin 8.2.2
PATH="$work/path:$PATH" run bracket qemu-x86_64
check bracket.exit 0 "$rc"
check bracket.verdict xfail "$(verdict bracket chain)"
check bracket.inferred 1 "$(grep -c '"inferred":[[:space:]]*"8.2.2 is between measured 7.2.22 and 10.0.13; not measured"' "$work/bracket/checks.jsonl")"
standin 99.0.0
PATH="$work/path:$PATH" run outside qemu-x86_64
check outside.exit 1 "$rc"
check outside.verdict fail "$(verdict outside chain)"
check outside.proposed 1 "$(grep -c "^qemu-x86_64	>=99.0,<99.1	randomx-v1	$slug	chain	proposed, not reviewed.*	99.0.0\$" \
  "$work/outside/proposed-known/digest_agreement/qemu-x86_64.tsv" 2>/dev/null)"

# 6. a malformed known line: the fixture error naming file and line, exit 5
printf 'qemu-x86_64\t>=7.2,<7.3\trandomx-v1\t%s\tchain\n' "$slug" >>"$work/fx/randomx/known/qemu-x86_64.tsv"
PATH="$work/path:$PATH" run malformed qemu-x86_64
check malformed.exit 5 "$rc"
check malformed.line 1 "$(grep -c "^buildgate: bg-digest-check: .*known/qemu-x86_64.tsv:3: expected 7 tab-separated columns" "$work/malformed/out.log")"
exit 0
