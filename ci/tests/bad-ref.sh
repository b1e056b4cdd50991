#!/usr/bin/env bash
# bad-ref.sh — the same mistake, the same answer in every ci/ script (label
# selftest): a ref that is no commit is exit 2 (usage) with one line, in
# ci/gate --base and ci/bisect --bad/--good; ci/gate --base whose merge-base
# with HEAD is HEAD itself, on a clean tree, is one line, exit 2, before any
# build (it compared a commit with itself for 8 minutes, without a word).
#
# Usage: bad-ref.sh BG_CHECK CIDIR WORK [--mutant]
#   Copies CIDIR's gate, bisect, bisect-lib.sh, common.sh (and lib/sh/bg_cli.sh)
#   into a one-commit git repository in WORK, with a stand-in cmake on PATH that
#   records a build.  --mutant: CIDIR is main's (the old exit 3, no check of
#   --base HEAD): passes only when the checks fail.
# Checks (suite ci): <test>.gate_bad_ref, .bisect_bad_ref, .bisect_bad_good,
# .bisect_bad_base_ref (one line, not git's 'fatal:' and a wrong reason), .gate_base_head
set -u
[ $# -ge 3 ] || { echo "buildgate: bad-ref.sh: want BG_CHECK CIDIR WORK [--mutant]" >&2; exit 2; }
check=$1 cidir=$2 work=$3
n=${BG_TEST_NAME:-ci.selftest.bad_ref}
rm -rf "$work" && mkdir -p "$work/repo/ci" "$work/repo/lib/sh" "$work/bin" || exit 3
work=$(cd "$work" && pwd)
if [ "${4:-}" = --mutant ]; then
  mkdir -p "$work/old" && cp "$cidir"/gate "$cidir"/bisect "$cidir"/bisect-lib.sh "$cidir"/common.sh "$work/old/" || exit 3
  sed -i.bak -e 's/die 2 \("--bad\)/die 3 \1/' -e 's/die 2 \("--good\)/die 3 \1/' "$work/old/bisect"
  sed -i.bak 's/^  if \[ "\$base_sha" = "\$(git -C "\$BG_ROOT" rev-parse HEAD 2>\/dev\/null)" \]/  if false/' "$work/old/gate"
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$check" "$work/old" "$work/run" >"$work/mutant.out" 2>&1
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  "$check" --suite ci --name "$n.mutant_caught" --expect-equal "some checks fail" \
    "$([ "${fails:-0}" -gt 0 ] && echo "some checks fail" || echo "no check fails: $(cat "$work/mutant.out")")"
  exit $?
fi
repo=$work/repo
cp "$cidir"/gate "$cidir"/bisect "$cidir"/bisect-lib.sh "$cidir"/common.sh "$repo/ci/" &&
  cp "$cidir/../lib/sh/bg_cli.sh" "$repo/lib/sh/" 2>/dev/null || cp "$(dirname "$0")/../../lib/sh/bg_cli.sh" "$repo/lib/sh/" || exit 3
printf '#!/bin/sh\necho "$*" >>"%s/cmake-called"\nexit 1\n' "$work" >"$work/bin/cmake" && chmod +x "$work/bin/cmake" || exit 3
export PATH="$work/bin:$PATH" BG_JOBS=1
( cd "$repo" && git init -q -b main . && git add -A && git -c user.name=t -c user.email=t@t commit -qm one ) || exit 3
ok=0
# say <name> <expected> CMD...: "exit N; <last buildgate line>" of CMD run in the repository
say() {
  local name=$1 want=$2; shift 2
  (cd "$repo" && "$@") >"$work/out" 2>"$work/err"
  local rc=$?
  "$check" --suite ci --name "$n.$name" --expect-equal "$want" \
    "exit $rc; $(grep '^buildgate:' "$work/err" | tail -n 1); $([ -e "$work/cmake-called" ] && echo "a build started" || echo "no build")" || ok=1
  rm -f "$work/cmake-called"
}
say gate_bad_ref "exit 2; buildgate: ci/gate: --base: 'no-such-ref' is not a commit; no build" \
  ci/gate --no-provision --base no-such-ref --build-dir "$work/b"
say bisect_bad_ref "exit 2; buildgate: ci/bisect: --bad 'no-such-ref' is not a commit; no build" \
  ci/bisect --bad no-such-ref --good HEAD --checks x
say bisect_bad_good "exit 2; buildgate: ci/bisect: --good 'no-such-ref' is not a commit; no build" \
  ci/bisect --good no-such-ref --checks x
say bisect_bad_base_ref "exit 2; buildgate: ci/bisect: --base-ref 'no-such-ref' is not a commit; no build" \
  ci/bisect --base-ref no-such-ref --checks x
sha=$(git -C "$repo" rev-parse HEAD)
say gate_base_head "exit 2; buildgate: ci/gate: --base: the merge-base of HEAD and 'main' is HEAD itself (${sha:0:12}), nothing to compare: commit your change on top of 'main', or run without --base; no build" \
  ci/gate --no-provision --base main --build-dir "$work/b"
exit $ok
