#!/usr/bin/env bash
# Self-tests of the JIT checks (label selftest): each must be able to fail.
#
# jit_selftest.sh mutant BG_CHECK BG_JIT_COMPARE REF_DIR WORK
#   Copies REF_DIR's JIT capture (bg-jit-capture) to WORK, flips one byte
#   (offset 0x100 of region "program 0") and truncates another copy.
#   Asserts (checks <test>.*): the mutant's digest.build.mutant.jit_equal fails
#   naming that byte's offset, its region and the instruction on both sides;
#   an unmodified copy passes; the truncated copy fails (not skipped) naming
#   both sizes.
# jit_selftest.sh inject BG_CHECK RUN_VARIANT VARIANT VARIANT_DIR EMULATOR MODE N K
#   (VARIANT: the profiled variant's name, passed by CMake)
#   Runs the variant's bg-jit-profile with --inject MODE (missing-phase |
#   extra-program).  Asserts: exit 1; .programs fails with the exact boundary
#   counts the fault gives; missing-phase also fails .phases; the digest passes.
# Exit 0 when every assertion holds, 1 otherwise, 77 when the variant cannot run.
set -uo pipefail
mode=$1 check=$2
outer=${BG_CHECKS_FILE:-/dev/null} me=${BG_TEST_NAME:-digest.selftest.jit_$mode}
inner=$(mktemp "${TMPDIR:-/tmp}/bg-jit-selftest.XXXXXX")
trap 'rm -f "$inner"' EXIT
bad=0
rec() { BG_CHECKS_FILE=$outer "$check" --suite digest_agreement --name "$me.$1" --expect-equal "$2" "$3" || bad=1; }
# verdict <check name>: the verdict of that check in $inner ("" when absent)
verdict() { grep -o "\"name\":\"$1\",\"test\":\"[^\"]*\",\"verdict\":\"[a-z]*\"" "$inner" | sed 's/.*"verdict":"//; s/"$//' | head -1; }
# observed <check name>: that check's observed string
observed() { grep "\"name\":\"$1\"," "$inner" | sed 's/.*"observed":"\(\([^"\\]\|\\.\)*\)".*/\1/' | head -1; }

case "$mode" in
mutant)
  cmp=$3 ref=$4 work=$5
  rm -rf "$work" && mkdir -p "$work/mutant" "$work/same" "$work/short" || exit 1
  for d in mutant same short; do cp "$ref/jit-capture.json" "$ref/jit-capture.bin" "$work/$d/"; done
  # offset of region "program 0" (jit-capture.json, cJSON's layout: one field a line)
  base=$(awk '/"program":[ \t]*0,/ {getline; gsub(/[^0-9]/, ""); print; exit}' "$ref/jit-capture.json")
  [ -n "$base" ] || { echo "buildgate: jit_selftest: no program 0 region in $ref/jit-capture.json" >&2; exit 1; }
  at=$((base + 256))
  byte=$(od -An -tu1 -j "$at" -N1 "$work/mutant/jit-capture.bin" | tr -d ' ')
  printf "$(printf '\\%03o' $(( (byte ^ 255) )))" | dd of="$work/mutant/jit-capture.bin" bs=1 seek="$at" conv=notrunc status=none
  size=$(wc -c <"$ref/jit-capture.bin")
  head -c $((size - 1)) "$ref/jit-capture.bin" >"$work/short/jit-capture.bin"
  BG_CHECKS_FILE=$inner BG_TEST_NAME=digest.build.jit_equal "$cmp" --reference "ref=$ref" \
    "mutant=$work/mutant" "same=$work/same" "short=$work/short" >/dev/null 2>&1
  rec exit 1 "$?"
  rec mutant.verdict fail "$(verdict digest.build.mutant.jit_equal)"
  o=$(observed digest.build.mutant.jit_equal)
  rec mutant.offset 1 "$(printf '%s' "$o" | grep -c "differs from ref at byte $at (region 2 'program 0', offset 0x100): ref: 0x[0-9a-f]*: .* | mutant: 0x[0-9a-f]*: ")"
  rec same.verdict pass "$(verdict digest.build.same.jit_equal)"
  rec short.verdict fail "$(verdict digest.build.short.jit_equal)"
  rec short.message 1 "$(observed digest.build.short.jit_equal | grep -c "$((size - 1)) bytes, its .json lists $size")"
  ;;
inject)
  run=$3 v=$4 dir=$5 emu=$6 what=$7 n=$8 k=$9
  t=digest.build.$v.jit_phases
  out=$(BG_CHECKS_FILE=$inner BG_TEST_NAME=$t "$run" --variant "$v" "$check" "$dir" "$emu" bg-jit-profile \
        --flags jit,secure,hard-aes --n "$n" --k "$k" --rounds 1 --inject "$what" 2>&1)
  rc=$?
  if [ "$rc" = 77 ]; then
    BG_CHECKS_FILE=$outer "$check" --suite digest_agreement --name "$me" --verdict skip \
      --expected "variant $v runs here" --observed "$(printf '%s\n' "$out" | head -1)"
    exit 77
  fi
  e=$((8 * n))  # RX_PROGRAMS_PER_HASH x hashes (one round)
  rec exit 1 "$rc"
  rec digest "pass" "$(verdict "$t")"
  rec programs.verdict fail "$(verdict "$t.programs")"
  case "$what" in
    missing-phase)
      rec programs.observed "boundaries 0..5 seen $e $e $e 0 $e $e" "$(observed "$t.programs")"
      rec phases.verdict fail "$(verdict "$t.phases")" ;;
    *)
      rec programs.observed "boundaries 0..5 seen $((e + 1)) $e $e $e $e $e" "$(observed "$t.programs")" ;;
  esac
  ;;
*) echo "buildgate: jit_selftest: unknown mode '$mode' (mutant|inject)" >&2; exit 2 ;;
esac
exit "$bad"
