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
#                wrap      overflow-wrap:anywhere in a cell rule -> report_html.no_midword_break
#                plural    a "1 checks" summary -> report_html.plurals
#                axis      a band drawn past the last tick -> report_html.axis_covers
#                blank     an empty matrix cell -> report_html.no_blank_cell
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
#   report_html.no_midword_break  no CSS rule breaks anywhere inside a word
#       (overflow-wrap:anywhere, word-break:break-all), and the matrix headers
#       that are names with '_' offer <wbr> after it (after_<wbr>handler)
#   report_html.plurals  no "1 checks" / "1 benchmarks" / "1 tests"
#   report_html.axis_covers  in the perf chart every band (rect) and interval
#       (bar) lies between the outermost tick lines (the axis it is read on)
#   report_html.no_blank_cell  no matrix cell is empty: one without a check says so
# Exit: 0 all pass, 1 a check failed, 2 usage, 3 I/O (as bg-check).
set -u
[ $# -ge 4 ] || { echo "buildgate: report_html_test.sh: want BG_REPORT BG_CHECK DATA_DIR WORK_DIR [--mutate KIND]" >&2; exit 2; }
report=$1 check=$2 data=$3 work=$4
shift 4
mutate=
if [ "${1:-}" = "--mutate" ]; then
    case "${2:-}" in
        external|script|lines|wrap|plural|axis|blank) mutate=$2 ;;
        *) echo "buildgate: report_html_test.sh: --mutate takes external, script, lines, wrap, plural, axis or blank" >&2; exit 2 ;;
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
        wrap) name=report_html.no_midword_break ;;
        plural) name=report_html.plurals ;;
        axis) name=report_html.axis_covers ;;
        blank) name=report_html.no_blank_cell ;;
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
    wrap) sed 's#</style>#.mx td{overflow-wrap:anywhere}</style>#' "$page" >"$page.x" && mv "$page.x" "$page" ;;
    plural) sed 's#</body>#<p>1 checks</p></body>#' "$page" >"$page.x" && mv "$page.x" "$page" ;;
    axis) sed 's#fill="\#dafbe1"/>#fill="\#dafbe1"/><rect x="990" y="0" width="5" height="5" fill="\#dafbe1"/>#' "$page" >"$page.x" && mv "$page.x" "$page" ;;
    blank) sed 's#</tr>#<td></td></tr>#' "$page" >"$page.x" && mv "$page.x" "$page" ;;
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

# 3. reviewer quality (issue 25 item 5): no mid-word wraps, plurals, the perf
#    axis covers what it draws, no blank matrix cell
anywhere=$(grep -Eo 'overflow-wrap: *anywhere|word-break: *break-all' "$page" | head -n 1)
unbroken=$(grep -Eo '<th>[a-z0-9]+_[a-z0-9_]*</th>' "$page" | head -n 1)
"$check" --suite lib --name report_html.no_midword_break --expect-equal \
    "no break-anywhere rule; <wbr> after _ in headers" \
    "${anywhere:-no break-anywhere rule}; ${unbroken:-<wbr> after _ in headers}" || rc=1
plurals=$(grep -Eo '(^|[^0-9.])1 (checks|benchmarks|tests)([^a-z]|$)' "$page" | head -n 3 | tr '\n' ' ')
"$check" --suite lib --name report_html.plurals --expect-equal "no \"1 checks\"" \
    "${plurals:-no \"1 checks\"}" || rc=1
axis=$(awk '/aria-label="perf ratios with intervals"/ { on = 1 } on { print } on && /<\/svg>/ { exit }' "$page" |
  awk '
    function attr(s, a,   t) { if (!match(s, a "=\"[-0-9.]+\"")) return ""; t = substr(s, RSTART + length(a) + 2, RLENGTH - length(a) - 3); return t + 0 }
    { n = split($0, el, "<") }
    { for (i = 2; i <= n; i++) {
        e = el[i]
        if (e ~ /^line / && e ~ /stroke="#d0d7de"/) { x = attr(e, "x1"); if (nt++ == 0 || x < tmin) tmin = x; if (nt == 1 || x > tmax) tmax = x }
        else if (e ~ /^rect / && e ~ /fill="#dafbe1"/) { x = attr(e, "x"); w = attr(e, "width"); d[++nd] = x; d[++nd] = x + w; what[nd - 1] = "band"; what[nd] = "band" }
        else if (e ~ /^line / && e ~ /stroke-width="3"/) { d[++nd] = attr(e, "x1"); what[nd] = "interval"; d[++nd] = attr(e, "x2"); what[nd] = "interval" }
      } }
    END {
      if (nt == 0) { print "no perf chart"; exit }
      for (i = 1; i <= nd; i++) if (d[i] < tmin - 0.1 || d[i] > tmax + 0.1) { out = out what[i] " at x=" d[i] " outside the ticks [" tmin ", " tmax "]; "; bad++ }
      if (bad) print bad " drawn outside the axis: " substr(out, 1, 200); else print "every band and interval inside the axis"
    }')
"$check" --suite lib --name report_html.axis_covers --expect-equal \
    "every band and interval inside the axis" "$axis" || rc=1
blank=$(grep -c '<td></td>' "$page")
"$check" --suite lib --name report_html.no_blank_cell --expect-equal "0 empty cells" "$blank empty cells" || rc=1

# 4. a PASS report.md leads with at most 150 lines before its first <details>
lines=$(awk '/^<details/ { exit } { n++ } END { print n + 0 }' "$md")
verdict=$(head -n 1 "$md")
if [ "$verdict" = "# buildgate report: PASS ✅" ] && [ "$lines" -le 150 ]; then v=pass; else v=fail; fi
"$check" --suite lib --name report_md.pass_lines --verdict $v \
    --expected "a PASS report, at most 150 lines before the first <details>" \
    --observed "$verdict; $lines lines before the first <details>" || rc=1
exit $rc
