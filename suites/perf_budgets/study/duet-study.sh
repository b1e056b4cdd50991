#!/usr/bin/env bash
# duet-study.sh BINDIR OUTDIR [options] — duet vs interleaved runs of bg-perf
# ab, and the noise controls (docs/performance.md "Duet runs" and "Noise
# controls"; a measurement, not a test).  For each benchmark, mode and
# injected slowdown (the project's knob BG_PERF_SLOWDOWN_PCT on the head),
# RUNS runs of `bg-perf ab` with a fixed plan (--rounds, --reps, the
# budget's min_time, no reruns: budgets.json with max_reruns 0) and the same
# seed per run index in every mode; run index outermost, then slowdown, then
# mode, so that load drifts hit every cell alike and a --until cut leaves
# whole sweeps.  Appends one line per run to OUTDIR/runs.tsv and prints the
# table: per benchmark and mode, the A/A interval width (median over runs),
# A/A fails, detections of each slowdown, seconds per run, and the width
# ratio interleaved / duet.
# Options:
#   --bench RE...     benchmarks, comma-separated (default
#                     synth/chain,randomx/v1/release/hash/light-jit-hard)
#   --runs N          runs per cell (default 5)
#   --pcts "0 2 3 5"  injected slowdowns in % (0 = A/A)
#   --modes "interleaved duet"  bg-perf ab modes; the noise controls are the
#                     modes pin, noaslr (setarch -R), warmup (--drop-warmup),
#                     interleave (--random-interleaving), each interleaved
#   --rounds R --reps K  the fixed plan (default 9 x 3; RandomX: reps 2)
#   --loader N        run `stress-ng --cpu N` beside (a loader process), killed at the end
#   --tag T           label of this condition in runs.tsv (default idle / loaded-N)
#   --until EPOCH     start no run after this time (date +%s), e.g. the end of
#                     a quiet window
# Records `uptime` before and after each cell.  BINDIR: the build's
# suites/perf_budgets (bg-perf, perf-bench).  Needs jq (ci/provision).
# Exit: 0 done (a run without a verdict is logged and skipped); 2 usage (no
# BINDIR/OUTDIR, a BINDIR without bg-perf and perf-bench, a bad option value:
# one line, study-lib.sh); 3 OUTDIR cannot be written.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)  # the suite folder
# shellcheck source=suites/perf_budgets/study/study-lib.sh
source "$src/study/study-lib.sh"
study_help_or_usage 2 "BINDIR OUTDIR [options]" "$@"
bin=$1 out=$2
shift 2
study_bindir "$bin" bg-perf perf-bench
study_needs jq
benches=synth/chain,randomx/v1/release/hash/light-jit-hard runs=5 pcts="0 2 3 5" modes="interleaved duet"
rounds=9 reps="" loader=0 tag="" until=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bench|--runs|--pcts|--modes|--rounds|--reps|--loader|--tag|--until)
      bg_need_value "$1" $# "${2-}"
      case "$1" in
        --runs|--rounds|--reps) study_count "$1" "$2" ;;
        --loader|--until) study_count "$1" "$2" 0 ;;
      esac
      v=${1#--}; [ "$v" = bench ] && v=benches
      printf -v "$v" '%s' "$2"; shift 2 ;;
    *) bg_die "unknown option '$1'" ;;
  esac
done
for m in $modes; do
  case "$m" in interleaved|duet|pin|warmup|interleave|noaslr) ;; *) bg_die "--modes: unknown mode '$m'" ;; esac
done
[ -n "$tag" ] || { [ "$loader" = 0 ] && tag=idle || tag=loaded-$loader; }
mkdir -p "$out/w" || exit 3
budgets=$out/budgets-noreruns.json
jq '.defaults.max_reruns = 0' "$src/budgets.json" >"$budgets" || exit 3
lpid=""
cleanup() { [ -n "$lpid" ] && kill "$lpid" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT
if [ "$loader" != 0 ]; then
  study_needs stress-ng
  stress-ng --cpu "$loader" --timeout 0 >/dev/null 2>&1 & lpid=$!
  sleep 1
fi
noaslr=(--prefix setarch --prefix -R)
if ! setarch -R true 2>/dev/null; then noaslr=(); fi
mode_args() { # mode_args MODE -> the bg-perf ab options of that mode
  case "$1" in
    interleaved) echo "--interleaved" ;;
    duet) echo "--duet" ;;
    pin) echo "--interleaved --pin" ;;
    warmup) echo "--interleaved --drop-warmup" ;;
    interleave) echo "--interleaved --random-interleaving" ;;
    noaslr) echo "--interleaved ${noaslr[*]}" ;;
  esac
}
[ -s "$out/runs.tsv" ] || printf 'tag\tbench\tmode\tpct\trun\toutcome\tratio\tlo\thi\twidth\tseconds\tload1\n' >"$out/runs.tsv"
IFS=, read -r -a blist <<<"$benches"
for b in "${blist[@]}"; do
  k=${reps:-3}; case "$b" in randomx/*) k=${reps:-2} ;; esac
  echo "== $tag $b: $runs run(s) per cell, $rounds rounds x $k reps, modes: $modes, slowdowns: $pcts; $(uptime)"
  for i in $(seq 1 "$runs"); do
    for pct in $pcts; do
      for m in $modes; do
        if [ "$until" != 0 ] && [ "$(date +%s)" -ge "$until" ]; then
          echo "   --until reached: stopping"; break 3
        fi
        if [ "$m" = noaslr ] && [ ${#noaslr[@]} = 0 ]; then
          echo "   noaslr: unavailable (setarch -R refused here)"; continue
        fi
        t0=$(date +%s.%N) load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)
        # shellcheck disable=SC2046 # the mode's options are words
        "$bin/bg-perf" ab --base-exe "$bin/perf-bench" --head-exe "$bin/perf-bench" \
          --head-env "BG_PERF_SLOWDOWN_PCT=$pct" --filter "^$b\$" $(mode_args "$m") \
          --rounds "$rounds" --reps "$k" --seed "$((1000 + i))" --budgets "$budgets" \
          --work-dir "$out/w" >"$out/last.log" 2>&1
        rc=$? t1=$(date +%s.%N) verdict="" ratio="" lo="" hi=""
        line=$(grep -m1 "^bg-perf: .*$b: [a-z]* ratio " "$out/last.log")
        read -r verdict ratio lo hi < <(sed -n 's/^.*: \([a-z]*\) ratio \([0-9.]*\) \[\([0-9.]*\), \([0-9.]*\)\].*/\1 \2 \3 \4/p' <<<"$line")
        [ -n "${hi:-}" ] || { echo "buildgate: $BG_TOOL: no verdict (exit $rc), log $out/last.log" >&2; cp "$out/last.log" "$out/failed-$m-$pct-$i.log"; continue; }
        w=$(awk -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%.4f", hi - lo }')
        s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tag" "$b" "$m" "$pct" "$i" "$verdict" "$ratio" "$lo" "$hi" "$w" "$s" "$load" >>"$out/runs.tsv"
        echo "   $m +$pct% #$i: $verdict $ratio [$lo, $hi] width $w, ${s}s, load $load"
      done
    done
  done
  echo "   after: $(uptime)"
done
"$src/study/duet-table.sh" "$out/runs.tsv"
