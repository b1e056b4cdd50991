#!/bin/sh
# A stand-in long step for bg-run's progress limit (lib.selftest.run_progress_*):
#   progress_step.sh <bg-check> <steps> <seconds-per-step> [stuck-after]
# Reports "<i> <steps> steps done" in $BG_PROGRESS_FILE (bg_progress.h) after
# each step; with stuck-after it stops reporting after that many steps and
# sleeps (the mutant: a step that makes no progress).  Records one pass check
# at the end; with BG_STEP_FAIL_FIRST=1 also a fail check <test>.early first.
set -u
check=$1 steps=$2 per=$3 stuck=${4:-}
if [ "${BG_STEP_FAIL_FIRST:-}" = 1 ]; then
  "$check" --suite lib --name "$BG_TEST_NAME.early" --verdict fail --expected "no early fail" \
    --observed "a fail recorded before the cap" >/dev/null  # exits 1: a fail
fi
i=0
while [ "$i" -lt "$steps" ]; do
  sleep "$per"
  i=$((i + 1))
  if [ -n "${BG_PROGRESS_FILE:-}" ]; then
    printf '%s %s steps done\n' "$i" "$steps" > "$BG_PROGRESS_FILE.tmp" &&
      mv "$BG_PROGRESS_FILE.tmp" "$BG_PROGRESS_FILE"
  fi
  if [ -n "$stuck" ] && [ "$i" -ge "$stuck" ]; then
    sleep 3600  # no progress from here on
  fi
done
exec "$check" --suite lib --name "$BG_TEST_NAME.steps" --verdict pass \
  --expected "$steps steps" --observed "$steps steps done"
