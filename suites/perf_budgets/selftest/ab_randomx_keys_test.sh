#!/bin/sh
# ab_randomx_keys_test.sh — the PR judge (gate/ab-merge-base.sh) says which
# RandomX each side measures: the same build cache key on both sides is
# "identical RandomX library on both sides (...): the A/B measures the harness
# only"; a head that changes the shipped variant's flags has another key and
# "RandomX differs" (issue 22, Deliver 2; the timing judgement itself is the
# long test perf.ab.merge_base).
#
# Usage: ab_randomx_keys_test.sh BG_CHECK SRC RXCACHE WORK [--full]
#   SRC      this checkout (its files, tracked and untracked-not-ignored, are
#            copied into a scratch git repository WORK/repo: commit "base")
#   RXCACHE  BG_RANDOMX_CACHE: where the verified RandomX tarball is (linked as
#            WORK/repo/build/cache/randomx); none there: a skip (exit 77)
# Commits on top of "base": "doc" (a line added to docs/performance.md), then
# "O0" (RX_FLAGS -O0 added to the shipped variant's bg_randomx_variant() line
# in suites/digest_agreement/builds/variants.cmake: release, arm64_release on
# arm64).  At each, ab-merge-base.sh --keys-only --base-ref HEAD~1 configures
# both sides (the builds cache: $BG_RANDOMX_BUILD_CACHE as the configures see it).
# Checks (suite perf_budgets): <test>.doc_only ("exit 0: identical RandomX
# library on both sides"), <test>.o0_flags ("exit 0: RandomX differs, the two
# cache keys differ").
# --full (label long): at "O0" the real judge instead of --keys-only, light-mode
#   JIT hashing alone, by instruction counts and by time: it must fail naming
#   randomx/<version>/<variant>/hash/light-jit-hard (<test>.o0_judged: "exit 1:
#   randomx/v2/release/hash/light-jit-hard: fail" on x86-64 with the default RandomX v2).
#   The instruction counts decide it: in light mode the JIT compiles the
#   superscalar programs too, so -O0 slows a hash by only about 3-5 % in time
#   (inside the 5 % band; docs/performance.md), while its Ir per hash moves far
#   beyond ir_band.  Without valgrind (macOS) the time judge alone may pass it.
# Exit: 0 pass, 1 a check failed, 2 usage, 3 setup failed, 77 no RandomX source.
set -u
[ $# -eq 4 ] || [ $# -eq 5 ] || { echo "buildgate: ab_randomx_keys_test.sh: want BG_CHECK SRC RXCACHE WORK [--full]" >&2; exit 2; }
check=$1 src=$2 rxcache=$3 work=$4 full=${5:-}
n=${BG_TEST_NAME:-ab_randomx_keys}
set -- "$rxcache"/librandomx_*.orig.tar.gz
if [ ! -f "$1" ] || [ ! -f "$1.sha256" ]; then
  "$check" --suite perf_budgets --name "$n" --verdict skip --expected "a verified RandomX tarball in $rxcache" \
    --observed "none: run ci/provision --randomx-source (perf-bench then links the installed RandomX on both sides)"
  exit 77
fi
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || { echo "buildgate: ab_randomx_keys_test.sh: SRC $src is not a git checkout" >&2; exit 2; }
case "$(uname -m)" in arm64|aarch64) variant=arm64_release ;; *) variant=release ;; esac
rm -rf "$work" && mkdir -p "$work/repo/build/cache" || exit 3
repo=$work/repo
( cd "$src" && git ls-files -z -co --exclude-standard | tar --null -T - -cf - 2>/dev/null ) | ( cd "$repo" && tar -xf - ) ||
  { echo "buildgate: ab_randomx_keys_test.sh: cannot copy $src" >&2; exit 3; }
ln -s "$rxcache" "$repo/build/cache/randomx" || exit 3
g() { git -C "$repo" -c user.name=selftest -c user.email=selftest@localhost "$@"; }
{ g init -q && g add -A && g commit -qm base &&
  echo "(a doc-only change of the ab_randomx_keys self-test)" >>"$repo/docs/performance.md" &&
  g commit -qam doc; } >"$work/git.log" 2>&1 || { echo "buildgate: ab_randomx_keys_test.sh: git setup failed (log: $work/git.log)" >&2; exit 3; }
# the judge's own checks (perf.ab.*, perf.callgrind.*: a fail is what --full wants)
# go to a file of their own, not this test's: they are the subject here
ab() { BG_CHECKS_FILE="$work/judge.jsonl" "$repo/suites/perf_budgets/gate/ab-merge-base.sh" "$@"; }
ab --keys-only --base-ref HEAD~1 --work "$work/ab" >"$work/doc.out" 2>&1
rc=$?
obs=$(sed -n 's/^ab: \(identical RandomX library on both sides\) .*/\1/p; s/^ab: \(RandomX differs\):.*/\1/p' "$work/doc.out")
"$check" --suite perf_budgets --name "$n.doc_only" --expect-equal "exit 0: identical RandomX library on both sides" \
  "exit $rc: ${obs:-$(tail -1 "$work/doc.out")}"
r1=$?
vf=$repo/suites/digest_agreement/builds/variants.cmake
sed "s/^\(bg_randomx_variant(NAME $variant .*\))\$/\1 RX_FLAGS -O0)/" "$vf" >"$vf.new" && mv "$vf.new" "$vf" || exit 3
grep -q "^bg_randomx_variant(NAME $variant .*RX_FLAGS -O0)\$" "$vf" ||
  { echo "buildgate: ab_randomx_keys_test.sh: no one-line bg_randomx_variant(NAME $variant ...) in $vf to add -O0 to" >&2; exit 3; }
g commit -qam O0 >>"$work/git.log" 2>&1 || exit 3
if [ "$full" = --full ]; then
  re='^randomx/[^/]+/[^/]+/hash/light-jit-hard$'
  ab --base-ref HEAD~1 --work "$work/ab" --filter "$re" --ir-filter "$re" >"$work/o0.out" 2>&1
  rc=$?
  vv="$(sed -n 's/^version //p' "$work/ab/head/suites/perf_budgets/randomx.key")/$variant"
  obs=$(grep -o "randomx/$vv/hash/light-jit-hard: fail" "$work/o0.out" | head -1)
  "$check" --suite perf_budgets --name "$n.o0_judged" --expect-equal "exit 1: randomx/$vv/hash/light-jit-hard: fail" \
    "exit $rc: ${obs:-$(grep 'light-jit-hard' "$work/o0.out" | tail -1)}"
  exit $?
fi
ab --keys-only --base-ref HEAD~1 --work "$work/ab" >"$work/o0.out" 2>&1
rc=$?
line=$(grep '^ab: RandomX differs' "$work/o0.out")
bkey=$(sed -n 's/^key //p' "$work/ab/base/suites/perf_budgets/randomx.key" 2>/dev/null)
hkey=$(sed -n 's/^key //p' "$work/ab/head/suites/perf_budgets/randomx.key" 2>/dev/null)
keys="the two cache keys differ"
{ [ -n "$bkey" ] && [ "$bkey" != "$hkey" ]; } || keys="keys '$bkey' and '$hkey'"
if [ -n "$line" ]; then obs="RandomX differs, $keys"; else obs="$(tail -1 "$work/o0.out"), $keys"; fi
"$check" --suite perf_budgets --name "$n.o0_flags" --expect-equal "exit 0: RandomX differs, the two cache keys differ" \
  "exit $rc: $obs"
r2=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ]
