#!/bin/sh
# turns.sh — the loop of docs/performance.md "Duet on one CPU" around rx-turns
# (suites/perf_budgets/study/rx_turns.c; a study, not a test).
#
# Usage: turns.sh RX_TURNS PAIRS HASHES CHASE OUT.tsv [MODES]
#          PAIRS rounds; each round runs one pair in every mode of MODES
#          (default "duet turns turns2"), in an order that rotates per round;
#          OUT.tsv: rx-turns's columns, then load1 (/proc/loadavg after it)
#        turns.sh --summary OUT.tsv
#          per mode and chase: n, the median, sd and IQR of d_cpu and d_wall
# Exit: 0; 2 usage; 3 a run of rx-turns failed (its line on stderr).
set -u
usage() { echo "buildgate: turns.sh: want RX PAIRS HASHES CHASE OUT [MODES] | --summary OUT (see turns.sh --help)" >&2; exit 2; }
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;; esac
whole() { case $1 in '' | *[!0-9]*) usage ;; esac; }
if [ "${1:-}" = --summary ]; then
  [ $# -eq 2 ] || usage
  [ -f "$2" ] && [ -r "$2" ] || { echo "buildgate: turns.sh: --summary: '$2' is not a readable file" >&2; exit 2; }
  head -1 "$2" | grep -q '^mode	pair	chase	' || { echo "buildgate: turns.sh: --summary: '$2' is not a table turns.sh wrote (its header is missing)" >&2; exit 2; }
  # columns: 1 mode 2 pair 3 chase ... 6 d_cpu ... 9 d_wall 10 d_hash_med_cpu
  for col in 6 9 10; do
    awk -F'\t' -v c="$col" 'NR > 1 { print $1 "/" $3 "\t" $c }' "$2" | sort -t'	' -k1,1 -k2,2g |
      awk -F'\t' -v c="$col" '
        function flush(   i, m, q1, q3, s, ss, sd) {
          if (n == 0) return
          m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
          q1 = v[int((n + 3) / 4)]; q3 = v[int((3 * n + 1) / 4)]
          s = 0; for (i = 1; i <= n; i++) s += v[i]
          ss = 0; for (i = 1; i <= n; i++) ss += (v[i] - s / n) ^ 2
          sd = n > 1 ? sqrt(ss / (n - 1)) : 0
          printf "%-14s col %-2d n %3d  median %+.4f  sd %.4f  IQR [%+.4f, %+.4f]\n", k, c, n, m, sd, q1, q3
        }
        $1 != k { flush(); k = $1; n = 0 }
        { v[++n] = $2 }
        END { flush() }'
  done
  exit 0
fi
[ $# -eq 5 ] || [ $# -eq 6 ] || usage
rx=$1 n=$2 h=$3 ch=$4 out=$5 modes=${6:-duet turns turns2}
whole "$n"; whole "$h"; whole "$ch"
[ -x "$rx" ] || usage
[ -e "$out" ] || printf 'mode\tpair\tchase\ta_cpu\tb_cpu\td_cpu\ta_wall\tb_wall\td_wall\td_hash_med_cpu\td_hash_med_wall\tload1\n' >"$out" || exit 3
i=0
while [ "$i" -lt "$n" ]; do
  set -- $modes
  r=$((i % $#)); while [ "$r" -gt 0 ]; do m=$1; shift; set -- "$@" "$m"; r=$((r - 1)); done
  for m in "$@"; do
    row=$("$rx" "$m" "$i" "$h" "$ch") || exit 3
    printf '%s\t%s\n' "$row" "$(cut -d' ' -f1 /proc/loadavg)" >>"$out" || exit 3
  done
  i=$((i + 1))
done
