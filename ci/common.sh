# ci/common.sh — shared by ci/gate and ci/test (sourced, not run).
# shellcheck shell=bash
# Step headers with elapsed time, and configure+build of one build tree.

# BG_ROOT, BG_TOOL (the script's name in its error lines, "buildgate: ci/gate:
# ...": ci/<name>, as the user types it), bg_die and bg_need_value: one place
# for every shell script (lib/sh/bg_cli.sh).
BG_TOOL_OUTSIDE="ci/$(basename "$0")"
# shellcheck source=lib/sh/bg_cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/sh/bg_cli.sh"
BG_T0=$(date +%s)
# BG_JOBS: parallel build and test jobs (default: the CPU count).
BG_JOBS=${BG_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)}
case "$BG_JOBS" in
  ''|*[!0-9]*|0) echo "buildgate: $BG_TOOL: BG_JOBS: '$BG_JOBS' is not a positive whole number of jobs" >&2; exit 2 ;;
esac

# step "<n>/<total>" "<what>": prints a header with the elapsed wall time.
step() {
  local now; now=$(date +%s)
  printf '\n== [%s] %s  (elapsed %ds)\n' "$1" "$2" $((now - BG_T0))
}

# bg_log_cause <log>: the first error line of a configure log, for the one-line
# message (a buildgate line, else the text under the first "CMake Error").
bg_log_cause() {
  local why
  why=$(grep -m 1 -o 'buildgate: .*' "$1" 2>/dev/null)
  [ -n "$why" ] || why=$(grep -m 1 -A 1 'CMake Error' "$1" 2>/dev/null | tail -n 1 | sed 's/^ *//')
  printf '%s' "${why:-see the log}"
}

# bg_configure_build <build-dir> [cmake -D args...]: configure with Ninja and build.
# The configure log goes inside the build tree (<build-dir>/configure.log), never
# beside it; its path is printed.
bg_configure_build() {
  local dir=$1; shift
  mkdir -p "$dir" || { echo "buildgate: $BG_TOOL: configure: cannot create the build tree $dir" >&2; return 3; }
  local log="$dir/configure.log"
  cmake -S "$BG_ROOT" -B "$dir" -G Ninja "$@" >"$log" 2>&1 || {
    cat "$log" >&2
    echo "buildgate: $BG_TOOL: configure: cmake failed: $(bg_log_cause "$log") (log above, also in $log)" >&2
    return 3
  }
  grep -E '^-- buildgate' "$log" || true
  echo "configure log: $log"
  cmake --build "$dir" -j "$BG_JOBS" || {
    echo "buildgate: $BG_TOOL: build: the build failed (output above)" >&2
    return 3
  }
}
