# ci/lint/record.sh — sourced by ci/lint/actionlint and ci/lint/shellcheck.
# shellcheck shell=bash
#
# lint_record NAME FINDINGS OUTPUT_FILE: with --check BG_CHECK given to the
# script (bg_check set), records the check NAME (suite ci): pass when
# FINDINGS is 0, else fail with the count and the first finding; then
# returns 0 or 1.  Without bg_check it only returns.
lint_record() {
  local name=$1 n=$2 out=$3 observed
  if [ "$n" = 0 ]; then observed="0 findings"
  else observed="$n finding(s), first: $(head -n 1 "$out")"; fi
  if [ -n "${bg_check:-}" ]; then
    "$bg_check" --suite ci --name "$name" --expect-equal "0 findings" "$observed" >/dev/null
  fi
  echo "$name: $observed"
  [ "$n" = 0 ]
}

# lint_args TOOL "$@": reads [--check BG_CHECK] into bg_check and
# [--runs-from BG_WORKFLOW_LINT] into runs_from (exit 2 on other arguments;
# -h/--help prints the calling script's header).
# shellcheck disable=SC2034  # runs_from is read by the script that sources this file
lint_args() {
  local lint_tool=$1
  shift
  bg_check="" runs_from=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --check|--runs-from)
        [ $# -ge 2 ] || { echo "buildgate: ci/lint/$lint_tool: $1: missing value (see ci/lint/$lint_tool --help)" >&2; exit 2; }
        if [ "$1" = --check ]; then bg_check=$2; else runs_from=$2; fi
        shift 2 ;;
      -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;;
      *) echo "buildgate: ci/lint/$lint_tool: unknown option '$1' (see ci/lint/$lint_tool --help)" >&2; exit 2 ;;
    esac
  done
}
