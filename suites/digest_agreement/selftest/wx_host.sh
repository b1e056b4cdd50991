#!/usr/bin/env bash
# Self-test: on a host that forbids W+X memory (simulated by the LD_PRELOAD
# library lib/tools/bg_deny_wx.c) a JIT variant is a skip naming the cause, never
# signal 6; an interpreter variant still passes; a RandomX failure that no
# probe predicted is exit 7 with one line "buildgate: <tool>: RandomX failed: ...".
# Each judgement is also applied once to bg-wx-mutant (RandomX called without
# probe or guard) and must reject it.
#
# Usage: wx_host.sh BIN_DIR PRELOAD MUTANT WORK_DIR
#   BIN_DIR has bg-digest-check, bg-chain, bg-check; PRELOAD is deny_wx.so.
set -uo pipefail
bin=$1 preload=$2 mutant=$3 work=$4
# Inner runs must not write into this test's own checks: only check() does.
outer=${BG_CHECKS_FILE:-/dev/null}
unset BG_CHECKS_FILE
check() { BG_CHECKS_FILE=$outer "$bin/bg-check" --suite digest_agreement --name "digest.selftest.wx_host.$1" \
          --expect-equal "$2" "$3" || true; }
rm -rf "$work" && mkdir -p "$work" || exit 3
# deny MODE CMD...: CMD on a host that forbids what BG_DENY_WX=MODE names (lib/tools/bg_deny_wx.c)
deny() { BG_DENY_WX=$1 LD_PRELOAD=$preload "${@:2}"; }
if ! deny exec "$bin/bg-chain" --help >/dev/null 2>&1; then
  echo "buildgate: wx_host.sh: $preload cannot be preloaded here (a sanitizer build?)" >&2
  exit 77
fi
# judge WANT_RC WANT_TEXT: "ok" when the last run ($rc, $err) exited WANT_RC and,
# if WANT_TEXT is set, its stderr is that one line (contains WANT_TEXT); else what differs.
judge() {
  if [ "$rc" != "$1" ]; then echo "exit $rc: $(printf '%s' "$err" | head -1)"; return; fi
  [ -z "$2" ] && { echo ok; return; }
  if ! grep -qF -- "$2" <<<"$err"; then echo "stderr lacks '$2': $(printf '%s' "$err" | head -1)"; return; fi
  local lines; lines=$(printf '%s\n' "$err" | grep -c .)
  [ "$lines" = 1 ] && echo ok || echo "$lines lines on stderr"
}
run() { err=$("$@" 2>&1 >"$work/out"); rc=$?; }

wx_msg="this host forbids W+X memory; the JIT cannot run"
# 1. A JIT variant: skip (77) with the cause, recorded as a skip check.
run env BG_CHECKS_FILE="$work/jit.jsonl" BG_DENY_WX=exec LD_PRELOAD="$preload" \
  "$bin/bg-digest-check" --flags jit,argon2=ref --n 64 --k 8
check jit_skip.exit ok "$(judge 77 "$wx_msg")"
check jit_skip.check 1 "$(grep -c '"verdict":"skip".*this host forbids W+X memory' "$work/jit.jsonl")"
run deny exec "$mutant" jit
check jit_skip.mutant_rejected 1 "$([ "$(judge 77 "$wx_msg")" != ok ] && echo 1 || echo 0)"

# 2. The secure JIT needs only W^X switching: skipped when that is refused too,
#    run when only simultaneous W+X is refused.
run deny exec "$bin/bg-chain" --flags jit,secure --n 2 --k 0
check secure_skip.exit ok "$(judge 77 "the secure JIT cannot run")"
run deny rwx "$bin/bg-chain" --flags jit,secure --n 2 --k 0
check secure_runs_without_rwx.exit ok "$(judge 0 "")"
run deny rwx "$bin/bg-chain" --flags jit --n 2 --k 0
check jit_skip_rwx.exit ok "$(judge 77 "$wx_msg")"

# 3. The interpreter still runs, with the digest the JIT gives elsewhere; auto picks it.
run "$bin/bg-chain" --flags jit --n 2 --k 0
ref=$(sed -n 's/.*"digest":[[:space:]]*"\([0-9a-f]*\)".*/\1/p' "$work/out")
[ "$rc" = 0 ] || ref=""  # a host without a JIT: no reference digest
run deny exec "$bin/bg-chain" --flags argon2=ref --n 2 --k 0
check interp_pass.exit ok "$(judge 0 "")"
got=$(sed -n 's/.*"digest":[[:space:]]*"\([0-9a-f]*\)".*/\1/p' "$work/out")
[ -n "$ref" ] && check interp_pass.digest "$ref" "$got"
run deny exec "$bin/bg-chain" --n 2 --k 0
check auto_interp.exit ok "$(judge 0 "")"
check auto_interp.variant 1 "$(grep -c '"variant":[[:space:]]*"interp+' "$work/out")"
run deny exec "$mutant" jit
check interp_pass.mutant_rejected 1 "$([ "$(judge 0 "")" != ok ] && echo 1 || echo 0)"

# 4. A RandomX failure no probe predicted (mprotect refused only for JIT-sized
#    regions): exit 7 and one line, in both tools; a fail check in the digest one.
run env BG_CHECKS_FILE="$work/big.jsonl" BG_DENY_WX=big LD_PRELOAD="$preload" \
  "$bin/bg-digest-check" --flags jit,argon2=ref --n 64 --k 8
check forced_failure.digest_check ok \
  "$(judge 7 "buildgate: bg-digest-check: RandomX failed: randomx_init_cache: mprotect failed")"
check forced_failure.fail_check 1 "$(grep -c '"verdict":"fail".*RandomX failed' "$work/big.jsonl")"
run deny big "$bin/bg-chain" --flags jit --n 2 --k 0
check forced_failure.bg_chain ok "$(judge 7 "buildgate: bg-chain: RandomX failed: randomx_init_cache")"
run deny big "$mutant" jit
check forced_failure.mutant_rejected 1 \
  "$([ "$(judge 7 "RandomX failed: randomx_init_cache")" != ok ] && echo 1 || echo 0)"
exit 0
