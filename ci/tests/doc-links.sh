#!/bin/sh
# doc-links.sh — every reference from the documentation (and from code comments)
# to a page of docs/ resolves (label unit; issue 25 item 6).
#
# Usage: doc-links.sh BG_CHECK REPO WORK [--selftest]
#   REPO   the source tree; its README.md and docs/*.md are read, and the files
#          under ci/ cmake/ lib/ suites/ for section references
#   WORK   a scratch folder (only --selftest writes to it)
# What is checked:
#   - a Markdown link [text](path), [text](path#anchor) or [text](#anchor) in
#     README.md or docs/*.md (outside ``` fences, not http:, https:, mailto:):
#     path relative to the page's folder must exist; an anchor must be the
#     GitHub slug of a heading of the target .md page;
#   - a page named anywhere in those files, docs/<page>.md or docs/<file>.json:
#     it exists;
#   - a section reference `docs/<page>.md "<Section>"` (also `, "<Section>"`
#     and `\"<Section>\"` inside a string) anywhere in those pages and in the
#     files under ci/ cmake/ lib/ suites/: the page must exist and have a
#     heading whose text (backquotes dropped) is <Section> or starts with
#     <Section> followed by " ", ":" or "(".
# Checks (suite ci): <test>.<page> for README.md and each page of docs/, and
# <test>.code for the files under ci/ cmake/ lib/ suites/: "all N references
# resolve" vs the broken ones, each "file:line: reference: why" (also printed).
# --selftest: the same scan of a copy of README.md and docs/ with a missing page,
# a missing section and a missing anchor planted into README.md; passes (check
# <test>.mutant_caught) only when the scan fails naming exactly those three.
# Exit: 0 all resolve, 1 a reference is broken, 2 usage, 3 I/O.
set -u
case "$#:${4:-}" in
  3:|4:--selftest) ;;
  *) echo "buildgate: doc-links.sh: want BG_CHECK REPO WORK [--selftest]" >&2; exit 2 ;;
esac
check=$1 repo=$2 work=$3
case $check in */*) [ "${check#/}" != "$check" ] || check=$PWD/$check ;; esac  # the scan runs in REPO
n=${BG_TEST_NAME:-doc_links}
if [ ! -f "$repo/README.md" ] || [ ! -d "$repo/docs" ]; then
  echo "buildgate: doc-links.sh: $repo: no README.md and docs/ there" >&2; exit 3
fi

if [ "${4:-}" = --selftest ]; then
  mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 3
  rm -rf "$work/copy" && mkdir -p "$work/copy/docs" || exit 3
  cp "$repo/README.md" "$work/copy/" && cp "$repo"/docs/*.md "$work/copy/docs/" || exit 3
  { echo
    echo 'Planted: [a missing page](docs/no-such-page.md),'
    q='"'  # not written out here: this script's own comments are not scanned, but keep it plain
    echo "a missing section (docs/ci.md ${q}No Such Section${q}),"
    echo 'a missing anchor [x](docs/ci.md#no-such-anchor).'
  } >>"$work/copy/README.md" || exit 3
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant sh "$0" "$check" "$work/copy" "$work" \
    >"$work/mutant.out" 2>&1
  rc=$?
  broken=$(grep -c '^README.md:[0-9]*: ' "$work/mutant.out")
  got="exit $rc, $broken broken in README.md"
  for want in 'docs/no-such-page.md: no such file' 'docs/ci.md "No Such Section": no such heading' \
              'docs/ci.md#no-such-anchor: no such heading'; do
    grep -q "$want" "$work/mutant.out" || got="$got, not named: $want"
  done
  "$check" --suite ci --name "$n.mutant_caught" --expect-equal "exit 1, 3 broken in README.md" "$got"
  exit $?
fi

mkdir -p "$work" && work=$(cd "$work" && pwd) && cd "$repo" || exit 3
# the code files that may name a page of docs/ or cite a section of it
code=$(grep -rlE 'docs/[A-Za-z0-9_-]+\.(md|json)|[A-Za-z0-9_.-]+\.md`?,? \\?"' ci cmake lib suites 2>/dev/null | grep -v '/doc-links\.sh$' | sort)
# shellcheck disable=SC2086  # $code: one path per word (the repository's paths have no spaces)
awk -v codefiles="$code" '
function slug(s) {  # the GitHub anchor of a heading
  s = tolower(s)
  gsub(/[!-,.\/:-@[-^`{-~]/, "", s)
  gsub(/ /, "-", s)
  return s
}
function norm(s) { gsub(/`/, "", s); sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
function exists(p) {  # once per path: a process each
  if (!(p in seen)) seen[p] = (system("test -e \"" p "\"") == 0)
  return seen[p]
}
function dirof(f) { return (f ~ /\//) ? substr(f, 1, match(f, /\/[^\/]*$/) - 1) "/" : "" }
function clean(p,   out, n, i, a, k) {  # a/b/../c -> a/c
  n = split(p, a, "/"); k = 0
  for (i = 1; i <= n; i++) {
    if (a[i] == "." || a[i] == "") continue
    if (a[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
    out[++k] = a[i]
  }
  p = ""
  for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
  return p
}
function load(page,   line, fence, t, s) {  # the headings of a page, once
  if (page in loaded) return loaded[page]
  loaded[page] = 0
  fence = 0
  while ((getline line < page) > 0) {
    if (line ~ /^```/) { fence = !fence; continue }
    if (fence || line !~ /^#+ /) continue
    t = line; sub(/^#+ +/, "", t); t = norm(t)
    heading[page, ++nh[page]] = t
    s = slug(t)
    if ((page, s) in anchor) { dup[page, s]++; s = s "-" dup[page, s] }
    anchor[page, s] = 1
  }
  close(page)
  loaded[page] = 1
  return 1
}
function has_section(page, sec,   i, t, c) {
  for (i = 1; i <= nh[page]; i++) {
    t = heading[page, i]
    if (t == sec) return 1
    if (index(t, sec) == 1) { c = substr(t, length(sec) + 1, 1); if (c == " " || c == ":" || c == "(") return 1 }
  }
  return 0
}
function bad(file, line, ref, why) {
  if ((file, line, ref) in told) return  # a link is also a page named
  told[file, line, ref] = 1
  broken[file] = broken[file] sprintf("%s:%d: %s: %s\n", file, line, ref, why)
  nbad[file]++
}
function section_refs(file, lnum, line,   rest, m, page, sec, ref) {
  rest = line
  while (match(rest, /docs\/[A-Za-z0-9_-]+\.(md|json)/)) {  # a page named without a section
    m = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
    nref[file]++
    if (!exists(m)) bad(file, lnum, m, "no such file")
  }
  rest = line
  while (match(rest, /(docs\/)?[A-Za-z0-9_.-]+\.md`?,? \\?"[^"\\]+\\?"/)) {
    m = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
    page = m; sub(/`?,? \\?".*/, "", page)
    sec = m; sub(/^[^"]*"/, "", sec); sub(/\\?"$/, "", sec); sec = norm(sec)
    if (sec ~ /^</) continue  # a placeholder: docs/<page>.md "<section>"
    if (page !~ /^docs\//) page = exists(dirof(file) page) ? dirof(file) page : exists(page) ? page : "docs/" page
    ref = page " \"" sec "\""
    nref[file]++
    if (!exists(page)) { bad(file, lnum, ref, "no such file"); continue }
    load(page)
    if (!has_section(page, sec)) bad(file, lnum, ref, "no such heading in " page)
  }
}
function md_links(file, lnum, line,   rest, m, target, path, frag, ref) {
  rest = line
  while (match(rest, /\]\([^ )]*\)/)) {
    m = substr(rest, RSTART + 2, RLENGTH - 3); rest = substr(rest, RSTART + RLENGTH)
    if (m == "" || m ~ /^(https?|mailto):/) continue
    nref[file]++
    path = m; frag = ""
    if (index(m, "#")) { path = substr(m, 1, index(m, "#") - 1); frag = substr(m, index(m, "#") + 1) }
    target = (path == "") ? file : clean(dirof(file) path)
    if (!exists(target)) { bad(file, lnum, m, "no such file"); continue }
    if (frag == "") continue
    if (target !~ /\.md$/ || !load(target) || !((target, frag) in anchor))
      bad(file, lnum, m, "no such heading in " target)
  }
}
{
  if (FNR == 1) { fence = 0; ismd = (FILENAME ~ /\.md$/) }
  if (ismd && $0 ~ /^```/) { fence = !fence }
  if (ismd && !fence) md_links(FILENAME, FNR, $0)
  section_refs(FILENAME, FNR, $0)
}
END {
  for (f in broken) printf "%s", broken[f]
  for (f in nref) {  # one check per page, one for all the code files
    g = (f ~ /^(README\.md|docs\/)/) ? f : "code"
    gref[g] += nref[f]; gbad[g] += nbad[f]
  }
  for (g in gref) printf "@@\t%s\t%d\t%d\n", g, gref[g], gbad[g]
}' README.md docs/*.md $code >"$work/scan" 2>/dev/null || {
  echo "buildgate: doc-links.sh: the scan failed" >&2; exit 3; }
r=0
grep -v '^@@	' "$work/scan"
while IFS='	' read -r _ file refs nb; do
  if [ "$nb" = 0 ]; then obs="all $refs references resolve"
  elif [ "$file" = code ]; then obs=$(grep -v -e '^@@	' -e '^README\.md:' -e '^docs/' "$work/scan" | tr '\n' ';' | sed 's/;$//'); r=1
  else obs=$(grep "^$file:[0-9]*: " "$work/scan" | tr '\n' ';' | sed 's/;$//'); r=1; fi
  "$check" --suite ci --name "$n.$(echo "$file" | tr './' '__')" --expect-equal "all $refs references resolve" "$obs" >/dev/null || r=1
done <<EOF
$(grep '^@@	' "$work/scan")
EOF
exit $r
