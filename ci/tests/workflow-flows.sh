#!/usr/bin/env bash
# workflow-flows.sh — the workflows of .github/ run end to end here by
# bg-workflow-run (the steps as GitHub's runner runs them: docs/ci.md
# "Emulating the workflows"), with stand-ins for what needs a real runner:
# ci/gate (writes the results.json planted for its host), ci/provision,
# ci/update-baselines and ci/open-pr (records what the PR would hold), cmake
# (puts the real bg-report / nan-check where the workflow builds them), sudo.
# bg-report --merge and ci/adopt-known are the real ones.  Seconds, no build.
#
# Usage: workflow-flows.sh CASE BG_CHECK BG_RUN BG_REPORT NAN_CHECK ROOT WORK [--mutant]
#   CASE pr          gate.yml on a pull request: four hosts, gate-ubuntu-24.04-arm
#                    planted to disagree (one KAT) -> the gate jobs pass, `agree`
#                    fails AND its summary, naming both hosts, is in its step
#                    summary; every gate job got --base <the merge-base>
#        push        gate.yml on a push to main: the hosts agree, agree passes,
#                    no --base, the asan job skipped
#        lone        gate.yml with one host's report only (three gate jobs stop
#                    before it): agree fails on agree.hosts with its summary
#                    (download-artifact put the lone artifact into path itself)
#        comment     pr (above), then pr-comment.yml twice on its workflow_run
#                    (stand-in gh api keeping the PR's comments): one comment,
#                    posted then updated, with agree's report.md, @mentions
#                    neutralised
#        none        gate.yml where no gate job leaves a report: agree fails, its
#                    summary says so (no artifact matched: nothing downloaded)
#        baselines   update-baselines.yml: four recordings, then the PR of the
#                    four baselines/<key>.json (stand-in ci/open-pr)
#        adopt       a gate run whose two Linux hosts propose known lines, then
#                    adopt-known.yml on that run: both adopted, one PR of fixtures/
#        adopt_lone  the same with one gate-* artifact only (the others stopped
#                    before their report): its lines adopted, not "no
#                    proposed-known files"
#        history     gate.yml's schedule, twelve nights (a commit each), the four
#                    hosts' perf value +5 % from night 8: job history carries the
#                    perf-history artifact from night to night (stand-in gh api
#                    finding the newest one) and fails on night 12 naming the
#                    slowdown between night 7's and night 8's commits; the artifact
#                    then holds 48 runs; night 13 with that step acknowledged in
#                    suites/perf_budgets/history_acknowledged.json: history passes
#        history_corrupt  night 1, then its perf-history artifact cut short: night 2's
#                    history fails in one line naming it, uploads no perf-history,
#                    and night 1's artifact is left as it was
#   ROOT      the source tree: its .github/ and ci/adopt-known are the ones run
#   --mutant  CASE against a copy of .github/ with the fix taken out (pr:
#             gate.yml's `|| rc=$?`; lone: its folder for a lone artifact;
#             none: its summary line without a report;
#             adopt_lone: adopt-known.yml's lone-artifact line; history: the
#             query that finds the previous perf-history artifact;
#             history_corrupt: the upload's condition that the history was read; comment:
#             pr-comment.yml that never finds its earlier comment): passes
#             only when the checks of CASE fail
# Records one check <test name> (suite ci): expected vs observed facts.
# Exit: 0 pass, 1 the check failed, 2 usage, 3 I/O.
set -u
[ $# -ge 7 ] || { echo "buildgate: workflow-flows.sh: want CASE BG_CHECK BG_RUN BG_REPORT NAN_CHECK ROOT WORK [--mutant]" >&2; exit 2; }
case_=$1 check=$2 emu=$3 report=$4 nancheck=$5 root=$6 work=$7
name=${BG_TEST_NAME:-ci.selftest.workflow_$case_}
rm -rf "$work" && mkdir -p "$work" || exit 3
work=$(cd "$work" && pwd)
abs() { (cd "$(dirname "$1")" && printf '%s/%s' "$(pwd)" "$(basename "$1")"); }
check=$(abs "$check") emu=$(abs "$emu") report=$(abs "$report") nancheck=$(abs "$nancheck") root=$(cd "$root" && pwd)
gh=$root/.github

if [ "${8:-}" = --mutant ]; then
  # a tree whose .github/ is the mutant; the rest is ROOT's
  mkdir -p "$work/mutant" && cp -R "$gh" "$work/mutant/.github" && ln -s "$root/ci" "$root/lib" "$root/fixtures" "$root/suites" "$work/mutant/" ||
    exit 3
  case "$case_" in
    pr) f=workflows/gate.yml; sed_script='s/ --expect-hosts "\$HOSTS" || rc=\$?$/ --expect-hosts "$HOSTS"/' ;;
    none) f=workflows/gate.yml; sed_script='/no report: no gate job left a results.json/d' ;;
    lone) f=workflows/gate.yml; sed_script='s/if \[ -f "\$hosts\/results.json" \]/if false/' ;;
    comment) f=workflows/pr-comment.yml; sed_script='s/startswith(\\"\$marker\\")/startswith(\\"x\\")/' ;;
    adopt_lone) f=workflows/adopt-known.yml; sed_script='/^            dirs=("\$run_dir\/proposed-known")$/d' ;;
    history) f=workflows/gate.yml; sed_script='s/artifacts?name=perf-history&/artifacts?name=perf-history-gone\&/' ;;
    history_corrupt) f=workflows/gate.yml; sed_script="s/if: \${{ always() \&\& steps.append.outputs.readable == 'true' }}/if: always()/" ;;
    *) echo "buildgate: workflow-flows.sh: no mutant of $case_" >&2; exit 2 ;;
  esac
  sed "$sed_script" "$gh/$f" >"$work/mutant/.github/$f" || exit 3
  if cmp -s "$gh/$f" "$work/mutant/.github/$f"; then
    observed="the mutation did not apply to $f (the workflow changed: update workflow-flows.sh)"
  else
    BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$case_" "$check" "$emu" "$report" "$nancheck" \
      "$work/mutant" "$work/run" >"$work/mutant.out" 2>&1
    rc=$?
    observed="exit $rc"
    [ "$rc" = 1 ] && grep -q '"verdict": *"fail"' "$work/mutant.jsonl" && observed="the flow's check fails"
  fi
  exec "$check" --suite ci --name "$name" --expect-equal "the flow's check fails" "$observed"
fi

# ---- the repository the workflows check out: what the flows need ----
repo=$work/repo flow=$work/flow bin=$work/bin
mkdir -p "$repo/ci" "$repo/lib/sh" "$repo/fixtures/nan_semantics" "$repo/fixtures/memory_order" "$repo/baselines" \
  "$repo/suites/perf_budgets" \
  "$flow/log" "$bin" || exit 3
cp -R "$gh" "$repo/.github" && cp "$root/ci/adopt-known" "$root/ci/common.sh" "$repo/ci/" &&
  cp "$root/lib/sh/bg_cli.sh" "$repo/lib/sh/" && cp -R "$root/fixtures/nan_semantics/known" "$repo/fixtures/nan_semantics/" &&
  cp "$root/fixtures/memory_order/expectations.json" "$repo/fixtures/memory_order/" && : >"$repo/baselines/.keep" &&
  cp "$root/suites/perf_budgets/history_acknowledged.json" "$repo/suites/perf_budgets/" || exit 3

# the host of a stand-in: the runner label, from the image facts of its job
cat >"$repo/ci/flow-host.sh" <<'EOF'
case "$ImageOS-$RUNNER_ARCH" in
  ubuntu24-X64) host=ubuntu-24.04 ;; ubuntu24-ARM64) host=ubuntu-24.04-arm ;;
  macos15-ARM64) host=macos-15 ;; macos15-X64) host=macos-15-intel ;; *) host=unknown ;;
esac
EOF
cat >"$repo/ci/gate" <<'EOF'
#!/usr/bin/env bash
# stand-in ci/gate: the report planted for this host ($BG_FLOW/hosts/<label>/)
. "$(dirname "$0")/flow-host.sh"
printf '%s\n' "$*" >"$BG_FLOW/log/gate-$host.args"
dir="" ; while [ $# -gt 0 ]; do [ "$1" = --report-dir ] && dir=$2; shift; done
d=$BG_FLOW/hosts/$host
[ -f "$d/no-report" ] && { echo "buildgate: ci/gate: (stand-in) stopped before the report"; exit 2; }
mkdir -p "$dir" && cp -R "$d/." "$dir/" && printf '# buildgate gate: %s\n' "$host" >"$dir/report.md" &&
  cat "$dir/report.md" >>"$GITHUB_STEP_SUMMARY"
EOF
cat >"$repo/ci/test" <<'EOF'
#!/bin/sh
echo "ci/test (stand-in) $*"
EOF
cat >"$repo/ci/provision" <<'EOF'
#!/bin/sh
echo "ci/provision (stand-in) $*"
mkdir -p build/cache
EOF
cat >"$repo/ci/update-baselines" <<'EOF'
#!/usr/bin/env bash
# stand-in: baselines/<key>.json and the build's bg-host --key
. "$(dirname "$0")/flow-host.sh"
[ "$1" = --approve ] && [ -n "$2" ] || exit 2
key=$(printf '%s' "$host-key" | tr . _)
printf '{"host":"%s","reason":"%s"}\n' "$key" "$2" >"baselines/$key.json"
mkdir -p build/baseline/lib && printf '#!/bin/sh\necho %s\n' "$key" >build/baseline/lib/bg-host &&
  chmod +x build/baseline/lib/bg-host
EOF
cat >"$repo/ci/open-pr" <<'EOF'
#!/usr/bin/env bash
# stand-in ci/open-pr: what the pull request would hold
log=$BG_FLOW/log/open-pr
{ printf 'args:'; printf ' %s' "$@"; printf '\n'; } >>"$log"
while [ $# -gt 0 ]; do case $1 in --*) shift 2 ;; *) git status --porcelain -- "$1" >>"$log"; shift ;; esac; done
EOF
cat >"$bin/cmake" <<'EOF'
#!/bin/sh
# stand-in cmake: the real tool of this build where the workflow builds it
case "$1" in
  -S) while [ $# -gt 0 ]; do [ "$1" = -B ] && mkdir -p "$2"; shift; done ;;
  --build) dir=$2; while [ $# -gt 0 ]; do [ "$1" = --target ] && t=$2; shift; done
    case $t in
      bg-report) mkdir -p "$dir/lib" && ln -sf "$BG_FLOW_BG_REPORT" "$dir/lib/bg-report" ;;
      nan-check) mkdir -p "$dir/suites/nan_semantics" && ln -sf "$BG_FLOW_NAN_CHECK" "$dir/suites/nan_semantics/nan-check" ;;
      bg-perf-history) mkdir -p "$dir/suites/perf_budgets" &&
        ln -sf "$BG_FLOW_BG_PERF_HISTORY" "$dir/suites/perf_budgets/bg-perf-history" ;;
      *) echo "stand-in cmake: no target $t" >&2; exit 1 ;;
    esac ;;
esac
EOF
cat >"$bin/gh" <<'EOF'
#!/bin/sh
# stand-in gh api: the PR's comments in $BG_FLOW/comments.json (an array)
store=$BG_FLOW/comments.json
[ -f "$store" ] || echo '[]' >"$store"
[ "$1" = api ] || { echo "stand-in gh: only gh api" >&2; exit 1; }
shift
method=GET path="" body="" jqf=""
while [ $# -gt 0 ]; do
  case $1 in
    -X | --method) method=$2; shift 2 ;;
    --paginate) shift ;;
    --jq) jqf=$2; shift 2 ;;
    -F | -f) case $2 in body=@*) body=${2#body=@} ;; esac; shift 2 ;;
    *) path=$1; shift ;;
  esac
done
echo "$method $path" >>"$BG_FLOW/log/gh"
case "$method $path" in
  "GET "*/actions/artifacts\?name=*)
    # the newest run of the emulator's store holding an artifact of that name
    a=${path#*name=}; a=${a%%&*}; id=""
    for d in "$BG_FLOW_RUNNER"/runs/*/artifacts/"$a"; do
      [ -d "$d" ] || continue
      r=${d%/artifacts/*}; r=${r##*/}; { [ -z "$id" ] || [ "$r" -gt "$id" ]; } && id=$r
    done
    # an expired one and a fork pull request's come first: the workflow must pass them over
    if [ -n "$id" ]; then printf '{"artifacts":[%s,%s,{"name":"%s","expired":false,"workflow_run":{"id":%s,"head_branch":"main","repository_id":1,"head_repository_id":1}}]}' \
      '{"name":"x","expired":true,"workflow_run":{"id":999,"head_branch":"main","repository_id":1,"head_repository_id":1}}' \
      '{"name":"x","expired":false,"workflow_run":{"id":998,"head_branch":"main","repository_id":1,"head_repository_id":2}}' "$a" "$id"
    else printf '{"artifacts":[]}'; fi | jq -r "${jqf:-.}" ;;
  "GET "*/issues/*/comments) jq -r "${jqf:-.}" "$store" ;;
  "POST "*/issues/*/comments)
    n=$(jq length "$store")
    jq --rawfile b "$body" --argjson id "$((n + 1))" '. + [{id: $id, user: {login: "github-actions[bot]"}, body: $b}]' \
      "$store" >"$store.new" && mv "$store.new" "$store" ;;
  "PATCH "*/issues/comments/*)
    jq --rawfile b "$body" --argjson id "${path##*/}" 'map(if .id == $id then .body = $b else . end)' \
      "$store" >"$store.new" && mv "$store.new" "$store" ;;
  *) echo "stand-in gh: $method $path not stood in for" >&2; exit 1 ;;
esac
EOF
cat >"$bin/sudo" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done
exec "$@"
EOF
chmod +x "$repo/ci/gate" "$repo/ci/test" "$repo/ci/provision" "$repo/ci/update-baselines" "$repo/ci/open-pr" "$bin/cmake" "$bin/sudo" \
  "$bin/gh" || exit 3

g() { git -C "$repo" -c user.name=flow -c user.email=flow@example.invalid "$@" >/dev/null 2>&1; }
g init -q -b main && g add -A && g commit -q -m base || exit 3
merge_base=$(git -C "$repo" rev-parse HEAD)

# the four hosts' reports: lib/tests/data/merge/host.json under its own host key
hosts="ubuntu-24.04 ubuntu-24.04-arm macos-15 macos-15-intel"
for h in $hosts; do
  mkdir -p "$flow/hosts/$h" &&
    sed 's/"host":{"key":"[^"]*"/"host":{"key":"'"$h"'-key"/' "$root/lib/tests/data/merge/host.json" \
      >"$flow/hosts/$h/results.json" || exit 3
done
P=$'proposed, not reviewed; observed 2026-12-01 on a workflow flow with qemu-x86_64 version 99.1.0; ops addss; 3 cases; test t'
propose() { # HOST VERSION: a nan line proposed by HOST for qemu-x86_64 VERSION
  mkdir -p "$flow/hosts/$1/proposed-known/nan_semantics" &&
    printf 'qemu-x86_64\t>=%s,<%s.1\tmain_thread\taddss\tdefault-nan\t-\t%s\n' "$2" "$2" "$P" \
      >"$flow/hosts/$1/proposed-known/nan_semantics/qemu-x86_64.tsv"
}

# bg-perf-history: beside bg-report's build (<build>/lib/bg-report)
ph=${BG_FLOW_BG_PERF_HISTORY:-$(dirname "$report")/../suites/perf_budgets/bg-perf-history}
export BG_FLOW=$flow BG_FLOW_BG_REPORT=$report BG_FLOW_NAN_CHECK=$nancheck BG_FLOW_BG_PERF_HISTORY=$ph \
  BG_FLOW_RUNNER=$work/runner PATH="$bin:$PATH"
# emulate RUN_ID WORKFLOW EVENT [bg-workflow-run options]: rc, out, jobs (job=result ...)
emulate() {
  local id=$1 wf=$2 ev=$3; shift 3
  "$emu" --repo "$repo" --work "$work/runner" --run-id "$id" --event "$ev" "$@" "$repo/.github/workflows/$wf" \
    >"$work/run-$id.out" 2>&1
  rc=$?
  jobs=$(grep -v -- '-[0-9]*	' "$work/runner/runs/$id/jobs.tsv" 2>/dev/null | tr '\t' '=' | paste -s -d ' ' -)
  echo "== run $id: $wf on $ev: exit $rc: $jobs (log $work/run-$id.out)"
}
# summary RUN_ID JOB: the job's step summary
summary() { cat "$work/runner/runs/$1/jobs/$2/summary.md" 2>/dev/null; }
# bases: how the gate stand-ins were called, one "host: --base X" or "host: no --base" each
bases() {
  for h in $hosts; do
    a=$(cat "$flow/log/gate-$h.args" 2>/dev/null) || { printf '%s: not run; ' "$h"; continue; }
    case " $a " in *" --base "*) b=${a#*--base }; printf '%s: --base %s; ' "$h" "${b%% *}" ;; *) printf '%s: no --base; ' "$h" ;; esac
  done
}

case "$case_" in
  pr | push | lone | none | comment)
    if [ "$case_" = pr ] || [ "$case_" = comment ]; then
      # main moves on after the PR's branch point: the merge-base is the base commit
      g checkout -q -b topic && echo change >"$repo/topic.txt" && g add topic.txt && g commit -q -m topic || exit 3
      head=$(git -C "$repo" rev-parse HEAD)
      g checkout -q main && echo later >"$repo/later.txt" && g add later.txt && g commit -q -m later || exit 3
      base=$(git -C "$repo" rev-parse HEAD)
      printf '{"pull_request":{"number":7,"base":{"sha":"%s","ref":"main"},"head":{"sha":"%s","ref":"topic"}}}\n' \
        "$base" "$head" >"$work/event.json"
      # one host's KAT planted to differ (not the reference host, gate-macos-15)
      sed -i.bak 's/"observed":"639183aae1bf/"observed":"00000000e1bf/' "$flow/hosts/ubuntu-24.04-arm/results.json" || exit 3
      emulate 1 gate.yml pull_request --payload "$work/event.json" --sha "$head" --ref refs/pull/7/merge
    fi
    if [ "$case_" = comment ]; then
      # pr-comment.yml on the gate run's workflow_run, twice (a re-run): one
      # comment, posted then updated, holding agree's report.md, the mention
      # in it neutralised
      printf '\n@someone look\n' >>"$work/runner/runs/1/artifacts/agree/report.md"
      printf '{"workflow_run":{"id":1,"event":"pull_request","conclusion":"failure","head_sha":"%s","head_branch":"topic",%s}}\n' \
        "$head" '"head_repository":{"full_name":"someone/buildgate","owner":{"login":"someone"}},"pull_requests":[{"number":7}]' \
        >"$work/wr.json"
      emulate 2 pr-comment.yml workflow_run --payload "$work/wr.json"
      j1=$jobs
      emulate 3 pr-comment.yml workflow_run --payload "$work/wr.json"
      calls=$(grep -v '^GET' "$flow/log/gh" | sed 's|repos/[^ ]*/issues/|issues/|' | paste -s -d ',' -)
      body=$(jq -r '.[0].body' "$flow/comments.json")
      facts=$(printf '%s' "$body" | head -n 1)
      case $body in *"failure for $head"*) facts="$facts; conclusion and head" ;; esac
      case $body in *"gate-macos-15 (macos-15-key): KAT 1a"*) facts="$facts; the disagreement" ;; esac
      case $body in *"@&#8203;someone"*) facts="$facts; mention neutralised" ;; esac
      expected="comment=success; comment=success; POST issues/7/comments,PATCH issues/comments/1; 1 comment: <!-- buildgate-gate -->; conclusion and head; the disagreement; mention neutralised"
      observed="$j1; $jobs; $calls; $(jq length "$flow/comments.json") comment: $facts"
    elif [ "$case_" = pr ]; then
      s=$(summary 1 agree)
      named=no; case $s in *"gate-macos-15 (macos-15-key): KAT 1a"*"gate-ubuntu-24.04-arm (ubuntu-24.04-arm-key): KAT 1a"*) named=yes ;; esac
      art=no; [ -f "$work/runner/runs/1/artifacts/agree/report.md" ] && art=yes
      expected="exit 1; gate=success asan=skipped agree=failure history=skipped; agree's summary names gate-macos-15 and gate-ubuntu-24.04-arm: yes; artifact agree/report.md: yes; $(for h in $hosts; do printf '%s: --base %s; ' "$h" "$merge_base"; done)"
      observed="exit $rc; $jobs; agree's summary names gate-macos-15 and gate-ubuntu-24.04-arm: $named; artifact agree/report.md: $art; $(bases)"
    elif [ "$case_" = push ]; then
      emulate 2 gate.yml push --ref refs/heads/main
      verdict=$(summary 2 agree | grep -m 1 '^# buildgate cross-host agreement' | sed 's/.*: //')
      expected="exit 0; gate=success asan=skipped agree=success history=skipped; agree's summary says PASS; $(for h in $hosts; do printf '%s: no --base; ' "$h"; done)"
      observed="exit $rc; $jobs; agree's summary says $verdict; $(bases)"
    elif [ "$case_" = none ]; then
      for h in $hosts; do : >"$flow/hosts/$h/no-report"; done
      emulate 3 gate.yml push --ref refs/heads/main
      seen=no; case $(summary 3 agree) in *"no gate job left a results.json"*) seen=yes ;; esac
      expected="exit 1; gate=failure asan=skipped agree=failure history=skipped; agree's summary says no gate job left a results.json: yes"
      observed="exit $rc; $jobs; agree's summary says no gate job left a results.json: $seen"
    else
      for h in ubuntu-24.04-arm macos-15 macos-15-intel; do : >"$flow/hosts/$h/no-report"; done
      emulate 3 gate.yml push --ref refs/heads/main
      s=$(summary 3 agree)
      seen=no; case $s in *'`agree.hosts` | fail'*) seen=yes ;; esac
      expected="exit 1; gate=failure asan=skipped agree=failure history=skipped; agree's summary has agree.hosts fail: yes"
      observed="exit $rc; $jobs; agree's summary has agree.hosts fail: $seen"
    fi ;;
  baselines)
    emulate 4 update-baselines.yml workflow_dispatch --input "reason=flow test"
    pr=$(grep -c '^args: --branch buildgate/baselines-4 ' "$flow/log/open-pr" 2>/dev/null)
    files=$(grep -c -E '^(\?\?|A ) baselines/.*-key\.json$' "$flow/log/open-pr" 2>/dev/null)
    expected="exit 0; record=success pull-request=success; 1 PR on buildgate/baselines-4 with 4 new baselines/<key>.json"
    observed="exit $rc; $jobs; ${pr:-0} PR on buildgate/baselines-4 with ${files:-0} new baselines/<key>.json"
    ;;
  adopt | adopt_lone)
    propose ubuntu-24.04 99.1
    if [ "$case_" = adopt ]; then
      propose ubuntu-24.04-arm 99.3
      want_hosts="gate-ubuntu-24.04-arm: adopted; gate-ubuntu-24.04: adopted; " want_lines=2
    else
      for h in ubuntu-24.04-arm macos-15 macos-15-intel; do : >"$flow/hosts/$h/no-report"; done
      want_hosts="the run's one gate artifact: adopted; " want_lines=1
    fi
    emulate 5 gate.yml push --ref refs/heads/main
    emulate 6 adopt-known.yml workflow_dispatch --input run_id=5 --input "reason=flow test"
    adopted=$(summary 6 adopt | sed -n -E "s/^- (.*): (adopted|not adopted).*/\\1: \\2; /p" | tr -d '\n')
    pr=$(grep -c '^args: --branch buildgate/known-5-6 ' "$flow/log/open-pr" 2>/dev/null)
    changed=$(grep -c '^ M fixtures/nan_semantics/known/qemu-x86_64.tsv$' "$flow/log/open-pr" 2>/dev/null)
    lines=$(grep -c 'adopted .* by bg-workflow-run (GitHub): flow test (gate run 5' \
      "$work/runner/runs/6/jobs/adopt/workspace/fixtures/nan_semantics/known/qemu-x86_64.tsv" 2>/dev/null)
    expected="adopt=success; ${want_hosts}${want_lines} lines adopted; 1 PR on buildgate/known-5-6 changing qemu-x86_64.tsv: 1"
    observed="adopt=${jobs##*adopt=}; ${adopted}${lines:-0} lines adopted; ${pr:-0} PR on buildgate/known-5-6 changing qemu-x86_64.tsv: ${changed:-0}"
    ;;
  history | history_corrupt)
    [ -x "$BG_FLOW_BG_PERF_HISTORY" ] || { echo "buildgate: workflow-flows.sh: no bg-perf-history at $BG_FLOW_BG_PERF_HISTORY (build it)" >&2; exit 3; }
    # night K: a commit on main, each host's perf value (+5 % from night 8, noise +-0.3 %)
    night() {
      echo "night $1" >"$repo/night.txt" && g add -A && g commit -q -m "night $1" || exit 3
      sha=$(git -C "$repo" rev-parse HEAD)
      v=$(awk -v k="$1" 'BEGIN { printf "%.3f", 1000 * (k >= 8 ? 1.05 : 1) * (1 + ((k * 37) % 7 - 3) / 1000) }')
      for h in $hosts; do
        sed 's/"host":{"key":"[^"]*"/"host":{"key":"'"$h"'-key"/' "$root/lib/tests/data/merge/host.json" |
          sed '$s/^]}$/,{"suite":"perf_budgets","name":"perf.baseline.synth\/chain","verdict":"pass","details":{"metric":"real_time","median_head":'"$v"',"n_head":6}}\
]}/' >"$flow/hosts/$h/results.json" || exit 3
      done
      emulate $((10 + $1)) gate.yml schedule --sha "$sha" --ref refs/heads/main
    }
    if [ "$case_" = history_corrupt ]; then
      night 1
      first=${jobs##*history=}
      a=$work/runner/runs/11/artifacts/perf-history/history.json
      [ -f "$a" ] && head -c 200 "$a" >"$a.cut" && mv "$a.cut" "$a" && cp "$a" "$work/cut.json" || exit 3
      night 2
      said=no
      grep -q "^buildgate: gate.yml/history: the perf-history of run 11 is unreadable (buildgate: bg-perf-history: .*): nothing appended, nothing uploaded, run 11's artifact left as it is" \
        "$work/run-12.out" && said=yes
      up=no; [ -e "$work/runner/runs/12/artifacts/perf-history" ] && up=yes
      kept=no; cmp -s "$a" "$work/cut.json" && kept=yes
      expected="night 1: history=success; night 2: history=failure; one line naming run 11's unreadable history: yes; night 2 uploaded a perf-history: no; night 1's artifact as it was: yes"
      observed="night 1: history=${first%% *}; night 2: history=${jobs##*history=}; one line naming run 11's unreadable history: $said; night 2 uploaded a perf-history: $up; night 1's artifact as it was: $kept"
    else
      for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
        night "$k"
        [ "$k" = 7 ] && sha7=$sha
        [ "$k" = 8 ] && sha8=$sha
        [ "$k" = 1 ] && first=${jobs##*history=}
      done
      s=$(summary 22 history)
      named=no
      case $s in *slowdown*"perf.baseline.synth/chain"*"\`${sha7%"${sha7#????????????}"}\`..\`${sha8%"${sha8#????????????}"}\`"*) named=yes ;; esac
      runs=$(jq '.runs | length' "$work/runner/runs/22/artifacts/perf-history/history.json" 2>/dev/null)
      twelfth=${jobs##*history=}
      # the step accepted: committed in the acknowledgement file, night 13 passes
      printf '{"schema": 1, "acknowledged": [{"check": "perf.baseline.synth/chain", "good": "%s", "bad": "%s", "reason": "a flow test accepts it"}]}\n' \
        "$sha7" "$sha8" >"$repo/suites/perf_budgets/history_acknowledged.json" || exit 3
      night 13
      acked=no; case $(summary 23 history) in *"acknowledged slowdown"*"a flow test accepts it"*) acked=yes ;; esac
      expected="night 1: history=success; night 12: history=failure; its summary names the slowdown between nights 7 and 8: yes; the artifact holds 48 runs; night 13, the step acknowledged: history=success, its summary says so: yes"
      observed="night 1: history=${first%% *}; night 12: history=${twelfth}; its summary names the slowdown between nights 7 and 8: $named; the artifact holds ${runs:-no} runs; night 13, the step acknowledged: history=${jobs##*history=}, its summary says so: $acked"
    fi
    ;;
  *) echo "buildgate: workflow-flows.sh: unknown case '$case_'" >&2; exit 2 ;;
esac
echo "expected: $expected"
echo "observed: $observed"
[ "$expected" = "$observed" ] || { echo "--- last emulator log:"; tail -n 60 "$(ls -t "$work"/run-*.out | head -n 1)"; }
"$check" --suite ci --name "$name" --expect-equal "$expected" "$observed"
