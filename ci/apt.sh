# ci/apt.sh — apt-get that waits for the package manager's locks (sourced by
# ci/provision and ci/randomx-source, not run).
# shellcheck shell=bash
#
# bg_apt_get ARGS...: ${BG_AS_ROOT[@]} apt-get -o DPkg::Lock::Timeout=<s> ARGS
#   (BG_AS_ROOT: an array, e.g. (sudo -n); unset or empty when already root).
#   Another apt or dpkg (at boot: unattended-upgrades, apt-daily) holds
#   /var/lib/dpkg/lock-frontend and /var/lib/apt/lists/lock (fcntl locks), and
#   apt-get without a timeout stops at once: "E: Could not get lock
#   /var/lib/dpkg/lock-frontend. It is held by process N (...)", exit 100.
#   - DPkg::Lock::Timeout (seconds; apt >= 1.9.11, listed in apt's
#     /usr/share/doc/apt/examples/configure-index as dpkg::lock::timeout; apt's
#     NEWS.Debian for 1.9.11: only apt(8) waits by default) makes apt-get wait
#     for the dpkg frontend lock (install, remove);
#   - `apt-get update` takes the lists lock, which that option does not cover
#     (apt 2.6.1, measured: it still exits 100 at once): while apt-get's error
#     says "Could not get lock", it is run again every 2 s.
#   Both wait at most $BG_APT_LOCK_TIMEOUT seconds (default 600).  apt-get's
#   stderr is shown once it is done; its exit status is returned.
#   Exit 2: BG_APT_LOCK_TIMEOUT is not a whole number.
bg_apt_get() {
  local wait=${BG_APT_LOCK_TIMEOUT:-600} err rc t0 said=0
  case "$wait" in
    ''|*[!0-9]*) echo "buildgate: ci/provision: BG_APT_LOCK_TIMEOUT: '$wait' is not a whole number of seconds" >&2
                 return 2 ;;
  esac
  err=$(mktemp "${TMPDIR:-/tmp}/bg-apt.XXXXXX") || return 3
  t0=$(date +%s)
  while :; do
    rc=0
    ${BG_AS_ROOT[@]+"${BG_AS_ROOT[@]}"} apt-get -o DPkg::Lock::Timeout="$wait" "$@" 2>"$err" || rc=$?
    if [ "$rc" -ne 0 ] && grep -q 'Could not get lock' "$err" && [ $(($(date +%s) - t0)) -lt "$wait" ]; then
      if [ "$said" = 0 ]; then
        printf 'provision: apt-get %s: waiting up to %ss for the lock (%s)\n' "$1" "$wait" \
          "$(grep -m 1 'Could not get lock' "$err" | sed 's/^E: //')"
        said=1
      fi
      sleep 2
      continue
    fi
    cat "$err" >&2
    rm -f "$err"
    return "$rc"
  done
}
