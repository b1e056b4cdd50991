#!/bin/sh
# findrx_worktree_test.sh — cmake/FindRandomX.cmake finds the source-built
# RandomX prefix (build/cache/randomx-prefix.path, ci/provision --randomx-source
# on macOS) from a git worktree of the checkout too: the perf judge's merge-base
# side (ab-merge-base.sh), ci/bisect and ci/compare-gate build in worktrees,
# and on main the worktree's FindRandomX looked only inside its own tree, so the
# base side had no RandomX on macOS (issue 21, "the macOS perf judge").
#
# Usage: findrx_worktree_test.sh BG_CHECK FINDRANDOMX WORK [--selftest]
#   A scratch git repository (WORK/repo) holding FINDRANDOMX and a project that
#   calls find_package(RandomX); a fake prefix (WORK/prefix: include/randomx.h,
#   lib/librandomx.a) named by WORK/repo/build/cache/randomx-prefix.path; a git
#   worktree WORK/wt of it.  Both are configured; RandomX_LIBRARY must be the
#   prefix's library in each (RandomX_ROOT searched first, so the system library
#   of this host does not hide the result).
# Checks (suite perf_budgets): <test>.checkout, <test>.worktree.
# --selftest: the same against a mutant FINDRANDOMX that looks only inside its
#   own tree (main's lookup: git rev-parse --show-toplevel instead of the common
#   directory); passes when exactly the worktree check fails (<test>.mutant_caught).
# Exit: 0 pass, 1 a check failed, 2 usage, 3 setup failed.
set -u
[ $# -ge 3 ] || { echo "buildgate: findrx_worktree_test.sh: want BG_CHECK FINDRANDOMX WORK [--selftest]" >&2; exit 2; }
check=$1 findrx=$2 work=$3
n=${BG_TEST_NAME:-findrx_worktree}
rm -rf "$work" && mkdir -p "$work" || exit 3
if [ "${4:-}" = --selftest ]; then
  sed 's/rev-parse --git-common-dir/rev-parse --show-toplevel/' "$findrx" >"$work/FindRandomX-mutant.cmake" || exit 3
  grep -q 'show-toplevel' "$work/FindRandomX-mutant.cmake" ||
    { echo "buildgate: findrx_worktree_test.sh: $findrx has no git-common-dir lookup to mutate" >&2; exit 3; }
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME="$n.mutant" sh "$0" "$check" "$work/FindRandomX-mutant.cmake" "$work/m"
  rc=$?
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  failed=$(sed -n 's/.*"name": *"\([^"]*\)".*"verdict": *"fail".*/\1/p' "$work/mutant.jsonl" 2>/dev/null)
  exec "$check" --suite perf_budgets --name "$n.mutant_caught" \
    --expect-equal "exit 1, 1 failing check: $n.mutant.worktree" "exit $rc, ${fails:-0} failing check: $failed"
fi
repo=$work/repo prefix=$work/prefix
mkdir -p "$repo/cmake" "$prefix/include" "$prefix/lib" "$repo/build/cache" || exit 3
cp "$findrx" "$repo/cmake/FindRandomX.cmake" || exit 3
printf '/* a stand-in randomx.h */\n' >"$prefix/include/randomx.h"
printf '!<arch>\n' >"$prefix/lib/librandomx.a"  # an empty ar archive: find_library needs a file
cat >"$repo/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(findrx_worktree C)
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_SOURCE_DIR}/cmake")
find_package(RandomX)
file(WRITE "${CMAKE_BINARY_DIR}/rx-library.txt" "${RandomX_LIBRARY}")
EOF
printf '/build/\n' >"$repo/.gitignore"
printf '%s\n' "$prefix" >"$repo/build/cache/randomx-prefix.path"
( cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm base &&
  git worktree add -q --detach "$work/wt" HEAD ) >"$work/git.log" 2>&1 ||
  { echo "buildgate: findrx_worktree_test.sh: git setup failed (log: $work/git.log)" >&2; exit 3; }
rc=0
for where in checkout worktree; do
  dir=$repo
  [ "$where" = worktree ] && dir=$work/wt
  obs="configure failed (log: $work/$where.log)"
  if cmake -S "$dir" -B "$work/build-$where" >"$work/$where.log" 2>&1; then
    obs="RandomX_LIBRARY $(cat "$work/build-$where/rx-library.txt")"
  fi
  "$check" --suite perf_budgets --name "$n.$where" \
    --expect-equal "RandomX_LIBRARY $prefix/lib/librandomx.a" "$obs" || rc=1
done
exit "$rc"
