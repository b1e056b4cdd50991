# study-lib.sh — input checks shared by the perf studies (duet-study.sh,
# study.sh, band-scan.sh, suite-aa.sh, aa-raw.sh, duet-table.sh); sourced, not
# run.  Every refusal is one line on stderr and exit 2 (usage), in the lib's
# form (lib/src/bg_help.c):
#   buildgate: <tool>: usage: <synopsis> (see <tool> --help)
#   buildgate: <tool>: <opt>: missing value (see <tool> --help)
#   buildgate: <tool>: <what>: <why> (see <tool> --help)
# <tool> is the script's path as typed from the repository root (e.g.
# suites/perf_budgets/study/duet-study.sh): BG_TOOL of lib/sh/bg_cli.sh.
# shellcheck shell=bash

# The script's name (BG_TOOL) and the refusals (bg_die, bg_need_value):
# lib/sh/bg_cli.sh, as every shell script of the project.
# shellcheck source=lib/sh/bg_cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../../lib/sh/bg_cli.sh"

# study_help_or_usage <min args> <synopsis> "$@": --help prints the header
# comment (exit 0); fewer than <min> arguments is the usage line.
study_help_or_usage() {
  local min=$1 synopsis=$2; shift 2
  case "${1:-}" in
    -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;;
  esac
  [ $# -ge "$min" ] || bg_die "usage: $BG_TOOL $synopsis"
}

# study_bindir <dir> <program>...: <dir> is a build's suites/perf_budgets that
# holds each executable <program>.
study_bindir() {
  local dir=$1 p; shift
  [ -d "$dir" ] || bg_die "BINDIR '$dir': not a directory (want a build's suites/perf_budgets)"
  for p in "$@"; do
    [ -x "$dir/$p" ] || bg_die "BINDIR '$dir': no $p there (want a build's suites/perf_budgets, built)"
  done
}

# study_count <name> <value> [min]: a whole number >= min (default 1).
study_count() {
  case "$2" in
    ''|*[!0-9]*) bg_die "$1: '$2' is not a whole number" ;;
  esac
  [ "$2" -ge "${3:-1}" ] || bg_die "$1: '$2' is below ${3:-1}"
}

# study_file <name> <path>: a readable file.
study_file() {
  [ -f "$2" ] && [ -r "$2" ] || bg_die "$1 '$2': not a readable file"
}

# study_needs <program>...: installed (ci/provision installs them).
study_needs() {
  local p
  for p in "$@"; do
    command -v "$p" >/dev/null || bg_die "$p: not installed (run ci/provision)"
  done
}
