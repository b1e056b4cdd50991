# bg_cli.sh — the shell scripts' command-line conventions, in one place
# (sourced, not run): how a script names itself in its error lines, and the
# lib's one-line refusals (lib/src/bg_help.c: bg_help_missing_value,
# bg_help_bad_value), exit 2.  Read by ci/common.sh (every ci/ script), the
# perf studies (suites/perf_budgets/study/study-lib.sh) and
# suites/perf_budgets/gate/ab-merge-base.sh.
#
#   BG_ROOT  the repository root (this file is lib/sh/bg_cli.sh)
#   BG_TOOL  the script's path from the root as the user types it
#            (ci/gate, suites/perf_budgets/study/study.sh); a script run from
#            outside the tree: $BG_TOOL_OUTSIDE if set, else its file name
#   bg_die "<what>: <why>"       buildgate: <tool>: <what>: <why> (see <tool> --help), exit 2
#   bg_need_value <opt> <args> <value> [<hint>]   <opt> with fewer than 2 arguments
#                                left (itself and its value), an empty value, or a
#                                value that is another option (--...: "--approve
#                                --no-build" must not take --no-build as the reason):
#                                "<opt>: missing value" (with " (<hint>)", e.g. "e.g.
#                                digest", when given), exit 2
# shellcheck shell=bash

BG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BG_TOOL="$(cd "$(dirname "$0")" 2>/dev/null && pwd)/$(basename "$0")"
case "$BG_TOOL" in
  "$BG_ROOT"/*) BG_TOOL=${BG_TOOL#"$BG_ROOT"/} ;;
  *) BG_TOOL=${BG_TOOL_OUTSIDE:-$(basename "$0")} ;;
esac

bg_die() {
  echo "buildgate: $BG_TOOL: $1 (see $BG_TOOL --help)" >&2
  exit 2
}

bg_need_value() {
  { [ "$2" -ge 2 ] && [ -n "${3-}" ]; } || bg_die "$1: missing value${4:+ ($4)}"
  case "${3-}" in
    --*) bg_die "$1: missing value ('$3' is the next option)" ;;
  esac
}
