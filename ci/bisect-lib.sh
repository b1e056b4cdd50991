# ci/bisect-lib.sh — the functions of ci/bisect (sourced, not run): which
# checks to run, the build, the per-commit judge and the summary.
# shellcheck shell=bash
# shellcheck disable=SC2154  # the state variables below are set by ci/bisect
# State (ci/bisect writes it to $work/state): work src root good_sha bad_sha
# start deadline (epoch s) time_limit (min) retries perf_target perf_exe rounds reps min_time BG_JOBS
# cmake_args build_targets.

# bisect_failed_checks RESULTS: the names to bisect, one a line: a perf check
# with a ratio (details.ratio) by its check name, any other fail/xpass check by
# its CTest test (.test, else its name).  Exit 4 when RESULTS is not JSON.
bisect_failed_checks() {
  jq -r '.checks[] | select(.verdict == "fail" or .verdict == "xpass")
         | if ((.name | test("^perf\\.(ab|baseline|callgrind|callgrind_cycles)\\.")) and ((.details | type) == "object")
               and (.details.ratio != null)) then .name else (.test // .name) end' "$1" 2>/dev/null |
    awk '!seen[$0]++' || return 4
}

# Seconds left before the deadline (may be <= 0).
bisect_left() { echo $((deadline - $(date +%s))); }

# bisect_limited CMD...: CMD under nice, stopped at the deadline (coreutils
# timeout, gtimeout on macOS with Homebrew's coreutils; without either the
# deadline is checked between commands only).  Returns CMD's status, or 255
# (and leaves $work/timed-out) when time ran out.  SIGINT/SIGTERM stop CMD and
# exit 130/143.
bisect_limited() {
  local left t; left=$(bisect_left)
  if [ "$left" -le 0 ]; then touch "$work/timed-out"; return 255; fi
  t=$(command -v timeout || command -v gtimeout)
  if [ -z "$t" ]; then nice "$@"; return; fi
  # timeout runs CMD in a process group of its own: a signal to ci/bisect's
  # running step (bg_stop_step) is passed on to it, and waited for
  "$t" --kill-after=10 "$left" nice "$@" &
  local tp=$! r
  trap 'kill -INT "$tp" 2>/dev/null; wait "$tp"; exit 130' INT
  trap 'kill -TERM "$tp" 2>/dev/null; wait "$tp"; exit 143' TERM
  wait "$tp"; r=$?
  trap - INT TERM
  if [ $r = 124 ] || [ $r = 137 ]; then touch "$work/timed-out"; return 255; fi
  return $r
}

# bisect_configure: (re)configures the one build tree from the worktree.
bisect_configure() {
  bisect_limited cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    ${cmake_args[@]+"${cmake_args[@]}"} >"$work/build.configure.log" 2>&1
}

# bisect_build [TARGET...]: incremental build (all when no target); configures
# first only when the tree has no build.ninja yet (Ninja reruns CMake itself
# when a checkout changed a CMake file).  Returns 0, 1 (failed: log in
# $work/build.log) or 255 (time ran out).
bisect_build() {
  local t=() x r=0
  for x in "$@"; do t+=(--target "$x"); done
  [ -f "$work/build/build.ninja" ] || { bisect_configure; r=$?; }
  [ $r = 255 ] && return 255
  [ $r = 0 ] || { cp "$work/build.configure.log" "$work/build.log"; return 1; }
  bisect_limited cmake --build "$work/build" -j "$BG_JOBS" ${t[@]+"${t[@]}"} >"$work/build.log" 2>&1; r=$?
  [ $r = 255 ] && return 255
  [ $r = 0 ] || return 1
}

# bisect_resolve NAME...: one line per check, TSV "name kind what mode":
# kind test (what: the CTest test) or perf (what: the benchmark; mode: ab or
# callgrind).  A CTest test name is taken as is; a perf.ab|baseline|callgrind|
# callgrind_cycles.<benchmark> name is a perf check (both callgrind metrics:
# mode callgrind, one row per benchmark: one bg-perf callgrind run judges
# both); any other name goes to the test that is its longest prefix (check
# names start with their test's name).  Exit 2 when a name matches nothing.
bisect_resolve() {
  local tests name t best
  tests=$(ctest --test-dir "$work/build" -N 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p')
  for name in "$@"; do
    if grep -qxF -- "$name" <<<"$tests"; then printf '%s\ttest\t%s\t\n' "$name" "$name"; continue; fi
    if [[ "$name" =~ ^perf\.(ab|baseline|callgrind|callgrind_cycles)\.(.+)$ ]]; then
      local mode=ab
      [ "${BASH_REMATCH[1]#callgrind}" != "${BASH_REMATCH[1]}" ] && mode=callgrind
      printf '%s\tperf\t%s\t%s\n' "$name" "${BASH_REMATCH[2]}" "$mode"; continue
    fi
    best=""
    while IFS= read -r t; do
      [ -n "$t" ] && [ "${name#"$t".}" != "$name" ] && [ ${#t} -gt ${#best} ] && best=$t
    done <<<"$tests"
    [ -n "$best" ] || { echo "buildgate: ci/bisect: '$name' is neither a CTest test of $bad_sha nor a check of one" >&2; return 2; }
    printf '%s\ttest\t%s\t\n' "$name" "$best"
  done | awk -F'\t' '!seen[$2 FS $3]++'
}

# bisect_regex_quote S: S as an exact ERE (ctest -R).
bisect_regex_quote() { printf '^%s$' "$(sed 's/[][\.*^$+?(){}|]/\\&/g' <<<"$1")"; }

# bisect_evidence SHA CHECK RESULT JSON: appends one evidence line.
bisect_evidence() {
  local subject pos
  subject=$(git -C "$src" log -1 --format=%s "$1")
  pos=$(git -C "$src" rev-list --count "$good_sha..$1")
  jq -cn --arg c "$1" --arg s "$subject" --argjson p "$pos" --arg k "$2" --arg r "$3" --argjson e "$4" \
    '{commit: $c, subject: $s, position: $p, check: $k, result: $r} + $e' >>"$work/evidence.jsonl"
}

# bisect_judge_test SHA NAME TEST: 0 good, 1 bad, 125 skip, 255 time out.
bisect_judge_test() {
  local sha=$1 name=$2 test=$3 r log=$work/steps/${1:0:12}.test.log ev
  bisect_build ${build_targets[@]+"${build_targets[@]}"}; r=$?
  [ $r = 255 ] && return 255
  if [ $r != 0 ]; then
    bisect_evidence "$sha" "$name" skip "$(jq -cn --arg l "$(grep -m1 -iE 'error' "$work/build.log" | sed "s|$src/||g" | cut -c1-200)" \
      '{why: "build failed", observed: $l}')"
    return 125
  fi
  rm -f "$work/build/checks/$test.jsonl"
  bisect_limited ctest --test-dir "$work/build" -R "$(bisect_regex_quote "$test")" --no-tests=error \
    --output-on-failure >"$log" 2>&1; r=$?
  [ $r = 255 ] && return 255
  if grep -q "No tests were found" "$log"; then
    bisect_evidence "$sha" "$name" skip '{"why": "the test does not exist at this commit"}'; return 125
  fi
  if [ $r = 0 ] && grep -q '\*\*\*Skipped\|Not Run' "$log"; then
    bisect_evidence "$sha" "$name" skip '{"why": "the test skipped"}'; return 125
  fi
  # expected/observed: the test's first fail/xpass check (bg_check.h), else
  # the first lines of its output after ctest's "***Failed" line.
  ev=$(jq -cs 'map(select(.verdict == "fail" or .verdict == "xpass")) | first // empty
              | {failing: .name, expected, observed}' "$work/build/checks/$test.jsonl" 2>/dev/null)
  if [ -z "$ev" ] && [ $r != 0 ]; then
    ev=$(jq -cn --arg o "$(sed -n '/\*\*\*Failed\|\*\*\*Exception\|\*\*\*Timeout/{n;p;n;p;}' "$log" | paste -sd' ' - | sed 's/ *$//' | cut -c1-300)" '{observed: $o}')
  fi
  ev=$(jq -cn --argjson e "${ev:-{\}}" --argjson x "$r" --arg t "$test" '{test: $t, ctest_exit: $x} + $e')
  if [ $r = 0 ]; then bisect_evidence "$sha" "$name" good "$ev"; return 0; fi
  bisect_evidence "$sha" "$name" bad "$ev"; return 1
}

# bisect_judge_perf SHA NAME BENCH MODE: 0 good, 1 bad, 125 skip, 255 time out.
# The verdict is bg-perf's own (the band rule lives there, perf_callgrind.c /
# perf_gate.c, never here): mode ab its one perf.ab check; mode callgrind both
# checks of the benchmark, perf.callgrind (Ir, ir_band) and
# perf.callgrind_cycles (estimated cycles, cycles_band), as the gate judges
# them: fail when either fails, pass when both pass (or improve); the
# evidence is the failing check's, with both metrics in .metrics.
bisect_judge_perf() {
  local sha=$1 name=$2 bench=$3 mode=$4 r try cf ev verdict b=() o=() badlo
  badlo=$work/bad-low.$(tr -c 'A-Za-z0-9._-' '_' <<<"$name")
  bisect_build "$perf_target"; r=$?
  [ $r = 255 ] && return 255
  if [ $r != 0 ]; then
    bisect_evidence "$sha" "$name" skip '{"why": "build failed"}'; return 125
  fi
  [ -f "$work/budgets.json" ] && b=(--budgets "$work/budgets.json")
  [ -n "$rounds" ] && o+=(--rounds "$rounds")
  [ -n "$reps" ] && o+=(--reps "$reps")
  [ -n "$min_time" ] && o+=(--min-time "$min_time")
  for ((try = 0; try <= retries; try++)); do
    cf=$work/steps/${sha:0:12}.perf.$try.jsonl
    rm -f "$cf"
    if [ "$mode" = callgrind ]; then
      BG_CHECKS_FILE=$cf bisect_limited "$work/bin/bg-perf" callgrind --base-exe "$work/ref/perf-exe" \
        --head-exe "$work/build/$perf_exe" --filter "$(bisect_regex_quote "$bench")" ${b[@]+"${b[@]}"} \
        --work-dir "$work/runs" >"$cf.log" 2>&1; r=$?
    else
      BG_CHECKS_FILE=$cf bisect_limited "$work/bin/bg-perf" ab --base-exe "$work/ref/perf-exe" \
        --head-exe "$work/build/$perf_exe" --filter "$(bisect_regex_quote "$bench")" \
        ${o[@]+"${o[@]}"} ${b[@]+"${b[@]}"} --work-dir "$work/runs" >"$cf.log" 2>&1; r=$?
    fi
    [ $r = 255 ] && return 255
    verdict=$(jq -rs --arg m "$mode" "$bisect_perf_checks_jq"' | if length == 0 then "none"
          elif any(.verdict == "fail") then "fail" elif all(.verdict == "pass") then "pass"
          else (map(select(.verdict != "pass")) | first | .verdict) end' "$cf" 2>/dev/null)
    ev=$(jq -cs --arg m "$mode" --argjson x "$r" --argjson t "$try" "$bisect_perf_checks_jq"' | . as $all
          | (map(select(.verdict == "fail")) + map(select(.verdict != "pass")) + .) | first // empty
          | {benchmark: .name, verdict, ratio: .details.ratio, interval: .details.interval,
             band: .details.band, p: .details.p, bg_perf_exit: $x, tries: ($t + 1)}
            + (if $m == "callgrind" then {metrics: ($all | map({check: .name, metric: .details.metric,
                 ratio: .details.ratio, band: .details.band, verdict}))} else {} end)' "$cf" 2>/dev/null)
    if [ -z "$ev" ] && grep -q 'matches the filter' "$cf.log"; then
      # a misspelt benchmark: no rerun or other commit can judge it
      bisect_evidence "$sha" "$name" skip "$(jq -cn --arg b "$bench" \
        '{why: ("no benchmark named \($b) in this commit'"'"'s perf-bench (misspelt? perf-bench --benchmark_list_tests lists them)")}')"
      return 125
    fi
    [ -n "$ev" ] || ev=$(jq -cn --argjson x "$r" --arg l "$(grep -m1 '^buildgate:' "$cf.log" | cut -c1-300)" \
      '{bg_perf_exit: $x, why: "bg-perf recorded no check", observed: $l}')
    case $verdict in
      fail) # the bad end's interval: the slowdown the bisection looks for
        [ "$sha" = "$bad_sha" ] && jq -r '.interval[0]' <<<"$ev" >"$badlo"
        bisect_evidence "$sha" "$name" bad "$ev"; return 1 ;;
      pass) bisect_evidence "$sha" "$name" good "$ev"; return 0 ;;
      inconclusive)
        # Not within the band, but wholly below the bad end's interval: the
        # slowdown seen at the bad end is not in this commit.
        if [ -s "$badlo" ] && jq -e --argjson lo "$(cat "$badlo")" '.interval[1] < $lo' <<<"$ev" >/dev/null 2>&1; then
          ev=$(jq -c --argjson lo "$(cat "$badlo")" '. + {note: "inconclusive, below the bad end (interval low \($lo * 10000 | round / 10000))"}' <<<"$ev")
          bisect_evidence "$sha" "$name" good "$ev"; return 0
        fi ;;
      *) bisect_evidence "$sha" "$name" skip "$ev"; return 125 ;;
    esac
  done
  bisect_evidence "$sha" "$name" skip "$ev"; return 125
}

# The perf checks of one bg-perf run that judge the benchmark (jq, --arg m MODE).
bisect_perf_checks_jq='map(select(.name | if $m == "callgrind" then test("^perf\\.callgrind(_cycles)?\\.")
                                       else startswith("perf.") end))'

# bisect_judge SHA: every check of $work/checks.tsv on the checked-out commit
# (BISECT_ONLY=test|perf: just that kind).  0 good (all good), 1 bad (any
# bad), 125 skip (else), 255 time ran out (aborts git bisect run).
bisect_judge() {
  local sha=$1 name kind what mode r worst=0
  echo "bisect: testing ${sha:0:12} $(git -C "$src" log -1 --format=%s "$sha")"
  while IFS=$'\t' read -r name kind what mode; do
    [ -n "${BISECT_ONLY:-}" ] && [ "$kind" != "$BISECT_ONLY" ] && continue
    if [ "$kind" = perf ]; then bisect_judge_perf "$sha" "$name" "$what" "$mode" </dev/null
    else bisect_judge_test "$sha" "$name" "$what" </dev/null; fi
    r=$?
    [ $r = 255 ] && return 255
    [ $r = 1 ] && return 1 # bad on one check is enough
    [ $r = 125 ] && worst=125
  done <"$work/checks.tsv"
  return $worst
}

# bisect_evidence_text: one evidence line as a table cell.
bisect_evidence_jq='if .metrics != null then
    ([.metrics[] | "\(.metric) ratio \(.ratio * 10000 | round / 10000), band ±\(.band * 1000 | round / 10)%, \(.verdict)"]
     | join("; ")) + (if .tries > 1 then " (\(.tries) tries)" else "" end)
  elif .ratio != null then
    "ratio \(.ratio * 10000 | round / 10000) [\(.interval[0] * 10000 | round / 10000), \(.interval[1] * 10000 | round / 10000)], band ±\(.band * 1000 | round / 10)%, \(.verdict)\(if .tries > 1 then " (\(.tries) tries)" else "" end)\(if .note then "; " + .note else "" end)"
  elif .why != null then .why + (if .observed then ": " + .observed else "" end)
  elif .bg_perf_exit != null then "bg-perf exit \(.bg_perf_exit), \(.verdict)"
  else "ctest exit \(.ctest_exit)" + (if .failing then ", \(.failing)" else "" end)
       + (if .expected != null then ": expected \(.expected | tostring), observed \(.observed | tostring)"
          elif .observed then ": " + .observed else "" end) end'

# bisect_summary STATUS FIRST OUT: writes OUT/bisect.json ({"bisect": ...},
# docs/results.schema.json) and OUT/bisect.md, and prints the summary.
bisect_summary() {
  local status=$1 first=$2 out=$3 left=()
  if [ "$status" = time_limit ] || [ "$status" = ambiguous ]; then
    local g=() ref
    while IFS= read -r ref; do g+=("^$ref"); done < <(git -C "$src" for-each-ref --format='%(objectname)' 'refs/bisect/good-*')
    local b; b=$(git -C "$src" rev-parse -q --verify refs/bisect/bad || echo "$bad_sha")
    [ ${#g[@]} -gt 0 ] || g=("^$good_sha")
    # a read loop, not mapfile (bash 4; macOS has 3.2)
    while IFS= read -r ref; do left+=("$ref"); done < <(git -C "$src" rev-list "$b" "${g[@]}")
  fi
  local fsubj=""
  [ -n "$first" ] && fsubj=$(git -C "$src" log -1 --format=%s "$first")
  jq -s --arg st "$status" --arg f "$first" --arg fs "$fsubj" --arg g "$good_sha" --arg b "$bad_sha" \
     --argjson lim "$time_limit" --argjson el "$(($(date +%s) - start))" \
     --argjson checks "$(jq -Rsc 'split("\n") | map(select(length > 0) | split("\t")
                         | {name: .[0], kind: .[1], (if .[1] == "perf" then "benchmark" else "test" end): .[2]}
                           + (if .[3] != "" then {mode: .[3]} else {} end))' "$work/checks.tsv")" \
     --argjson left "$(printf '%s\n' ${left[@]+"${left[@]}"} | jq -Rsc 'split("\n") | map(select(length > 0))')" \
     '{bisect: {status: $st, good: $g, bad: $b, time_limit_min: $lim, elapsed_s: $el,
                first_bad: (if $f == "" then null else {commit: $f, subject: $fs} end),
                checks: $checks, remaining: $left,
                tested: (sort_by(.position) | group_by(.commit) | sort_by(.[0].position)
                         | map({commit: .[0].commit, subject: .[0].subject, position: .[0].position,
                                result: (if any(.result == "bad") then "bad" elif all(.result == "good") then "good" else "skip" end),
                                evidence: map(del(.commit, .subject, .position))}))}}' \
     "$work/evidence.jsonl" >"$out/bisect.json" || return 1
  jq -r --arg st "$status" --arg tl "$(bisect_left)" "
    .bisect as \$r |
    (if \$st == \"found\" then \"bisect: first bad commit: \(\$r.first_bad.commit[0:12]) \(\$r.first_bad.subject) (checks: \([\$r.checks[].name] | join(\", \")))\"
     elif \$st == \"not_reproduced\" then \"bisect: no culprit: the bad end \(\$r.bad[0:12]) passes the checks here (not reproduced)\"
     elif \$st == \"bad_end_unjudged\" then \"bisect: no culprit: the bad end \(\$r.bad[0:12]) could not be judged (\([\$r.tested[] | select(.commit == \$r.bad) | .evidence[] | (.why // .evidence.why // empty)] | first // \"build failed, or perf stayed inconclusive\"))\"
     elif \$st == \"good_end_bad\" then \"bisect: no culprit in the range: the good end \(\$r.good[0:12]) already fails\"
     elif \$st == \"ambiguous\" then \"bisect: no single culprit: skipped commits leave \(\$r.remaining | length) candidates: \([\$r.remaining[][0:12]] | join(\" \"))\"
     else \"bisect: time limit reached: the first bad commit is one of \(\$r.remaining | length): \([\$r.remaining[][0:12]] | join(\" \"))\" end),
    \"\",
    \"| # | commit | subject | check | result | evidence |\",
    \"|---|---|---|---|---|---|\",
    (\$r.tested[] | . as \$c | .evidence[] |
      \"| \(\$c.position) | \(\$c.commit[0:12]) | \(\$c.subject) | \(.check) | \(.result) | \($bisect_evidence_jq) |\")
  " "$out/bisect.json" >"$out/bisect.md" || return 1
  echo
  cat "$out/bisect.md"
  echo
  echo "bisect: wrote $out/bisect.json and $out/bisect.md"
}
