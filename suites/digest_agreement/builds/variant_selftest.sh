#!/usr/bin/env bash
# Self-test: the variant table (builds/variants.cmake, bg_randomx_variant()
# in builds/RandomXVariant.cmake) loads as declared, the user's extension
# paths add to it, and every bad call stops the configure with one line
# naming the variant and the fix (docs/digest_agreement.md "Build variants").
# Usage: variant_selftest.sh BG_CHECK WORK
#   WORK: a scratch directory inside the build tree (emptied first)
set -uo pipefail
check=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
me=${BG_TEST_NAME:-digest.selftest.variant_table}
# shellcheck source-path=SCRIPTDIR source=selftest_rec.sh
. "$here/selftest_rec.sh"
rm -rf "$work" && mkdir -p "$work" || exit 3
# load [cmake -D options]: the probe's lines
load() { cmake "$@" -P "$here/variant_probe.cmake" 2>&1 | grep -E "^(variant|reference)="; }
# err [cmake -D options]: the first CMake error or warning message, its wrapped lines joined
err() {
  cmake "$@" -P "$here/variant_probe.cmake" 2>&1 |
    awk '/^CMake (Error|Warning)/ { on = 1; next }
         on && /^Call Stack/ { print s; exit }
         on { sub(/^ +/, ""); if ($0 != "") s = s (s == "" ? "" : " ") $0 }'
}

out=$(load)
rec table_count 13 "$(printf '%s\n' "$out" | grep -c '^variant=')"
rec table_first "variant=release x86_64 default Release gate profile=0 rx=[]" "$(printf '%s\n' "$out" | head -1)"
rec table_sanitize "variant=sanitize x86_64 default RelWithDebInfo gate profile=0 rx=[-O1 -fsanitize=address,undefined -fno-omit-frame-pointer]" \
    "$(printf '%s\n' "$out" | grep '^variant=sanitize ')"
rec table_profiled "profile profile_native" "$(printf '%s\n' "$out" | sed -n 's/^variant=\([^ ]*\) .* profile=1 .*/\1/p' | paste -sd' ' -)"
rec table_traps "aes_trap arm64_trap" "$(printf '%s\n' "$out" | sed -n 's/^variant=\([^ ]*\) .* trap profile=.*/\1/p' | paste -sd' ' -)"
rec table_reference "reference=release" "$(printf '%s\n' "$out" | grep '^reference=')"

# the user's own calls, without an edit; the older pipe string into the same call
printf 'bg_randomx_variant(NAME o2 ARCH x86_64 RX_FLAGS -O2 PROFILE)\n' >"$work/mine.cmake"
rec user_file "variant=o2 x86_64 default Release gate profile=1 rx=[-O2]" \
    "$(load -DFILE="$work/mine.cmake" | grep '^variant=o2 ')"
rec extra_string "variant=o3 x86_64 native Debug trap profile=0 rx=[-O3 -g]" \
    "$(load "-DEXTRA=o3 | x86_64 | native | Debug | -O3 -g | | | trap" | grep '^variant=o3 ')"
rec only "variant=native variant=lto" \
    "$(load "-DONLY=native;lto" | grep '^variant=' | cut -d' ' -f1 | paste -sd' ' -)"

# bad calls in the user's file: one line each.  bad <case> <call's arguments> <the line>
bad() { printf 'bg_randomx_variant(%s)\n' "$2" >"$work/$1.cmake"; rec "$1" "$3" "$(err -DFILE="$work/$1.cmake")"; }
bad duplicate "NAME release ARCH x86_64" \
    "buildgate: bg_randomx_variant(NAME release): a variant of that name is declared already"
bad bad_role "NAME x ARCH x86_64 ROLE gates" \
    "buildgate: bg_randomx_variant(NAME x): ROLE must be gate or trap, got 'gates'"
bad no_arch "NAME x RX_FLAGS -O2" "buildgate: bg_randomx_variant(NAME x): ARCH is required: x86_64 or aarch64, got ''"
# fresh-user trial: a call without NAME was dropped silently (an unset V_NAME
# matched the regex as the string "V_NAME"); ARCH sparc, BUILD_TYPE Bogus and
# a NAME given twice were accepted
bad no_name "ARCH x86_64 RX_FLAGS -O2" \
    "buildgate: bg_randomx_variant(NAME ): NAME is required: letters, digits and '_' (it is a test name part)"
bad bad_arch "NAME x ARCH sparc" "buildgate: bg_randomx_variant(NAME x): ARCH is required: x86_64 or aarch64, got 'sparc'"
bad bad_build_type "NAME x ARCH x86_64 BUILD_TYPE Bogus" \
    "buildgate: bg_randomx_variant(NAME x): BUILD_TYPE must be Release, Debug, RelWithDebInfo or MinSizeRel, got 'Bogus'"
bad name_twice "NAME x ARCH x86_64 NAME y" "buildgate: bg_randomx_variant(NAME y): NAME given 2 times (once at most)"
bad unknown_keyword "NAME x ARCH x86_64 FLAGS -O2" \
    "buildgate: bg_randomx_variant(NAME x): unexpected arguments 'FLAGS;-O2'"
bad second_reference "NAME o2 ARCH x86_64 JIT_REFERENCE" \
    "buildgate: bg_randomx_variant(NAME o2): JIT_REFERENCE is release already (one reference)"
rec no_file "buildgate: BG_RANDOMX_VARIANTS_FILE: $work/none.cmake: no such file" \
    "$(err -DFILE="$work/none.cmake")"
rec only_unknown "buildgate: BG_RANDOMX_VARIANTS_ONLY: no build variant 'nosuch'" \
    "$(err -DONLY=nosuch | sed 's/ (known: .*//')"
rec extra_malformed "buildgate: BG_RANDOMX_BUILDS_EXTRA: 'bad|x': 8 fields separated by | expected, got 2" \
    "$(err "-DEXTRA=bad|x")"
rec extra_empty_name "buildgate: bg_randomx_variant(NAME ): NAME is required: letters, digits and '_' (it is a test name part)" \
    "$(err "-DEXTRA= | x86_64 | default | Release | -O2 | | | gate")"
exit 0
