#!/bin/sh
# thp-modes.sh — per-process light-mode RandomX hash time with and without
# transparent huge page advice (issue 24 item 1; docs/performance.md "Why
# light-mode processes were bimodal").
#
# Usage: thp-modes.sh [--duet] PERF_BENCH PAIRS OUT.tsv
#          PAIRS pairs of processes, each pair one with BG_PERF_RX_THP=off and
#          one with =on (bench/rx_thp.h), perf-bench --benchmark_filter
#          'hash/light-jit-hard$' --benchmark_min_time=0.3 each (a new cache
#          per process).  Serial by default, the order alternating
#          (off,on / on,off ...: ABBA, so load drifts hit both); --duet runs
#          the two of a pair at the same time (one per core).
#          OUT.tsv: pair, thp (off|on), real_ms, cpu_ms (per hash),
#          iterations, label (what the kernel gave: "thp on: cache 254 MiB
#          huge, scratchpad 0 KiB huge"), load1 (/proc/loadavg after the pair)
#        thp-modes.sh --hist OUT.tsv real|cpu WIDTH_MS
#          per condition: n, median, quartiles, a text histogram (bins of
#          WIDTH_MS), the labels seen, and the paired on/off ratio's quartiles.
# Exit: 0, 2 usage, 3 a run wrote no result.
set -u
usage() { echo "buildgate: thp-modes.sh: want [--duet] PERF_BENCH PAIRS OUT.tsv | --hist OUT.tsv real|cpu WIDTH_MS (see thp-modes.sh --help)" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;; esac
if [ "${1:-}" = --hist ]; then
  [ $# -eq 4 ] || usage
  case $3 in real) col=3 ;; cpu) col=4 ;; *) usage ;; esac
  awk -F'\t' -v col="$col" -v w="$4" -v what="$3" '
    NR == 1 { next }
    { v[$2, ++n[$2]] = $col; lab[$2, $6] = 1; p[$1, $2] = $col
      if (min == "" || $col < min) min = $col; if ($col > max) max = $col
      if (lmin == "" || $7 < lmin) lmin = $7; if ($7 > lmax) lmax = $7; pair[$1] = 1 }
    function q(c, f,   i, j, k, t, a) { k = n[c]; for (i = 1; i <= k; i++) a[i] = v[c, i]
      for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      t = 1 + f * (k - 1); i = int(t); return i >= k ? a[k] : a[i] + (t - i) * (a[i + 1] - a[i]) }
    END {
      printf "%s ms per hash, load1 %s-%s\n", what, lmin, lmax
      lo = int(min / w) * w
      for (ci = 0; ci < 2; ci++) { c = ci ? "on" : "off"; if (!n[c]) continue
        printf "  thp %s: n=%d median %.1f quartiles %.1f-%.1f range %.1f-%.1f\n", c, n[c], q(c, .5), q(c, .25), q(c, .75), q(c, 0), q(c, 1)
        for (k in lab) { split(k, s, SUBSEP); if (s[1] == c) printf "    label: %s\n", s[2] }
        for (b = lo; b <= max; b += w) { h = 0; for (i = 1; i <= n[c]; i++) if (v[c, i] >= b && v[c, i] < b + w) h++
          bar = ""; for (i = 0; i < h; i++) bar = bar "#"; printf "    %7.1f-%7.1f | %s\n", b, b + w, bar } }
      m = 0; for (k in pair) if ((k, "on") in p && (k, "off") in p && p[k, "off"] > 0) { v["r", ++m] = p[k, "on"] / p[k, "off"] }
      n["r"] = m
      if (m) printf "  paired on/off: n=%d median %.3f quartiles %.3f-%.3f\n", m, q("r", .5), q("r", .25), q("r", .75) }' "$2"
  exit 0
fi
duet=0
[ "${1:-}" = --duet ] && { duet=1; shift; }
[ $# -eq 3 ] || usage
bench=$1 pairs=$2 out=$3
case $pairs in '' | *[!0-9]*) usage ;; esac
tmp=$out.d
mkdir -p "$tmp" || exit 3
printf 'pair\tthp\treal_ms\tcpu_ms\titerations\tlabel\tload1\n' >"$out" || exit 3
one() { # thp pair: one process
  BG_PERF_RX_THP=$1 "$bench" --benchmark_filter='hash/light-jit-hard$' --benchmark_min_time=0.3 \
    --benchmark_out="$tmp/$1.json" --benchmark_out_format=json >/dev/null 2>&1
}
row() { # thp pair load
  j=$tmp/$1.json
  r=$(sed -n 's/^ *"real_time": *\([0-9.e+-]*\),*$/\1/p' "$j" 2>/dev/null | head -1)
  c=$(sed -n 's/^ *"cpu_time": *\([0-9.e+-]*\),*$/\1/p' "$j" 2>/dev/null | head -1)
  it=$(sed -n 's/^ *"iterations": *\([0-9]*\),*$/\1/p' "$j" 2>/dev/null | head -1)
  l=$(sed -n 's/^ *"label": *"\([^"]*\)",*$/\1/p' "$j" 2>/dev/null | head -1)
  [ -n "$r" ] && [ -n "$c" ] || { echo "buildgate: thp-modes.sh: pair $2 thp $1 wrote no result ($j)" >&2; exit 3; }
  printf '%s\t%s\t%.2f\t%.2f\t%s\t%s\t%s\n' "$2" "$1" "$r" "$c" "$it" "$l" "$3" >>"$out"
}
i=1
while [ "$i" -le "$pairs" ]; do
  rm -f "$tmp/on.json" "$tmp/off.json"
  if [ "$duet" = 1 ]; then
    one off "$i" & a=$!
    one on "$i" & b=$!
    wait "$a" "$b"
  elif [ $((i % 2)) = 1 ]; then one off "$i"; one on "$i"
  else one on "$i"; one off "$i"; fi
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
  row off "$i" "${load:-?}"
  row on "$i" "${load:-?}"
  i=$((i + 1))
done
