#!/bin/sh
# report_html_test.sh — bg-report's pages on a real-size run: report.html is
# self-contained and renders without errors in headless Chromium, and a PASS
# report.md fits in 150 lines before its first <details> (lib.unit.report_html).
#
# Usage: report_html_test.sh BG_REPORT BG_CHECK DATA_DIR WORK_DIR [--mutate KIND]
#   BG_REPORT  the bg-report tool
#   BG_CHECK   the bg-check tool, which records each check in $BG_CHECKS_FILE
#   DATA_DIR   a checks dir of a real PASS run (lib/tests/data/report-pass)
#   WORK_DIR   scratch folder (created; its out/ holds the pages)
#   --mutate KIND  self-test (label selftest): spoil the page or the report
#              before checking, then run this script on it with a private
#              checks file and record pass only when that run fails on the
#              check KIND is for:
#                external  an <img src="https://…"> in report.html -> report_html.self_contained
#                script    a script that throws and calls console.error -> report_html.renders
#                lines     200 lines before report.md's first <details> -> report_md.pass_lines
# Checks (suite lib):
#   report_html.self_contained  no reference that would load anything: no
#       src/href/action/poster/srcset/data/xlink:href naming a URL with a
#       scheme or //, no <link>, <script src>, <iframe>, <object>, <embed>,
#       CSS url() or @import
#   report_html.renders  Chromium (chromium, chromium-browser, google-chrome
#       or $BG_CHROMIUM) loads the page with an error trap injected first in
#       <head>: no uncaught error, no console.error, no failed or attempted
#       resource load (Resource Timing entries = 0); skip when no Chromium
#   report_md.pass_lines  report.md has at most 150 lines before its first <details>
# Exit: 0 all pass, 1 a check failed, 2 usage, 3 I/O (as bg-check).
set -u
[ $# -ge 4 ] || { echo "buildgate: report_html_test.sh: want BG_REPORT BG_CHECK DATA_DIR WORK_DIR [--mutate KIND]" >&2; exit 2; }
report=$1 check=$2 data=$3 work=$4
shift 4
mutate=
if [ "${1:-}" = "--mutate" ]; then
    case "${2:-}" in
        external|script|lines) mutate=$2 ;;
        *) echo "buildgate: report_html_test.sh: --mutate takes external, script or lines" >&2; exit 2 ;;
    esac
fi
mkdir -p "$work" || exit 3
here=$(cd "$(dirname "$0")" && pwd)

if [ -n "$mutate" ]; then
    # Run the real checks on a spoiled page with a private checks file: the
    # check the mutant is for must fail, and the run with it.
    case $mutate in
        external) name=report_html.self_contained ;;
        script) name=report_html.renders ;;
        lines) name=report_md.pass_lines ;;
    esac
    rm -f "$work/inner.jsonl"
    BG_CHECKS_FILE="$work/inner.jsonl" BG_REPORT_TEST_SPOIL=$mutate \
        sh "$0" "$report" "$check" "$data" "$work/inner" >"$work/inner.log" 2>&1
    inner_rc=$?
    verdict=$(grep -F "\"name\":\"$name\"" "$work/inner.jsonl" | sed -n 's/.*"verdict":"\([a-z]*\)".*/\1/p')
    if [ "$mutate" = script ] && [ "$verdict" = skip ]; then
        "$check" --suite lib --name "report_html.selftest.$mutate" --verdict skip \
            --expected "$name fails on the mutant" --observed "no Chromium on this host"
        exit 77
    fi
    "$check" --suite lib --name "report_html.selftest.$mutate" --expect-equal \
        "exit 1; $name fail" "exit $inner_rc; $name ${verdict:-missing}"
    exit $?
fi

out="$work/out"
rm -rf "$out"
"$report" --checks-dir "$data" --out-dir "$out" --baselines "$work/no-baselines" >"$work/report.log" 2>&1
report_rc=$?
page="$out/report.html" md="$out/report.md"
if ! [ -f "$page" ] || ! [ -f "$md" ]; then
    "$check" --suite lib --name report_html.written --verdict fail --expected "report.md and report.html" \
        --observed "bg-report exit $report_rc: $(head -c 300 "$work/report.log")"
    exit 1
fi
case ${BG_REPORT_TEST_SPOIL:-} in
    external) sed 's#</body>#<img alt="" src="https://example.invalid/x.png"></body>#' "$page" >"$page.x" && mv "$page.x" "$page" ;;
    script) sed 's#</body>#<script>console.error("spoiled");bg_no_such_function();</script></body>#' "$page" >"$page.x" && mv "$page.x" "$page" ;;
    lines) { seq 1 200; cat "$md"; } >"$md.x" && mv "$md.x" "$md" ;;
esac
rc=0

# 1. nothing in the page would load anything
refs=$(grep -Eio "(src|href|action|poster|srcset|data|xlink:href)[[:space:]]*=[[:space:]]*[\"']?[[:space:]]*([a-z][a-z0-9+.-]*:|//)[^\"' >]*|<link[^>]*>|<script[^>]*src[^>]*>|<(iframe|object|embed)[^>]*>|url\([^)]*\)|@import[^;]*" "$page" | head -n 3 | tr '\n' ' ')
"$check" --suite lib --name report_html.self_contained --expect-equal "no external reference" \
    "${refs:-no external reference}" || rc=1

# 2. renders in headless Chromium without errors
chromium=${BG_CHROMIUM:-}
if [ -z "$chromium" ]; then
    for c in chromium chromium-browser google-chrome; do
        command -v "$c" >/dev/null 2>&1 && { chromium=$c; break; }
    done
fi
if [ -z "$chromium" ]; then
    "$check" --suite lib --name report_html.renders --verdict skip --expected "no error in Chromium" \
        --observed "no Chromium on PATH (chromium, chromium-browser, google-chrome) and no BG_CHROMIUM: ci/provision takes one on PATH, else installs Debian's chromium; Ubuntu has Chromium only as a snap, which ci/provision does not install (GitHub's ubuntu-24.04-arm image has none)"
else
    # the trap goes first in <head>, before anything of the page runs
    awk -v trapfile="$here/report_html_trap.html" '
        BEGIN { while ((getline l < trapfile) > 0) trap = trap l "\n"; done = 0 }
        { if (!done) { i = index($0, "<head>"); if (i) { $0 = substr($0, 1, i + 5) trap substr($0, i + 6); done = 1 } } print }
    ' "$page" >"$work/trapped.html"
    profile=$(mktemp -d "${TMPDIR:-/tmp}/bg-chromium.XXXXXX")
    limit=
    command -v timeout >/dev/null 2>&1 && limit="timeout 120"   # not on stock macOS
    $limit "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --virtual-time-budget=5000 --dump-dom \
        "file://$(cd "$work" && pwd)/trapped.html" >"$work/dom.html" 2>"$work/chromium.log"
    crc=$?
    rm -rf "$profile"
    root=$(grep -o '<html[^>]*>' "$work/dom.html" | head -n 1 | sed 's/&quot;/"/g')
    errors=$(printf '%s' "$root" | sed -n 's/.*data-bg-errors="\(.*\)".*/\1/p' | sed 's/" data-bg-.*//')
    resources=$(printf '%s' "$root" | sed -n 's/.*data-bg-resources="\([0-9]*\)".*/\1/p')
    loaded=$(printf '%s' "$root" | sed -n 's/.*data-bg-loaded="\([0-9]*\)".*/\1/p')
    "$check" --suite lib --name report_html.renders --expect-equal \
        "chromium exit 0; loaded 1; resources 0; errors []" \
        "chromium exit $crc; loaded ${loaded:-no}; resources ${resources:-?}; errors ${errors:-[]}" || rc=1
fi

# 3. a PASS report.md leads with at most 150 lines before its first <details>
lines=$(awk '/^<details/ { exit } { n++ } END { print n + 0 }' "$md")
verdict=$(head -n 1 "$md")
if [ "$verdict" = "# buildgate report: PASS ✅" ] && [ "$lines" -le 150 ]; then v=pass; else v=fail; fi
"$check" --suite lib --name report_md.pass_lines --verdict $v \
    --expected "a PASS report, at most 150 lines before the first <details>" \
    --observed "$verdict; $lines lines before the first <details>" || rc=1
exit $rc
