#!/bin/sh
# mutant-runner.sh — a deliberately wrong runner for the digest self-tests
# (selftest/runner_mutant.sh), in the style of nan_semantics'
# runners/mutant-runner.sh: runs the probe natively and corrupts what it
# prints (bg-digest-check --observe's JSON object), as a translator that
# computes a wrong digest would.  bg-digest-check --runner must catch it.
#
# Usage: mutant-runner.sh MUTATION CACHE PROBE [ARGS...]
#   MUTATION  checkpoint:N   checkpoint N (1-based), every later one and the
#                            chain digest differ (a chain that left the truth
#                            at hash N*K-1 stays off it)
#             kat:ID         the hash of known answer ID differs
#             none           nothing changed (a stand-in of a right runner)
#   CACHE     a file keeping the probe's output: when it exists the probe is
#             not run again (the self-test's cases share one computation)
# As a stand-in first in PATH under a registry row's program name, the
# self-test wraps it so that `--version` answers a chosen version.
mutation=$1 cache=$2
shift 2
if [ ! -s "$cache" ]; then
  "$@" > "$cache.tmp" || { rc=$?; rm -f "$cache.tmp"; exit "$rc"; }
  mv "$cache.tmp" "$cache"
fi
case "$mutation" in
  checkpoint:*) what=cp n=${mutation#checkpoint:} ;;
  kat:*) what=kat n=${mutation#kat:} ;;
  none) cat "$cache"; exit 0 ;;
  *) echo "buildgate: mutant-runner.sh: unknown mutation '$mutation'" >&2; exit 2 ;;
esac
# flip(h): h with its first hex digit changed (0 -> 1, anything else -> 0)
awk -v what="$what" -v n="$n" '
function flip(h) { return (substr(h, 1, 1) == "0" ? "1" : "0") substr(h, 2) }
{
  s = $0
  if (what == "kat") {
    key = "\"id\":\"" n "\",\"hash\":\""
    i = index(s, key)
    if (i == 0) { print "buildgate: mutant-runner.sh: no known answer " n > "/dev/stderr"; exit 2 }
    p = i + length(key)
    s = substr(s, 1, p - 1) flip(substr(s, p))
  } else {
    key = "\"checkpoints\":["
    i = index(s, key)
    if (i == 0) { print "buildgate: mutant-runner.sh: no checkpoints" > "/dev/stderr"; exit 2 }
    head = substr(s, 1, i + length(key) - 1); rest = substr(s, i + length(key))
    j = index(rest, "]"); list = substr(rest, 1, j - 1); tail = substr(rest, j)
    m = split(list, cp, ",")
    if (n + 0 < 1 || n + 0 > m) { print "buildgate: mutant-runner.sh: no checkpoint " n > "/dev/stderr"; exit 2 }
    out = ""
    for (k = 1; k <= m; k++) {
      c = cp[k]
      if (k >= n + 0) c = "\"" flip(substr(c, 2))
      out = out (k > 1 ? "," : "") c
    }
    s = head out tail
    dk = "\"digest\":\""
    d = index(s, dk)
    if (d > 0) s = substr(s, 1, d + length(dk) - 1) flip(substr(s, d + length(dk)))
  }
  print s
}' "$cache"
