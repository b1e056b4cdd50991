#!/usr/bin/env bash
# Self-test of the RandomX build cache (docs/digest_agreement.md "Build cache"):
# a damaged entry is rebuilt, never used; one changed input changes the key;
# a second tree hits; two trees at once build once; a failed build publishes
# nothing.  Runs cmake/BuildgateRandomXCache.cmake on a tiny stand-in RandomX
# project (seconds, not the real library's minutes).
# Usage: cache_selftest.sh BG_CHECK ROOT WORK
#   WORK: a scratch directory inside the build tree (emptied first)
set -uo pipefail
check=$1 root=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
me=${BG_TEST_NAME:-digest.selftest.build_cache}
# shellcheck source=selftest_rec.sh
. "$here/selftest_rec.sh"
rm -rf "$work" && mkdir -p "$work/src/src" "$work/bad/src" || exit 3

# the stand-in: project(RandomX), a static library `randomx`, src/randomx.h
printf 'cmake_minimum_required(VERSION 3.13)\nproject(RandomX C)\nadd_library(randomx STATIC src/randomx.c)\n' \
  >"$work/src/CMakeLists.txt"
printf 'int randomx_stand_in(void);\n' >"$work/src/src/randomx.h"
printf '#include "randomx.h"\nint randomx_stand_in(void) { return 42; }\n' >"$work/src/src/randomx.c"
cp "$work/src/src/randomx.h" "$work/bad/src/"
printf 'cmake_minimum_required(VERSION 3.13)\nproject(RandomX C)\nadd_library(randomx STATIC src/missing.c)\n' \
  >"$work/bad/CMakeLists.txt"
printf 'patch one\n' >"$work/a.patch"

key_of() { # key_of SOURCE_ID PATCH FLAGS
  cmake -DROOT="$root" -DWORK="$work" -DSOURCE_ID="$1" -DPATCH="$2" -DFLAGS="$3" \
        -P "$here/cache_key_probe.cmake" 2>&1 | sed -n 's/^key=//p'
}
# run_tree TREE KEY [SRC]: one build step of variant TREE through the cache
run_tree() {
  local out=$work/$1 src=${3:-$work/src}
  mkdir -p "$out"
  printf 'stand-in key text\n' >"$out/key.txt"
  cat >"$out/rx-cache.cmake" <<EOF
set(OUT [==[$out]==])
set(NAME [==[$1]==])
set(SRC [==[$src]==])
set(RX_ARGS [==[-G;Ninja;-DCMAKE_BUILD_TYPE=Release]==])
set(CACHE_DIR [==[$work/cache]==])
set(KEY $2)
set(KEY_FILE [==[$out/key.txt]==])
set(STEP [==[$root/cmake/BuildgateStep.cmake]==])
EOF
  cmake -DPARAMS="$out/rx-cache.cmake" -P "$root/cmake/BuildgateRandomXCache.cmake" >"$out/step.out" 2>&1
}
state() { cat "$work/$1/rx.cache" 2>/dev/null || echo "no rx.cache"; }
# entry_ok KEY: "ok" when every file of the entry matches its stamp
entry_ok() {
  local e=$work/cache/$1
  [ -f "$e/stamp" ] || { echo "no stamp"; return; }
  grep -qx "key $1" "$e/stamp" || { echo "stamp without key"; return; }
  (cd "$e" && sed -n 's/^sha256 \([0-9a-f]*\) \(.*\)$/\1  \2/p' stamp | sha256sum --quiet -c - >/dev/null 2>&1) &&
    echo ok || echo "files differ from stamp"
}

# the key: deterministic, and each input changes it
k=$(key_of sha256:aaaa "" "")
rec key_format 32 "${#k}"
rec key_stable "$k" "$(key_of sha256:aaaa "" "")"
rec key_changes_with_flag 1 "$([ "$(key_of sha256:aaaa "" -O0)" != "$k" ] && echo 1 || echo 0)"
rec key_changes_with_source 1 "$([ "$(key_of sha256:bbbb "" "")" != "$k" ] && echo 1 || echo 0)"
kp=$(key_of sha256:aaaa "$work/a.patch" "")
printf 'patch two\n' >"$work/a.patch"
rec key_changes_with_patch 1 "$([ "$(key_of sha256:aaaa "$work/a.patch" "")" != "$kp" ] && [ "$kp" != "$k" ] && echo 1 || echo 0)"

# cold: built and published; the tree's build directory is dropped
run_tree A "$k"
rec cold_builds "built $k" "$(state A)"
rec cold_entry "ok" "$(entry_ok "$k")"
rec cold_key_txt 1 "$(grep -c '^stand-in key text$' "$work/cache/$k/key.txt" 2>/dev/null)"
rec cold_tree_rx_removed 0 "$([ -d "$work/A/rx" ] && echo 1 || echo 0)"
# warm: a second tree takes the entry without configuring anything
run_tree B "$k"
rec warm_hits "hit $k" "$(state B)"
rec warm_no_build 0 "$([ -f "$work/B/configure.log" ] && echo 1 || echo 0)"

# a truncated library: detected, rebuilt, never used
lib=$work/cache/$k/lib/librandomx.a
head -c 100 "$lib" >"$lib.t" && mv "$lib.t" "$lib"
run_tree B "$k"
rec truncated_rebuilt "built $k" "$(state B)"
rec truncated_said 1 "$(grep -c "lib/librandomx.a does not match its stamp" "$work/B/step.out")"
rec truncated_entry_fixed "ok" "$(entry_ok "$k")"
# a missing stamp (an interrupted publish): rebuilt
rm -f "$work/cache/$k/stamp"
run_tree A "$k"
rec no_stamp_rebuilt "built $k" "$(state A)"
rec no_stamp_said 1 "$(grep -c "no stamp" "$work/A/step.out")"
rec no_stamp_entry_fixed "ok" "$(entry_ok "$k")"
# a stamp of another key: not used
sed -i.bak "s/^key .*/key 00000000000000000000000000000000/" "$work/cache/$k/stamp"
run_tree B "$k"
rec wrong_key_rebuilt "built $k" "$(state B)"

# two trees at once: one builds, the other waits on the lock and hits
rm -rf "$work/cache"
run_tree C "$k" & run_tree D "$k" & wait
rec concurrent "built $k|hit $k" "$(printf '%s\n' "$(state C)" "$(state D)" | sort | paste -sd'|' -)"
rec concurrent_entry "ok" "$(entry_ok "$k")"
rec concurrent_no_tmp 0 "$(find "$work/cache" -maxdepth 1 -name '.tmp-*' | wc -l)"

# a failing build: rx.FAILED, nothing published, not retried with the same key
kb=$(key_of sha256:broken "" "")
run_tree E "$kb" "$work/bad"
rec failed_recorded 1 "$(grep -Ec "^(configure|build) failed" "$work/E/rx.FAILED" 2>/dev/null)"
rec failed_not_published 0 "$([ -e "$work/cache/$kb" ] && echo 1 || echo 0)"
rm -f "$work/E/build.log"
run_tree E "$kb" "$work/bad"
rec failed_not_retried 0 "$([ -f "$work/E/build.log" ] && echo 1 || echo 0)"
exit 0
