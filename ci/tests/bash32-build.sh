#!/bin/sh
# bash32-build.sh — the bash of macOS (3.2) on this host, for running the ci/
# scripts under it (ci/tests/bash32.sh, CTest ci.unit.bash32; docs/ci.md
# "bash 3.2 and BSD userland").  Prints the path of that bash on stdout.
#
# Usage: ci/tests/bash32-build.sh [--dir DIR]
#   --dir DIR  the cache entry (default $BG_BASH32_DIR, else
#              <repo>/build/cache/bash-3.2.48); built once, then reused
# macOS: /bin/bash (3.2.57) itself, nothing is built.  Elsewhere GNU bash
# 3.2.48 is built from ../shared/tools/bash-3.2.48.tar.gz (looked for in
# $BG_SHARED_DIR, <repo>/../shared, and beside the main checkout of a git
# worktree; its SHA-256 checked against ../shared/SHA256SUMS when listed):
# its shipped parser is stale, so y.tab.c is made again with bison, then
# ./configure --without-bash-malloc --disable-nls CFLAGS='-O1 -w -std=gnu89'
# and a serial make (its Makefiles race under -j), in DIR.tmp.<pid>; DIR
# holds bin/bash and a stamp, renamed into place when whole.  About a
# minute on an idle host.  Two trees building at once: the first holds
# DIR.lock (a directory with its pid), the others wait for it and reuse
# its result; a lock whose process is gone is taken over.
# Exit: 0 the path printed; 77 cannot be built here (one line: no tarball,
# no bison/cc/make; CTest records a skip naming it); 2 usage; 3 the build
# failed (its log named).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
me=ci/tests/bash32-build.sh
dir=${BG_BASH32_DIR:-$root/build/cache/bash-3.2.48}
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || { echo "buildgate: $me: --dir: missing value (see $me --help)" >&2; exit 2; }
           dir=$2; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p;}}' "$0"; exit 0 ;;
    *) echo "buildgate: $me: unknown option '$1' (see $me --help)" >&2; exit 2 ;;
  esac
done
skip() { echo "buildgate: $me: $1" >&2; exit 77; }
fail() { echo "buildgate: $me: $1" >&2; exit 3; }
version=3.2.48

# macOS: its own /bin/bash is the one the scripts must run under
if [ "$(uname -s)" = Darwin ]; then
  case "$(/bin/bash -c 'echo "$BASH_VERSION"' 2>/dev/null)" in
    3.2.*) echo /bin/bash; exit 0 ;;
  esac
fi

# ready: bin/bash answers 3.2.48 and the stamp is there (written last)
ready() {
  [ -f "$dir/stamp" ] && [ -x "$dir/bin/bash" ] &&
    case "$("$dir/bin/bash" -c 'echo "$BASH_VERSION"' 2>/dev/null)" in "$version"*) true ;; *) false ;; esac
}
if ready; then echo "$dir/bin/bash"; exit 0; fi

# the tarball: ../shared of this tree, or of the main checkout of a worktree
tarball="" shared=""
common=$(cd "$root" && git rev-parse --git-common-dir 2>/dev/null) &&
  common=$(cd "$root" && cd "$common/../.." 2>/dev/null && pwd)
for s in ${BG_SHARED_DIR:+"$BG_SHARED_DIR"} "$root/../shared" ${common:+"$common/shared"}; do
  if [ -f "$s/tools/bash-$version.tar.gz" ]; then shared=$(cd "$s" && pwd); tarball=$shared/tools/bash-$version.tar.gz; break; fi
done
[ -n "$tarball" ] || skip "no tools/bash-$version.tar.gz in ../shared (nor \$BG_SHARED_DIR, nor beside the main checkout): bash 3.2 not built, the ci/ scripts not run under it"
for t in cc make bison tar gzip; do
  command -v "$t" >/dev/null 2>&1 ||
    skip "$t not found: bash $version cannot be built (Debian/Ubuntu: apt-get install bison build-essential; ci/provision installs them)"
done

# checked against ../shared/SHA256SUMS when it lists the tarball
want=$(sed -n "s|^\([0-9a-f]\{64\}\)  *tools/bash-$version\.tar\.gz\$|\1|p" "$shared/SHA256SUMS" 2>/dev/null)
if [ -n "$want" ]; then
  if command -v sha256sum >/dev/null 2>&1; then got=$(sha256sum "$tarball" | cut -d' ' -f1)
  else got=$(shasum -a 256 "$tarball" | cut -d' ' -f1); fi
  [ "$got" = "$want" ] || fail "$tarball: SHA-256 $got, $shared/SHA256SUMS says $want"
fi

# one builder at a time: DIR.lock holds the builder's pid
mkdir -p "$(dirname "$dir")" || fail "cannot create $(dirname "$dir")"
lock=$dir.lock waited=0
until mkdir "$lock" 2>/dev/null; do
  holder=$(cat "$lock/pid" 2>/dev/null)
  if { [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; } ||
     { [ -z "$holder" ] && [ -n "$(find "$lock" -maxdepth 0 -mmin +2 2>/dev/null)" ]; }; then
    echo "bash32: taking over $lock (its builder${holder:+ $holder} is gone)" >&2
    rm -rf "$lock"; continue
  fi
  [ "$waited" = 0 ] && echo "bash32: another tree is building bash $version (${holder:+pid $holder, }$lock): waiting" >&2
  [ "$waited" -lt 3600 ] || fail "waited an hour for $lock (pid ${holder:-?}): remove it if no build runs"
  sleep 2; waited=$((waited + 2))
done
tmp=$dir.tmp.$$
trap 'rm -rf "$tmp" "$lock"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
echo $$ >"$lock/pid"
if ready; then echo "$dir/bin/bash"; exit 0; fi # built while we waited

log=$dir.build.log
echo "bash32: building bash $version from $tarball into $dir (log: $log; about a minute)" >&2
rm -rf "$tmp" && mkdir -p "$tmp/bin" || fail "cannot create $tmp"
(
  set -e
  cd "$tmp"
  gzip -dc "$tarball" | tar xf -
  cd "bash-$version"
  rm -f y.tab.c y.tab.h
  ./configure --without-bash-malloc --disable-nls CFLAGS='-O1 -w -std=gnu89'
  make
) >"$log" 2>&1 || fail "the build of bash $version failed: $(grep -m 1 -E 'error|Error' "$log" | cut -c1-160) (log: $log)"
cp "$tmp/bash-$version/bash" "$tmp/bin/bash" || fail "no bash in $tmp/bash-$version"
rm -rf "$tmp/bash-$version"
case "$("$tmp/bin/bash" -c 'echo "$BASH_VERSION"' 2>/dev/null)" in
  "$version"*) ;;
  *) fail "the built $tmp/bin/bash does not say $version (log: $log)" ;;
esac
echo "bash $version from $tarball${want:+ (sha256 $want)}" >"$tmp/stamp"
rm -rf "$dir" && mv "$tmp" "$dir" || fail "cannot rename $tmp to $dir"
echo "bash32: built $dir/bin/bash" >&2
echo "$dir/bin/bash"
