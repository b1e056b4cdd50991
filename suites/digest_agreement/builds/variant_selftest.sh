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

# bad calls: one line each
printf 'bg_randomx_variant(NAME release ARCH x86_64)\n' >"$work/dup.cmake"
rec duplicate "buildgate: bg_randomx_variant(NAME release): a variant of that name is declared already" \
    "$(err -DFILE="$work/dup.cmake")"
printf 'bg_randomx_variant(NAME x ARCH x86_64 ROLE gates)\n' >"$work/role.cmake"
rec bad_role "buildgate: bg_randomx_variant(NAME x): ROLE must be gate or trap, got 'gates'" \
    "$(err -DFILE="$work/role.cmake")"
printf 'bg_randomx_variant(NAME x RX_FLAGS -O2)\n' >"$work/arch.cmake"
rec no_arch "buildgate: bg_randomx_variant(NAME x): ARCH is required (x86_64 or aarch64)" \
    "$(err -DFILE="$work/arch.cmake")"
printf 'bg_randomx_variant(NAME x ARCH x86_64 FLAGS -O2)\n' >"$work/kw.cmake"
rec unknown_keyword "buildgate: bg_randomx_variant(NAME x): unexpected arguments 'FLAGS;-O2'" \
    "$(err -DFILE="$work/kw.cmake")"
printf 'bg_randomx_variant(NAME o2 ARCH x86_64 JIT_REFERENCE)\n' >"$work/ref.cmake"
rec second_reference "buildgate: bg_randomx_variant(NAME o2): JIT_REFERENCE is release already (one reference)" \
    "$(err -DFILE="$work/ref.cmake")"
rec no_file "buildgate: BG_RANDOMX_VARIANTS_FILE: $work/none.cmake: no such file" \
    "$(err -DFILE="$work/none.cmake")"
rec only_unknown "buildgate: BG_RANDOMX_VARIANTS_ONLY: no build variant 'nosuch'" \
    "$(err -DONLY=nosuch | sed 's/ (known: .*//')"
rec extra_malformed "buildgate: build variant 'bad|x': 8 fields separated by | expected, got 2: ignored" \
    "$(err "-DEXTRA=bad|x")"
exit 0
