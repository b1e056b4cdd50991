#!/bin/sh
# selftest.sh — proves a rule of bg-workflow-lint can fail (CTest
# ci.selftest.security.<rule>, label selftest): a real workflow of .github/,
# mutated by sed in the smallest way that breaks RULE, must make
# bg-workflow-lint exit 1 with a finding of RULE.
#
# Usage: selftest.sh LINT BG_CHECK GITHUB_DIR WORK_DIR RULE
#   LINT        the bg-workflow-lint tool
#   BG_CHECK    the bg-check tool, which records the check selftest.security.RULE
#   GITHUB_DIR  the repository's .github folder (the workflows to mutate)
#   WORK_DIR    scratch folder (created): the mutant and the lint's output
#   RULE        permissions, pinned, pull-request-target, run-expressions,
#               fork-secrets, comment-workflow-run or comment-concurrency; or
#               fork-secrets-history (the nightly history job's if: widened to
#               every event: its github.token must then be a fork-secrets finding)
# Records pass only when the mutation applied (the copy differs from the
# original), LINT exited 1 and printed "<file>:<line>: RULE: ...".
# Exit: 0 pass, 1 the check failed, 2 usage, 3 I/O.
set -u
[ $# -eq 5 ] || { echo "buildgate: selftest.sh: want LINT BG_CHECK GITHUB_DIR WORK_DIR RULE" >&2; exit 2; }
lint=$1 check=$2 gh=$3 work=$4 rule=$5 case_name=$5
mkdir -p "$work" || exit 3

# The mutations, one per rule: the workflow and the sed script.
case "$rule" in
  permissions)          wf=gate.yml; script='s/^  contents: read$/  contents: write/' ;;
  pinned)               wf=gate.yml; script='s|actions/checkout@[0-9a-f]\{40\} # v[0-9.]*|actions/checkout@v7|' ;;
  pull-request-target)  wf=gate.yml; script='s/^  pull_request:$/  pull_request_target:/
/fetch-depth: 0/a\
          ref: ${{ github.event.pull_request.head.sha }}' ;;
  run-expressions)      wf=gate.yml; script='s/"\$BASE_SHA" HEAD/${{ github.event.pull_request.base.sha }} HEAD/' ;;
  fork-secrets)         wf=gate.yml; script='/EVENT: \${{ github.event_name }}/a\
          TOKEN: ${{ secrets.GITHUB_TOKEN }}' ;;
  fork-secrets-history) wf=gate.yml; rule=fork-secrets   # the nightly job's if: widened to every event
                        script="s/if: \${{ !cancelled() \&\& github.event_name == 'schedule' }}/if: \${{ !cancelled() }}/" ;;
  comment-workflow-run) wf=pr-comment.yml; script='s/^  workflow_run:$/  pull_request:/' ;;
  comment-concurrency)  wf=pr-comment.yml; script='/^concurrency:$/,/^$/d' ;;
  *) echo "buildgate: selftest.sh: unknown rule '$rule'" >&2; exit 2 ;;
esac

mutant="$work/$wf"
sed "$script" "$gh/workflows/$wf" >"$mutant" || exit 3
if cmp -s "$gh/workflows/$wf" "$mutant"; then
  observed="the mutation did not apply to $wf (the workflow changed: update selftest.sh)"
else
  BG_CHECKS_FILE="$work/mutant-checks.jsonl" "$lint" "$mutant" >"$work/lint.out" 2>&1
  rc=$?
  finding=$(grep -m 1 ":[0-9]*: $rule: " "$work/lint.out")
  if [ -n "$finding" ]; then seen="finding $rule"; else seen="no $rule finding"; fi
  observed="exit $rc, $seen"
  echo "mutant: $mutant"
  echo "lint: ${finding:-(no $rule finding; lint output in $work/lint.out)}"
fi
"$check" --suite ci --name "selftest.security.${case_name:-$rule}" --expect-equal "exit 1, finding $rule" "$observed"
