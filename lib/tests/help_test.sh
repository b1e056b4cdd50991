#!/bin/sh
# help_test.sh — every user-facing CLI answers -h/--help and still refuses a
# bad option in one line (label unit; the lib.unit.help_cli test).
#
# Usage: help_test.sh BG_CHECK WORK_DIR [--selftest] [NAME=PATH[|MODE]]...
#   BG_CHECK  the bg-check tool, which records each check in $BG_CHECKS_FILE
#   WORK_DIR  scratch folder for captured output (created)
#   NAME=PATH one tool: NAME names its check, PATH runs it; "|MODE" puts a
#             first word before the options (bg-perf compare --help).  Empty
#             arguments (tools not built on this host) are ignored.
#   --selftest  instead of the tools, run this script on a mutant that has no
#             --help (it refuses every argument, as bg-perf did) and record
#             pass only when that run fails and its check shows the mutant's
#             "--help: exit 2, stdout lacks Usage" (label selftest).
# Per tool, one check "help_cli.<NAME>" (suite lib) with expected vs observed:
#   PATH [MODE] --help and -h  -> exit 0, stdout contains "Usage", stderr empty
#   PATH [MODE] --no-such-option -> exit 2, exactly one stderr line starting
#                                   "buildgate: " and saying "unknown option"
#                                   (not "missing value": the option is unknown)
# Exit: 0 all pass, 1 a check failed, 2 usage (as bg-check).
set -u
[ $# -ge 2 ] || { echo "buildgate: help_test.sh: want BG_CHECK WORK_DIR [NAME=PATH]..." >&2; exit 2; }
check=$1 work=$2
shift 2
mkdir -p "$work" || exit 3

# probe_help PATH MODE: one line describing what PATH does with -h/--help.
probe_help() {
    for opt in --help -h; do
        # shellcheck disable=SC2086  # MODE is one word or nothing
        "$1" $2 "$opt" >"$work/out" 2>"$work/err" </dev/null
        rc=$?
        if grep -q Usage "$work/out"; then usage="stdout has Usage"; else usage="stdout lacks Usage"; fi
        printf '%s: exit %s, %s, stderr %s bytes; ' "$opt" "$rc" "$usage" "$(wc -c <"$work/err" | tr -d ' ')"
    done
}

# probe_bad PATH MODE: one line describing how PATH refuses an unknown option.
probe_bad() {
    # shellcheck disable=SC2086
    "$1" $2 --no-such-option >"$work/out" 2>"$work/err" </dev/null
    rc=$?
    if head -n 1 "$work/err" | grep -q '^buildgate: '; then pre="starting 'buildgate: '"; else pre="not starting 'buildgate: '"; fi
    if head -n 1 "$work/err" | grep -q 'unknown option'; then says="saying 'unknown option'"; else says="not saying 'unknown option'"; fi
    printf -- "--no-such-option: exit %s, %s stderr lines %s %s" "$rc" "$(wc -l <"$work/err" | tr -d ' ')" "$pre" "$says"
}

good_help="--help: exit 0, stdout has Usage, stderr 0 bytes; -h: exit 0, stdout has Usage, stderr 0 bytes; "
good_bad="--no-such-option: exit 2, 1 stderr lines starting 'buildgate: ' saying 'unknown option'"

if [ "${1:-}" = "--selftest" ]; then
    # The mutant: a tool whose --help was removed, refusing every argument as
    # bg-perf used to ("unknown mode '--help'"), exit 2.  This script, run on
    # it alone with a private checks file, must exit 1 and record a fail that
    # shows what the mutant did.
    mutant="$work/mutant"
    cat >"$mutant" <<'MUTANT'
#!/bin/sh
echo "buildgate: mutant: unknown mode '$1'" >&2
exit 2
MUTANT
    chmod +x "$mutant"
    rm -f "$work/inner.jsonl"
    BG_CHECKS_FILE="$work/inner.jsonl" sh "$0" "$check" "$work/inner" "mutant=$mutant" >/dev/null
    inner_rc=$?
    verdict=$(sed -n 's/.*"verdict":"\([a-z]*\)".*/\1/p' "$work/inner.jsonl")
    seen=$(grep -o -- '"observed":"--help: exit [0-9]*, stdout [a-z]* Usage' "$work/inner.jsonl" | cut -c13-)
    "$check" --suite lib --name help_cli.selftest.no_help --expect-equal \
        "exit 1; help_cli.mutant fail; --help: exit 2, stdout lacks Usage" \
        "exit $inner_rc; help_cli.mutant $verdict; $seen"
    exit $?
fi

rc=0
for entry in "$@"; do
    [ -n "$entry" ] || continue
    name=${entry%%=*} rest=${entry#*=}
    path=${rest%%|*} mode=
    [ "$path" = "$rest" ] || mode=${rest#*|}
    observed="$(probe_help "$path" "$mode")$(probe_bad "$path" "$mode")"
    "$check" --suite lib --name "help_cli.$name" --expect-equal "$good_help$good_bad" "$observed" || rc=1
done
exit $rc
