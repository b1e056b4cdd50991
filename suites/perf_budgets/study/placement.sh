#!/bin/sh
# placement.sh — the loops of docs/performance.md "The cause, measured" around
# rx-placement (suites/perf_budgets/study/rx_placement.c; a study, not a test).
#
# Usage: placement.sh pairs RX_PLACEMENT PAIRS HASHES OUT.tsv
#          PAIRS alternating processes BG_PERF_RX_THP=off then on, each
#          `rx-placement HASHES`; OUT.tsv: i, thp, rx-placement's columns
#          (hash_ms_median ... gib_ticks), load1 (/proc/loadavg after it)
#        placement.sh renew RX_PLACEMENT PROCS ROUNDS HASHES THP OUT.tsv
#          PROCS processes of `rx-placement --renew vm ROUNDS HASHES` then
#          `--renew cache ...`, BG_PERF_RX_THP=THP (on|off); OUT.tsv: proc
#          (<n>.<vm|cache>), round, renewed, hash_ms_median, walk_ns, alu_ns
# Needs root (rx-placement reads /proc/self/pagemap).  Correlate the columns
# afterwards (e.g. hash_ms_median against walk_ns).
# Exit: 0; 2 usage; 3 a run of rx-placement failed (its line on stderr).
set -u
usage() { echo "buildgate: placement.sh: want pairs RX PAIRS HASHES OUT | renew RX PROCS ROUNDS HASHES THP OUT (see placement.sh --help)" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;; esac
whole() { case $1 in '' | *[!0-9]*) usage ;; esac; }
load1() { cut -d' ' -f1 /proc/loadavg; }
case "${1:-}" in
  pairs)
    [ $# -eq 5 ] || usage
    rx=$2 n=$3 h=$4 out=$5; whole "$n"; whole "$h"
    [ -x "$rx" ] || usage
    printf 'i\tthp\thash_ms_median\thash_ms_min\twalk_ns\tpages\tgib_hist\tl2_colour_max\tframes\tgib_ticks\tload1\n' >"$out" || exit 3
    i=0
    while [ "$i" -lt "$n" ]; do
      for m in off on; do
        r=$(BG_PERF_RX_THP=$m "$rx" "$h") || exit 3
        printf '%s\t%s\t%s\t%s\n' "$i" "$m" "$r" "$(load1)" >>"$out" || exit 3
      done
      i=$((i + 1))
    done ;;
  renew)
    [ $# -eq 7 ] || usage
    rx=$2 n=$3 rounds=$4 h=$5 thp=$6 out=$7; whole "$n"; whole "$rounds"; whole "$h"
    [ -x "$rx" ] || usage
    case $thp in on | off) ;; *) usage ;; esac
    printf 'proc\tround\trenewed\thash_ms_median\twalk_ns\talu_ns\n' >"$out" || exit 3
    p=0
    while [ "$p" -lt "$n" ]; do
      for m in vm cache; do
        BG_PERF_RX_THP=$thp "$rx" --renew "$m" "$rounds" "$h" >"$out.part" || exit 3
        sed "s/^/$p.$m	/" "$out.part" >>"$out" || exit 3
      done
      p=$((p + 1))
    done
    rm -f "$out.part" ;;
  *) usage ;;
esac
