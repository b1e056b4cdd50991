#!/bin/sh
# runner_test.sh — the runner registry's user entries (BG_X86_RUNNERS) through
# bg-runner: a malformed or duplicate entry is rejected with one line and
# exit 2, a good one resolves (label unit; the lib.unit.runner_registry test).
#
# Usage: runner_test.sh BG_CHECK BG_RUNNER WORK_DIR
# One check "runner_registry.<case>" (suite lib) per case: expected vs
# observed "exit N: <first stderr line or first stdout line>" (an expected
# text ending in '*' is a prefix).
# Exit: 0 all pass, 1 a check failed, 2 usage.
set -u
[ $# -eq 3 ] || { echo "buildgate: runner_test.sh: want BG_CHECK BG_RUNNER WORK_DIR" >&2; exit 2; }
check=$1 runner=$2 work=$3
mkdir -p "$work" || exit 3
rc=0
runner_path="" # non-empty: bg-runner's PATH

# case NAME EXPECTED SPEC ARGS...: runs bg-runner ARGS with BG_X86_RUNNERS=SPEC.
case_() {
    name=$1 expected=$2 spec=$3
    shift 3
    BG_X86_RUNNERS=$spec env ${runner_path:+PATH="$runner_path"} "$runner" "$@" >"$work/out" 2>"$work/err" </dev/null
    code=$?
    lines=$(wc -l <"$work/err")
    if [ -s "$work/err" ]; then what=$(head -n 1 "$work/err"); else what=$(head -n 1 "$work/out"); fi
    [ "$lines" -le 1 ] || what="$what (and $((lines - 1)) more stderr lines)"
    observed="exit $code: $what"
    # an expected text ending in '*' is a prefix
    case "$expected" in
        *'*') case "$observed" in "${expected%?}"*) observed=$expected ;; esac ;;
    esac
    "$check" --suite lib --name "runner_registry.$name" --expect-equal "$expected" "$observed" || rc=1
}

p="buildgate: bg-runner: BG_X86_RUNNERS entry"
case_ no_equals "exit 2: $p 'foo': want name=command" "foo" --list
case_ bad_name "exit 2: $p 'Foo': the name must be 1-31 of [a-z0-9_-]" "Foo=true" --list
case_ builtin_name "exit 2: $p 'valgrind': the name is already taken (a built-in runner or an earlier entry)" \
      "valgrind=true" --list
case_ duplicate "exit 2: $p 'a': the name is already taken (a built-in runner or an earlier entry)" \
      "a=true;a=false" --resolve native
case_ empty_command "exit 2: $p 'a': empty command" "a=  " --list
case_ open_quote "exit 2: $p 'a': an unterminated quote or more than 16 words" "a=sh -c 'x" --list
case_ quoted "exit 0: command: sh -c exit 0 --" "a=sh -c 'exit 0' --;" --resolve a
case_ missing "exit 77: buildgate: bg-runner: runner 'gone' (BG_X86_RUNNERS) command '/nonexistent/x' not found or not executable" \
      "gone=/nonexistent/x" --resolve gone
case_ unknown "exit 2: buildgate: bg-runner: unknown runner 'nosuch': known are native, *" \
      "" --resolve nosuch
case_ wrong_guest "exit 77: buildgate: bg-runner: runner 'qemu-aarch64' runs arm64 programs, not x86-64" \
      "" --resolve qemu-aarch64 --guest x86_64
# a second-version row whose program under {dir} is missing: the skip reason
# names the command that fetches it (x86-64 hosts; elsewhere the host rule wins)
if [ "$(uname -m)" = x86_64 ]; then
    export BG_RUNNER_DIR=/nonexistent
    case_ trixie_missing "exit 77: buildgate: bg-runner: runner 'valgrind-trixie' is not installed: '/nonexistent/trixie/usr/bin/valgrind' not found (install it: ci/provision --trixie-runners)" \
          "" --resolve valgrind-trixie
    unset BG_RUNNER_DIR
fi
# a runner missing from PATH: the skip reason names the command that installs it
# (the registry's install column), or says that ci/provision does not
runner_path=/nonexistent
case_ path_missing "exit 77: buildgate: bg-runner: runner 'qemu-x86_64' is not installed: 'qemu-x86_64' not found in PATH (install it: ci/provision)" \
      "" --resolve qemu-x86_64
case_ path_missing_not_ours "exit 77: buildgate: bg-runner: runner 'box64' is not installed: 'box64' not found in PATH (ci/provision does not install it: install box64 yourself)" \
      "" --resolve box64
runner_path=""
# box64's version (issue 23, box64 #1571): fake-box64/box64 writes log lines
# before its version line, as box64 with BOX64_LOG >= 1 does, unless the row's
# env quiets it (BOX64_LOG=0 BOX64_NOBANNER=1): its version is the "Box64 ...
# v0.3.2" line (main took the first log line: version 4096); with
# FAKE_BOX64_RC=1 (a ~/.box64rc, which outranks the env) it logs anyway and is
# refused in one line, exit 4, quoting that line (main: exit 0, that version)
fake=$(cd "$(dirname "$0")/fake-box64" && pwd)
runner_path=$fake
BG_X86_RUNNERS='' env PATH="$runner_path" "$runner" --resolve box64 >"$work/out" 2>"$work/err" </dev/null
"$check" --suite lib --name runner_registry.box64_quiet --expect-equal \
    "exit 0: version: Box64 arm64 v0.3.2 1234abcd with Dynarec built on Dec  1 2026 10:00:00" \
    "exit $?: $(grep '^version: ' "$work/out")$(head -n 1 "$work/err")" || rc=1
FAKE_BOX64_RC=1; export FAKE_BOX64_RC
case_ box64_log_first "exit 4: buildgate: bg-runner: runner 'box64': its version command ('$fake/box64 --version') printed no version number on its first line: '[BOX64] PageSize:4096 Running on Cortex-A72 with 4 Cores' (56 bytes; 3 lines, 200 bytes in all from stdout): a runner that logs first needs its quiet setting in the row's env" \
      "" --resolve box64
unset FAKE_BOX64_RC
runner_path=""
# valgrind-trixie runs with the valgrind row's arguments (when both resolve here)
args_of() { "$runner" --resolve "$1" 2>/dev/null | sed -n 's/^command: [^ ]* *//p'; }
if [ -n "$(args_of valgrind)" ] && [ -n "$(args_of valgrind-trixie)" ]; then
    "$check" --suite lib --name runner_registry.trixie_args --expect-equal \
        "$(args_of valgrind)" "$(args_of valgrind-trixie)" || rc=1
fi
exit $rc
