#!/usr/bin/env bash
# ab-merge-base.sh — the pull-request judge: same-job A/B of HEAD against the
# merge-base of HEAD and a base ref, built side by side, measured in duet
# pairs (both at once, 2+ CPUs) or interleaved.
#
# Usage: suites/perf_budgets/gate/ab-merge-base.sh [--base-ref REF] [--work DIR]
#          [--filter RE] [--ir-filter RE] [--rounds N] [--reps K] [--keep-worktree]
#          [--head-build DIR] [--judge duet|interleaved] [--keys-only] [-- bg-perf ab args...]
#   --base-ref REF  default: origin/main when it exists, else main
#   --work DIR      default: build/perf-ab (base worktree, both build trees, runs)
#   --head-build D  an existing RelWithDebInfo build tree of this checkout to
#                   use as the head (ci/gate --base: its own tree), not DIR/head
#   --filter RE     default: the gate "pr_judge" of budgets.json "gates" (synth,
#                   aes and light-mode RandomX hashing; docs/perf_budgets.md)
#   --ir-filter RE  the benchmarks judged first by instruction counts (bg-perf
#                   callgrind, checks perf.callgrind.<benchmark>, band ir_band,
#                   and perf.callgrind_cycles.<benchmark>: estimated cycles of the
#                   cache simulation, band cycles_band; a failure names the function):
#                   default the gate "pr_judge_ir" (light-mode RandomX hashing,
#                   JIT and interpreter, hard AES); '' turns it off.  No valgrind (macOS): one skip
#                   check perf.callgrind.valgrind naming why
#   --judge J       how bg-perf ab runs base and head: duet (the default:
#                   both at once, both pinned to one CPU of the affinity
#                   mask per pair, judged on per-pair ratios: bg-perf ab
#                   --duet-cpus 1) or interleaved
#                   (one process at a time); docs/perf_budgets.md "Duet
#                   runs", figures in docs/performance.md
#   --rounds N, --reps K  default: bg-perf's automatic plan (processes enough
#                   for the per-process U test to reach alpha after BH over
#                   the benchmarks; 3 repetitions; each benchmark's budget
#                   min_time: docs/perf_budgets.md "The unit of replication")
# Steps: git merge-base HEAD REF -> `git worktree add --detach DIR/base-src <sha>`
# -> configure + build perf-bench there and in this tree (RelWithDebInfo) ->
# bg-perf callgrind (Ir per hash: deterministic, load-independent, the first
# line for RandomX) -> bg-perf ab --base-exe <base perf-bench> --head-exe <head perf-bench>
# (duet pairs, or interleaved with a random AB/BA order per round; bounded reruns of the inconclusive ones) -> the
# worktree is removed again unless --keep-worktree.
# Every benchmark of either build gets a check (bg-perf ab lists both programs):
# one the head deleted or renamed fails as "vanished" unless the head's
# budgets.json retires it with a reason; a new one is a skip; nothing in common
# fails (docs/perf_budgets.md "One-sided benchmarks").
# Exit: 1 when either judge finds a regression, else the first error of the
# two bg-perf runs, else 0 (no valgrind is not an error); 77 when the merge-base has no
# perf-bench yet (nothing to compare; under bg-run also a skip check
# <test>.base saying so); 2 usage; 3 git/configure/build failed.
# RandomX: each side's perf-bench links the RandomX build variant its own tree
# declares as shipped (BG_PERF_RANDOMX_VARIANT, default release), built from its
# own pinned source, patches and flags through the shared build cache: an
# unchanged RandomX is a cache hit (same key, same entry).  The base configures
# with the head build's BG_RANDOMX_SOURCE, BG_RANDOMX_CACHE, BG_RANDOMX_BUILD_CACHE
# and BG_PERF_RANDOMX_VARIANT, and with RandomX_ROOT when the head's installed
# RandomX is a source-built prefix (macOS: ci/provision's, which a worktree's
# FindRandomX did not find before; issue 21).  Both sides' cache keys
# (<build>/suites/perf_budgets/randomx.key) are compared and said: "identical
# RandomX library on both sides (...): the A/B measures the harness only", or
# "RandomX differs ...: judged" (check <test>.randomx under bg-run).
#   --keys-only     configure both sides (no build, no measurement), say the
#                   RandomX comparison, exit 0 (3 when a configure fails)
set -uo pipefail
# BG_TOOL (this script's path in its error lines) and bg_need_value: lib/sh/bg_cli.sh
# shellcheck source=lib/sh/bg_cli.sh
source "$(dirname "$0")/../../../lib/sh/bg_cli.sh"
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || { echo "buildgate: $BG_TOOL: not in a git checkout" >&2; exit 3; }
ref="" work="$root/build/perf-ab" filter="" irfilter=""
select=(--gates pr_judge) irselect=(--gates pr_judge_ir) # budgets.json "gates"
rounds="" reps="" keep=0 extra=() headdir="" judge=duet keys_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --base-ref) bg_need_value --base-ref $# "${2-}"; ref=$2; shift 2 ;;
    --work) bg_need_value --work $# "${2-}"; work=$2; shift 2 ;;
    --filter) bg_need_value --filter $# "${2-}"; filter=$2; select=(--filter "$filter"); shift 2 ;;
    --ir-filter) bg_need_value --ir-filter $# "${2-}"; irfilter=$2; irselect=(--filter "$irfilter"); [ -n "$irfilter" ] || irselect=(); shift 2 ;;
    --rounds) bg_need_value --rounds $# "${2-}"; rounds=$2; shift 2 ;;
    --reps) bg_need_value --reps $# "${2-}"; reps=$2; shift 2 ;;
    --keep-worktree) keep=1; shift ;;
    --keys-only) keys_only=1; shift ;;
    --head-build) bg_need_value --head-build $# "${2-}"; headdir=$2; shift 2 ;;
    --judge) bg_need_value --judge $# "${2-}"; judge=$2; shift 2
             case "$judge" in duet|interleaved) ;; *) echo "buildgate: $BG_TOOL: --judge must be duet or interleaved" >&2; exit 2 ;; esac ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;;
    *) echo "buildgate: $BG_TOOL: unknown option '$1' (see $BG_TOOL --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$ref" ]; then
  if git -C "$root" rev-parse -q --verify origin/main >/dev/null; then ref=origin/main; else ref=main; fi
fi
base=$(git -C "$root" merge-base HEAD "$ref") || { echo "buildgate: $BG_TOOL: no merge-base of HEAD and $ref" >&2; exit 3; }
head=$(git -C "$root" rev-parse HEAD)
echo "ab: base $base (merge-base with $ref), head $head"
mkdir -p "$work" || exit 3
src="$work/base-src"
cleanup() { [ "$keep" = 1 ] || git -C "$root" worktree remove --force "$src" >/dev/null 2>&1 || true; }
trap cleanup EXIT
git -C "$root" worktree remove --force "$src" >/dev/null 2>&1 || true
git -C "$root" worktree add -q --detach --force "$src" "$base" >/dev/null || { echo "buildgate: $BG_TOOL: git worktree add failed" >&2; exit 3; }
configure() { # configure <src> <dir> [cmake args...]
  local s=$1 d=$2; shift 2
  cmake -S "$s" -B "$d" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${1+"$@"} >"$d.configure.log" 2>&1
}
# cache_value <build dir> <variable>: its value in <build dir>/CMakeCache.txt ("" when unset)
cache_value() { sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt" 2>/dev/null | head -1; }
# key_field <randomx.key> <field>
key_field() { sed -n "s/^$2 //p" "$1" 2>/dev/null | head -1; }
if [ -n "$headdir" ]; then
  if [ "$keys_only" = 0 ]; then
    cmake --build "$headdir" --target perf-bench bg-perf bg-check >"$work/head.build.log" 2>&1 ||
      { echo "buildgate: $BG_TOOL: head build failed (log: $work/head.build.log)" >&2; exit 3; }
  fi
else
  headdir=$work/head
  configure "$root" "$headdir" || { echo "buildgate: $BG_TOOL: head configure failed (log: $headdir.configure.log)" >&2; exit 3; }
  if [ "$keys_only" = 0 ]; then
    cmake --build "$headdir" --target perf-bench bg-perf bg-check >"$headdir.build.log" 2>&1 ||
      { echo "buildgate: $BG_TOOL: head build failed (logs: $work/head.*.log)" >&2; exit 3; }
  fi
fi
# The base side gets the head build's RandomX settings (paths of this checkout,
# which the worktree would otherwise resolve inside itself).
base_args=()
for v in BG_RANDOMX_SOURCE BG_RANDOMX_SHA256 BG_RANDOMX_V2_SOURCE BG_RANDOMX_V2_SHA256 BG_RANDOMX_CACHE \
         BG_RANDOMX_BUILD_CACHE BG_PERF_RANDOMX_VARIANT BG_PERF_RANDOMX_VERSION; do
  val=$(cache_value "$headdir" "$v")
  [ -n "$val" ] && base_args+=("-D$v=$val")
done
rxlib=$(cache_value "$headdir" RandomX_LIBRARY)
case "$rxlib" in
  */lib/librandomx.a) rxroot=${rxlib%/lib/librandomx.a}
    [ -f "$rxroot/key.txt" ] && base_args+=("-DRandomX_ROOT=$rxroot") ;; # a source-built prefix (build cache entry)
esac
ok=1
configure "$src" "$work/base" ${base_args[@]+"${base_args[@]}"} || ok=0
if [ "$ok" = 1 ] && [ "$keys_only" = 0 ]; then
  cmake --build "$work/base" --target perf-bench >"$work/base.build.log" 2>&1 || ok=0
fi
if [ "$ok" = 0 ]; then
  if grep -q "unknown target 'perf-bench'" "$work/base.build.log" 2>/dev/null; then
    why="the merge-base $base has no perf-bench (suite added by this change): nothing to compare"
    echo "bg-perf: skip: $why"
    [ -n "${BG_CHECKS_FILE:-}" ] && "$headdir/lib/bg-check" --suite perf_budgets --name "${BG_TEST_NAME:-perf.ab.merge_base}.base" \
      --verdict skip --expected "a merge-base that has perf-bench" --observed "$why"
    exit 77
  fi
  echo "buildgate: $BG_TOOL: base build failed (logs: $work/base.*.log)" >&2; exit 3
fi
# Which RandomX each side measures: the build cache keys of their libraries.
hk=$headdir/suites/perf_budgets/randomx.key bk=$work/base/suites/perf_budgets/randomx.key
side() { # side <randomx.key>: "v1/release (cache key K)" or what the side links instead
  if [ ! -f "$1" ]; then echo "(no randomx.key: a tree from before perf-bench linked a source-built RandomX)"
  elif [ -n "$(key_field "$1" key)" ]; then echo "$(key_field "$1" version)/$(key_field "$1" variant) (cache key $(key_field "$1" key))"
  else echo "$(key_field "$1" version)/$(key_field "$1" variant): $(key_field "$1" what)"; fi
}
if [ -f "$hk" ] && [ -f "$bk" ] && [ "$(side "$hk")" = "$(side "$bk")" ]; then
  rx_msg="identical RandomX library on both sides ($(side "$hk")): the A/B measures the harness only"
else
  rx_msg="RandomX differs: base $(side "$bk"), head $(side "$hk"): the A/B judges the change of RandomX too"
fi
echo "ab: $rx_msg"
if [ -n "${BG_CHECKS_FILE:-}" ] && [ -x "$headdir/lib/bg-check" ]; then
  "$headdir/lib/bg-check" --suite perf_budgets --name "${BG_TEST_NAME:-perf.ab.merge_base}.randomx" --verdict pass \
    --expected "the RandomX library of each side (build cache keys)" --observed "$rx_msg" >/dev/null
fi
[ "$keys_only" = 1 ] && exit 0
perf=$headdir/suites/perf_budgets/bg-perf budgets=$root/suites/perf_budgets/budgets.json
exes=(--base-exe "$work/base/suites/perf_budgets/perf-bench" --head-exe "$headdir/suites/perf_budgets/perf-bench")
ir_rc=0
if [ ${#irselect[@]} -gt 0 ]; then
  echo "ab: instruction counts first (bg-perf callgrind ${irselect[*]})"
  "$perf" callgrind "${exes[@]}" "${irselect[@]}" --budgets "$budgets" --work-dir "$work/ir"
  ir_rc=$?
  [ "$ir_rc" = 77 ] && ir_rc=0 # no valgrind: its skip check says why
fi
echo "ab: time (bg-perf ab --$judge ${select[*]})"
"$perf" ab "${exes[@]}" "--$judge" \
  "${select[@]}" ${rounds:+--rounds "$rounds"} ${reps:+--reps "$reps"} --budgets "$budgets" \
  --work-dir "$work/runs" ${extra[@]+"${extra[@]}"}
rc=$?
if [ "$ir_rc" = 1 ] || [ "$rc" = 1 ]; then exit 1; fi
[ "$ir_rc" != 0 ] && exit "$ir_rc"
exit "$rc"
