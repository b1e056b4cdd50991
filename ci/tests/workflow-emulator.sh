#!/usr/bin/env bash
# workflow-emulator.sh — bg-workflow-run keeps GitHub's runner semantics
# (docs/ci.md "Emulating the workflows"): a small workflow whose steps record
# what they saw, run by the emulator, then each fact compared with what
# GitHub Docs say the runner does:
#   - a run: without shell: is `bash -e {0}`: `false; echo` stops at false,
#     and a failing pipeline stage before a passing one does not fail
#     (no pipefail); shell: bash adds pipefail (and --noprofile --norc);
#     defaults.run.shell applies to the job's steps
#   - GITHUB_ENV NAME=VALUE and NAME<<DELIM (multi-line) reach later steps'
#     environment and env context; GITHUB_PATH is prepended to PATH;
#     GITHUB_OUTPUT reaches steps.<id>.outputs and, through the job's
#     outputs:, needs.<job>.outputs; GITHUB_STEP_SUMMARY lands in summary.md
#   - a failed step skips the next ones, `if: failure()` and `if: always()`
#     run, continue-on-error keeps the job going (outcome failure,
#     conclusion success); a job whose needs failed is skipped unless its
#     if: says otherwise (!cancelled(), failure()); a skipped need is no
#     failure
#   - a matrix of two gives two legs with strategy.job-total 2
#   - WORK/runs/<id>/ holding files without the tool's mark is refused (exit
#     6) and kept; the tool's own run folder is emptied and run again
#
# Usage: workflow-emulator.sh BG_CHECK BG_RUN WORK [--mutant]
#   --mutant  the same with `shell: bash` taken off the pipefail step: the
#             check must fail (a pipeline without pipefail passes)
# Records one check (suite ci) named after the test.  Exit: 0 pass, 1 fail,
# 2 usage, 3 I/O.
set -u
[ $# -ge 3 ] || { echo "buildgate: workflow-emulator.sh: want BG_CHECK BG_RUN WORK [--mutant]" >&2; exit 2; }
check=$1 emu=$2 work=$3
name=${BG_TEST_NAME:-ci.unit.workflow_emulator}
rm -rf "$work" && mkdir -p "$work/repo" || exit 3
work=$(cd "$work" && pwd)
repo=$work/repo wf=$work/repo/flow.yml
cat >"$wf" <<'EOF'
name: semantics
on: push
permissions:
  contents: read
jobs:
  first:
    runs-on: ubuntu-24.04
    outputs:
      word: ${{ steps.out.outputs.word }}
    steps:
      - name: no shell stops at the first failure
        continue-on-error: true
        run: |
          false
          echo "no-shell-went-on" >>"$GITHUB_STEP_SUMMARY"
      - name: no shell has no pipefail
        run: false | true
      - name: pipefail
        id: pf
        continue-on-error: true
        shell: bash
        run: false | true
      - name: record
        id: out
        run: |
          echo "pipefail-step=${{ steps.pf.outcome }}/${{ steps.pf.conclusion }}" >>"$GITHUB_STEP_SUMMARY"
          echo "word=hello" >>"$GITHUB_OUTPUT"
          echo "PLAIN=one" >>"$GITHUB_ENV"
          { echo "MULTI<<END"; echo "line 1"; echo "line 2"; echo "END"; } >>"$GITHUB_ENV"
          mkdir -p "$RUNNER_TEMP/bin" && printf '#!/bin/sh\necho from-path\n' >"$RUNNER_TEMP/bin/flowtool"
          chmod +x "$RUNNER_TEMP/bin/flowtool" && echo "$RUNNER_TEMP/bin" >>"$GITHUB_PATH"
      - name: later step
        env:
          FROM_CONTEXT: ${{ env.PLAIN }}
        run: |
          printf 'env=%s|%s|%s\n' "$PLAIN" "$(printf '%s' "$MULTI" | tr '\n' '/')" "$FROM_CONTEXT" >>"$GITHUB_STEP_SUMMARY"
          echo "path=$(flowtool)" >>"$GITHUB_STEP_SUMMARY"
      - name: fails
        run: exit 3
      - name: skipped after a failure
        run: echo "skipped-step-ran" >>"$GITHUB_STEP_SUMMARY"
      - name: failure() runs
        if: failure()
        run: echo "failure-step-ran" >>"$GITHUB_STEP_SUMMARY"
      - name: always() runs
        if: ${{ always() }}
        run: echo "always-step-ran" >>"$GITHUB_STEP_SUMMARY"
  skipped:
    needs: first
    runs-on: ubuntu-24.04
    steps:
      - run: echo "skipped-job-ran"
  after:
    needs: first
    if: ${{ !cancelled() }}
    runs-on: ubuntu-24.04
    defaults:
      run:
        shell: bash
    strategy:
      matrix:
        n: [a, b]
    steps:
      - name: needs and matrix
        env:
          WORD: ${{ needs.first.outputs.word }}
          RESULT: ${{ needs.first.result }}
        run: echo "leg=${{ matrix.n }} of ${{ strategy.job-total }} word=$WORD result=$RESULT" >>"$GITHUB_STEP_SUMMARY"
      - name: defaults.run.shell bash has pipefail
        continue-on-error: true
        id: d
        run: false | true
      - run: echo "default-shell-step=${{ steps.d.outcome }}" >>"$GITHUB_STEP_SUMMARY"
  on-failure:
    needs: first
    if: failure()
    runs-on: ubuntu-24.04
    steps:
      - run: "true"
  skipped-is-no-failure:
    needs: skipped
    if: failure()
    runs-on: ubuntu-24.04
    steps:
      - run: "true"
EOF
if [ "${4:-}" = --mutant ]; then
  # the pipefail step without shell: bash
  awk '/name: pipefail$/ {p=1} p && /shell: bash$/ {p=0; next} {print}' "$wf" >"$wf.m" && mv "$wf.m" "$wf" || exit 3
fi
git -C "$repo" init -q && git -C "$repo" add -A &&
  git -C "$repo" -c user.name=t -c user.email=t@example.invalid commit -q -m t || exit 3
"$emu" --repo "$repo" --work "$work/runner" --event push "$wf" >"$work/out" 2>&1
rc=$?
d=$work/runner/runs/1/jobs
facts() {
  printf 'exit %s; %s; first: %s; after: %s' "$rc" "$(tr '\t' '=' <"$work/runner/runs/1/jobs.tsv" | paste -s -d ' ' -)" \
    "$(paste -s -d ';' "$d/first/summary.md")" "$(cat "$d/after-1/summary.md" "$d/after-2/summary.md" | paste -s -d ';' -)"
}
observed=$(facts 2>&1)
expected="exit 1; first=failure skipped=skipped after-1=success after-2=success after=success on-failure=success skipped-is-no-failure=skipped"
expected="$expected; first: pipefail-step=failure/success;env=one|line 1/line 2|one;path=from-path;failure-step-ran;always-step-ran"
expected="$expected; after: leg=a of 2 word=hello result=failure;default-shell-step=failure;leg=b of 2 word=hello result=failure;default-shell-step=failure"
echo "expected: $expected"
echo "observed: $observed"
if [ "${4:-}" = --mutant ]; then
  if [ "$observed" = "$expected" ]; then seen="the check passes"; else seen="the check fails"; fi
  exec "$check" --suite ci --name "$name" --expect-equal "the check fails" "$seen"
fi
[ "$observed" = "$expected" ] || tail -n 40 "$work/out"
ok=0
"$check" --suite ci --name "$name" --expect-equal "$expected" "$observed" || ok=1
# WORK/runs/<id>/ holding files no run of the tool marked is the user's:
# refused in one line (exit 6), the file kept; a run folder of the tool's is
# emptied and run again (exit 1 as above)
mkdir -p "$work/runner/runs/2" && echo keep >"$work/runner/runs/2/mine.txt" || exit 3
"$emu" --repo "$repo" --work "$work/runner" --event push --run-id 2 "$wf" >"$work/out2" 2>"$work/err2"
rc2=$?
"$emu" --repo "$repo" --work "$work/runner" --event push "$wf" >/dev/null 2>&1
rc1=$?
"$check" --suite ci --name "$name.user_run_folder" \
  --expect-equal "exit 6; buildgate: bg-workflow-run: --work $work/runner: $work/runner/runs/2 holds files no bg-workflow-run wrote (no .bg-workflow-run): choose another --work or --run-id, or move them away; kept: keep; run 1 again: exit 1" \
  "exit $rc2; $(cat "$work/err2"); kept: $(cat "$work/runner/runs/2/mine.txt"); run 1 again: exit $rc1" || ok=1
exit $ok
