#!/usr/bin/env bash
# Self-test: bad input to bg-chain gets one line "buildgate: ..." and a
# distinct non-zero exit, never a crash.  Usage: bad_input.sh BIN_DIR
set -uo pipefail
bin=$1
# Inner runs must not write into this test's own checks: only bg-check does.
outer=${BG_CHECKS_FILE:-/dev/null}
unset BG_CHECKS_FILE
# case name | expected exit | arguments
cases=(
  "unknown_flag|2|--flags jit,turbo"
  "bad_argon2|2|--flags argon2=sse9"
  "secure_without_jit|2|--flags secure"
  "empty_key|2|--key="
  "zero_length|2|--n 0"
  "negative_length|2|--n -5"
  "absurd_length|2|--n 99999999999"
  "k_beyond_n|2|--n 8 --k 9"
  "bad_hex_key|2|--key-hex zz"
  "unknown_option|2|--frobnicate 1"
  "kat_on_bg_chain|2|--kat /nonexistent/kat.json --n 1"
  "missing_value|2|--n"
  "replace_without_reason|2|--replace"
  "reason_without_record|2|--reason x"
  "flag_twice|2|--flags jit,jit"
  "empty_flags|2|--flags ,"
  "two_keys|2|--key a --key-hex 00"
  "record_unwritable|3|--n 1 --record /proc/bg-none/chains.json"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name want args <<<"$c"
  if [ "$name" = empty_key ]; then set -- --key ""; else read -ra argv <<<"$args"; set -- "${argv[@]}"; fi
  err=$("$bin/bg-chain" "$@" 2>&1 >/dev/null)
  rc=$?
  BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name "digest.selftest.bad_input.$name.exit" \
    --expect-equal "$want" "$rc" || true
  lines=$(printf '%s\n' "$err" | grep -c .)
  first=$(printf '%s\n' "$err" | head -1 | cut -c1-10)
  BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name "digest.selftest.bad_input.$name.one_line" \
    --expect-equal "1 buildgate:" "$lines $first" || true
done
# The AES trap of the seed (macOS, -march=native): flags 156 where 158 is due.
out=$("$bin/bg-aes-flags" --judge 1 156 arm64 2>&1)
BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name digest.selftest.aes_trap.exit --expect-equal 1 "$?" || true
BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name digest.selftest.aes_trap.message --expect-equal 1 \
  "$(printf '%s\n' "$out" | grep -c '= 156, expected 158.*__ARM_FEATURE_CRYPTO.*-march=armv8-a+crypto' )" || true
out=$("$bin/bg-aes-flags" --judge 1 104 x86_64 2>&1)
BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name digest.selftest.aes_trap_x86.message --expect-equal 1 \
  "$(printf '%s\n' "$out" | grep -c '= 104, expected 106.*__AES__.*-maes')" || true
"$bin/bg-aes-flags" --judge 1 106 x86_64 >/dev/null 2>&1
BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name digest.selftest.aes_agree.exit --expect-equal 0 "$?" || true
# A test whose name does not match its flags is caught (DigestTests.cmake vs rx_flags_slug).
scratch=$(mktemp)
BG_CHECKS_FILE=$scratch BG_TEST_NAME=digest.runtime.jit+hard-aes+light+argon2-ref \
  "$bin/bg-digest-check" --flags jit,argon2=ref --n 64 --k 8 >/dev/null 2>&1
rc=$?
BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name digest.selftest.name_mismatch.exit \
  --expect-equal 1 "$rc" || true
BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name digest.selftest.name_mismatch.check \
  --expect-equal 1 "$(grep -c '"name":"digest.runtime.jit+hard-aes+light+argon2-ref.name","test":"[^"]*","verdict":"fail"' "$scratch")" || true
rm -f "$scratch"
exit 0
