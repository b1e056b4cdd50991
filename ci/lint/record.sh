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

# lint_args TOOL "$@": reads [--check BG_CHECK] into bg_check (exit 2 on
# other arguments; -h/--help prints the calling script's header).
lint_args() {
  local lint_tool=$1
  shift
  bg_check=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --check) [ $# -ge 2 ] || { echo "buildgate: $lint_tool: --check needs the bg-check tool" >&2; exit 2; }
               bg_check=$2; shift 2 ;;
      -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;;
      *) echo "buildgate: $lint_tool: unknown argument '$1' (see ci/lint/$lint_tool --help)" >&2; exit 2 ;;
    esac
  done
}
