#!/usr/bin/env bash
# workflow-messages.sh — the error lines of the workflows' inline run: scripts
# name their workflow and job (CTest ci.lint.workflow_messages, label unit):
# every "buildgate: <tool>: ..." they print must have <tool> = <file>/<job>,
# e.g. "buildgate: gate.yml/agree: no gate job reported the matrix size", as
# ci/common.sh's BG_TOOL names a script by its path (ci/gate); a composite
# action's: actions/<name>.  "buildgate: gate:" or "buildgate: adopt-known:"
# read as ci/gate's or ci/adopt-known's own lines.
#
# Usage: workflow-messages.sh LINT BG_CHECK GITHUB_DIR WORK [--selftest]
#   LINT        bg-workflow-lint (its --extract-runs writes each bash/sh run:
#               script to WORK/runs/<file>.<job>.<n>.sh)
#   BG_CHECK    records the check lint.workflow_messages (suite ci)
#   GITHUB_DIR  the repository's .github folder
#   --selftest  instead, a copy of .github whose gate.yml says "buildgate:
#               gate:" again must fail the check (ci.selftest.workflow_messages)
# Exit: 0 pass, 1 a line names something else (each printed as
# <file>:<line>: ...), 2 usage, 3 I/O.
set -uo pipefail
[ $# -eq 4 ] || [ "${5:-}" = --selftest ] ||
  { echo "buildgate: workflow-messages.sh: want LINT BG_CHECK GITHUB_DIR WORK [--selftest]" >&2; exit 2; }
lint=$1 check=$2 gh=$3 work=$4
mkdir -p "$work" || exit 3
if [ "${5:-}" = --selftest ]; then
  rm -rf "$work/mutant" && mkdir -p "$work/mutant" && cp -R "$gh/workflows" "$gh/actions" "$work/mutant/" || exit 3
  sed -i.orig 's|buildgate: gate\.yml/gate:|buildgate: gate:|' "$work/mutant/workflows/gate.yml" || exit 3
  rm -f "$work/mutant/workflows/gate.yml.orig"
  if cmp -s "$gh/workflows/gate.yml" "$work/mutant/workflows/gate.yml"; then
    observed="the mutation did not apply to gate.yml (the workflow changed: update workflow-messages.sh)"
  else
    BG_CHECKS_FILE="$work/mutant.jsonl" "$0" "$lint" "$check" "$work/mutant" "$work/run" >"$work/mutant.out" 2>&1
    rc=$?
    grep -q 'gate.yml:[0-9]*: .*buildgate: gate:' "$work/mutant.out" && seen="the gate: line named" || seen="not named"
    observed="exit $rc, $seen"
  fi
  rm -f "$work/mutant.jsonl"
  exec "$check" --suite ci --name "${BG_TEST_NAME:-workflow_messages}.mutant_caught" \
    --expect-equal "exit 1, the gate: line named" "$observed"
fi
runs="$work/runs"
rm -rf "$runs" && mkdir -p "$runs" || exit 3
"$lint" --extract-runs "$runs" "$gh"/workflows/*.yml "$gh"/actions/*/action.yml >/dev/null || exit 3
bad=0 total=0 first=""
for f in "$runs"/*.sh; do
  [ -e "$f" ] || continue
  read -r _ _ src line0 < <(sed -n 2p "$f") # "# bg-workflow-lint: <file> <line of line 3>"
  b=$(basename "$f" .sh) job=${b#*.}; job=${job%.*}
  case "$b" in
    action-*) a=${b%%.*}; want="actions/${a#action-}" ;;
    *) want="$(basename "$src")/$job" ;;
  esac
  while IFS=: read -r n text; do
    total=$((total + 1))
    tool=${text#*buildgate: }; tool=${tool%%:*}
    [ "$tool" = "$want" ] && continue
    bad=$((bad + 1))
    msg="$src:$((line0 + n - 3)): buildgate: $tool: names '$tool', want '$want' (job $job)"
    echo "$msg"
    [ -n "$first" ] || first=$msg
  done < <(grep -n 'buildgate: [^ :]*:' "$f" | grep -v '^[0-9]*:[[:space:]]*#')
done
echo "workflow-messages: $total buildgate line(s), $bad naming something else"
observed="$bad of $total name something else${first:+, first: $first}"
"$check" --suite ci --name "${BG_TEST_NAME:-workflow_messages}" \
  --expect-equal "0 of $total name something else" "$observed" >/dev/null
[ "$bad" = 0 ]
