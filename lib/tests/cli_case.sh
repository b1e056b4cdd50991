#!/bin/sh
# cli_case.sh — one command-line edge case: the exact exit code and the exact
# one stderr line a tool must give (the toolsux self-tests of issue 12 §4/§6).
#
# Usage: cli_case.sh BG_CHECK SUITE NAME WANT_EXIT WANT_LINE [ENV=value...] -- CMD [ARGS...]
#   BG_CHECK   the bg-check tool (records the check in $BG_CHECKS_FILE)
#   NAME       the check's name (e.g. digest.selftest.chain_k0)
#   WANT_EXIT  the exit code CMD must give
#   WANT_LINE  the whole of CMD's stderr, which must be this one line; a
#              WANT_LINE ending in "..." only has to start the line
#   ENV=value  set for CMD only (e.g. BG_X86_RUNNERS=x=y, BG_CHECKS_FILE=)
#              ("BG_CHECKS_FILE=" unsets it for CMD)
# CMD runs with stdin from /dev/null; its stdout is dropped.  The check's
# expected "exit W: LINE (1 stderr line)" is compared with what CMD did.
# Exit: 0 as expected, 1 not (bg-check's), 2 usage.
set -u
[ $# -ge 7 ] || { echo "buildgate: cli_case.sh: want BG_CHECK SUITE NAME WANT_EXIT WANT_LINE -- CMD..." >&2; exit 2; }
check=$1 suite=$2 name=$3 want_exit=$4 want_line=$5
shift 5
# Our own checks file, before CMD's environment may change it.
outer=${BG_CHECKS_FILE:-}
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
        BG_CHECKS_FILE=) unset BG_CHECKS_FILE ;;
        *=*) export "${1?}" ;;
        *) echo "buildgate: cli_case.sh: '$1' is not ENV=value or --" >&2; exit 2 ;;
    esac
    shift
done
[ "${1:-}" = "--" ] && [ $# -ge 2 ] || { echo "buildgate: cli_case.sh: no command after --" >&2; exit 2; }
shift
err=$(mktemp) || exit 3
"$@" </dev/null >/dev/null 2>"$err"
rc=$?
lines=$(grep -c '' "$err")
got=$(head -n 1 "$err")
rm -f "$err"
case $want_line in
    *...) prefix=${want_line%...}
          case $got in "$prefix"*) got=$want_line ;; esac ;;
esac
BG_CHECKS_FILE=$outer "$check" --suite "$suite" --name "$name" --expect-equal \
    "exit $want_exit: $want_line (1 stderr line)" "exit $rc: $got ($lines stderr line$( [ "$lines" = 1 ] || echo s))"
