#!/usr/bin/env bash
# duet-table.sh RUNS.tsv — the table of duet-study.sh's runs (docs/performance.md
# "Duet runs"): per condition (tag), benchmark and mode: runs, the median A/A
# interval width (hi - lo), A/A fails, detections (fail) of each injected
# slowdown with, in brackets, the runs whose interval lay wholly above 1
# (lo > 1: the shift resolved, whatever the band), median seconds per run,
# median load; then the A/A width ratio of each mode against interleaved.
# Exit: 0 the table; 2 usage (no RUNS.tsv, a file that is not duet-study.sh's
# runs.tsv, or one with no runs: one line, study-lib.sh), never an empty table.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=suites/perf_budgets/study/study-lib.sh
source "$src/study-lib.sh"
study_help_or_usage 1 "RUNS.tsv" "$@"
study_file RUNS.tsv "$1"
[ "$(head -n 1 "$1")" = $'tag\tbench\tmode\tpct\trun\toutcome\tratio\tlo\thi\twidth\tseconds\tload1' ] ||
  bg_die "RUNS.tsv '$1': not a runs.tsv of duet-study.sh (its header line differs)"
[ "$(wc -l <"$1")" -ge 2 ] || bg_die "RUNS.tsv '$1': no runs in it (only the header): nothing to tabulate"
awk -F'\t' '
function median(key,   n, i, j, t, a) {
  n = split(vals[key], a, " ")
  for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
  return n == 0 ? "-" : n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR == 1 { next }
{
  c = $1 SUBSEP $2 SUBSEP $3
  if (!(c in seen)) { seen[c] = 1; order[++nc] = c }
  p = $4 + 0; pcts[p] = 1
  n[c, p]++; if ($6 == "fail") f[c, p]++; if ($8 + 0 > 1) up[c, p]++
  if (p == 0) vals[c, "w"] = vals[c, "w"] " " $10
  vals[c, "wa"] = vals[c, "wa"] " " $10
  vals[c, "s"] = vals[c, "s"] " " $11; vals[c, "l"] = vals[c, "l"] " " $12
}
END {
  np = 0; for (p in pcts) pl[++np] = p + 0
  for (i = 2; i <= np; i++) for (j = i; j > 1 && pl[j-1] > pl[j]; j--) { t = pl[j]; pl[j] = pl[j-1]; pl[j-1] = t }
  printf "| condition | benchmark | mode | A/A width (median) | width, all runs | A/A fail |"
  for (i = 1; i <= np; i++) if (pl[i] > 0) printf " +%g%% caught (lo>1) |", pl[i]
  printf " s/run | load |\n|---|---|---|---|---|---|"
  for (i = 1; i <= np; i++) if (pl[i] > 0) printf "---|"
  printf "---|---|\n"
  for (k = 1; k <= nc; k++) {
    c = order[k]; split(c, part, SUBSEP)
    w = median(c SUBSEP "w"); width[c] = w
    wa = median(c SUBSEP "wa"); wall[c] = wa
    printf "| %s | %s | %s | %s | %s | %d/%d |", part[1], part[2], part[3], w, wa, f[c, 0], n[c, 0]
    for (i = 1; i <= np; i++) if (pl[i] > 0) printf " %d/%d (%d) |", f[c, pl[i]], n[c, pl[i]], up[c, pl[i]]
    printf " %s | %s |\n", median(c SUBSEP "s"), median(c SUBSEP "l")
  }
  print ""
  for (k = 1; k <= nc; k++) {
    c = order[k]; split(c, part, SUBSEP); ref = part[1] SUBSEP part[2] SUBSEP "interleaved"
    if (part[3] != "interleaved" && (ref in width) && width[c] + 0 > 0)
      { ra = (wall[c] + 0 > 0) ? wall[ref] / wall[c] : 0
        printf "width ratio interleaved / %s (%s, %s): A/A %.2f, all runs %.2f\n", part[3], part[1], part[2],
               width[ref] / width[c], ra }
  }
}' "$1"
