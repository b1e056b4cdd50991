#!/bin/sh
# randomx-source-debsrc.sh — ci/randomx-source's deb-src entry on stand-in
# hosts: a fake root (BG_PROVISION_ROOT: etc/apt/) and stand-in apt-get, id and
# uname first in PATH.  The stand-in apt-get logs its calls, `update` exits 0,
# `source` exits 100 ("E: stand-in: no archive"), so every case ends at the
# missing .dsc (exit 2) after the entry was written.
#   oneline  /etc/apt/sources.list in the one-line format (debootstrap, the
#            Debian 12 installer), with an option, a cdrom: entry and a
#            commented deb-src: buildgate-src.list holds the two deb lines as
#            deb-src (options kept, cdrom: left out) and apt-get update ran
#   deb822   sources.list.d/debian.sources (Docker's debian:12):
#            buildgate-src.sources with Types: deb-src, the rest unchanged
#   present  a deb-src line exists already: nothing written, no update
#   none     no deb entry anywhere: one line saying so, nothing written
# (a fresh-chroot trial found the oneline case: main said "no deb-src entry and
# no debian.sources/ubuntu.sources to mirror" and built no digest variant)
#
# Usage: randomx-source-debsrc.sh BG_CHECK RANDOMX_SOURCE WORK
# Checks (suite ci): <test>.<case>, expected vs observed.
# Exit: 0 pass, 1 a check failed, 2 usage, 3 I/O.
set -u
[ $# -eq 3 ] || { echo "buildgate: randomx-source-debsrc.sh: want BG_CHECK RANDOMX_SOURCE WORK" >&2; exit 2; }
check=$1 rs=$2 work=$3
n=${BG_TEST_NAME:-ci.selftest.randomx_source_debsrc}
rm -rf "$work" && mkdir -p "$work/bin" || exit 3
work=$(cd "$work" && pwd) || exit 3
cat >"$work/bin/apt-get" <<'EOF' || exit 3
#!/bin/sh
echo "$*" >>"$BGT_LOG"
case " $* " in
  *" source "*) echo "E: stand-in: no archive" >&2; exit 100 ;;
esac
exit 0
EOF
printf '#!/bin/sh\necho 0\n' >"$work/bin/id" || exit 3
printf '#!/bin/sh\necho Linux\n' >"$work/bin/uname" || exit 3
chmod +x "$work/bin/apt-get" "$work/bin/id" "$work/bin/uname" || exit 3
rc_all=0

# run_case NAME: ci/randomx-source --version v1 on $work/NAME/root; sets rc, err
run_case() {
  r=$work/$1
  BGT_LOG=$r/apt.log BG_PROVISION_ROOT=$r/root BG_RANDOMX_CACHE=$r/cache PATH="$work/bin:$PATH" \
    "$rs" --version v1 >"$r/out" 2>"$r/err"
  rc=$?
  err=$(cat "$r/err")
}

# record NAME EXPECTED OBSERVED
record() {
  v=fail
  [ "$2" = "$3" ] && v=pass
  [ "$v" = pass ] || rc_all=1
  "$check" --suite ci --name "$n.$1" --verdict "$v" --expected "$2" --observed "$3"
  [ $? -le 1 ] || exit 3 # 1: the fail just recorded
}

die_dsc="buildgate: ci/randomx-source: apt-get source --download-only librandomx gave no .dsc/.orig tarball: E: stand-in: no archive"

# oneline
mkdir -p "$work/oneline/root/etc/apt/sources.list.d" || exit 3
cat >"$work/oneline/root/etc/apt/sources.list" <<'EOF' || exit 3
# written by debootstrap, edited
deb cdrom:[Debian GNU/Linux 12.8.0 _Bookworm_]/ bookworm main
deb http://deb.debian.org/debian bookworm main
  deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
# deb-src http://deb.debian.org/debian bookworm main
EOF
run_case oneline
want="exit 2; $die_dsc; buildgate-src.list: deb-src http://deb.debian.org/debian bookworm main|deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main|; apt-get update ran"
got_list=$(grep -v '^#' "$work/oneline/root/etc/apt/sources.list.d/buildgate-src.list" 2>/dev/null | tr '\n' '|')
upd="apt-get update did not run"
grep -qw update "$work/oneline/apt.log" 2>/dev/null && upd="apt-get update ran"
record oneline "$want" "exit $rc; $err; buildgate-src.list: $got_list; $upd"

# deb822
mkdir -p "$work/deb822/root/etc/apt/sources.list.d" || exit 3
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
  >"$work/deb822/root/etc/apt/sources.list.d/debian.sources" || exit 3
run_case deb822
got_src=$(tr '\n' '|' <"$work/deb822/root/etc/apt/sources.list.d/buildgate-src.sources" 2>/dev/null)
record deb822 "exit 2; $die_dsc; buildgate-src.sources: Types: deb-src|URIs: http://deb.debian.org/debian|Suites: bookworm bookworm-updates|Components: main|Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg|" \
  "exit $rc; $err; buildgate-src.sources: $got_src"

# present
mkdir -p "$work/present/root/etc/apt/sources.list.d" || exit 3
printf 'deb http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian bookworm main\n' \
  >"$work/present/root/etc/apt/sources.list" || exit 3
run_case present
written=$(ls "$work/present/root/etc/apt/sources.list.d")
upd=no
grep -qw update "$work/present/apt.log" 2>/dev/null && upd=yes
record present "exit 2; $die_dsc; written: ; update: no" "exit $rc; $err; written: $written; update: $upd"

# none
mkdir -p "$work/none/root/etc/apt/sources.list.d" || exit 3
printf '# nothing\n' >"$work/none/root/etc/apt/sources.list" || exit 3
run_case none
written=$(ls "$work/none/root/etc/apt/sources.list.d")
record none "exit 2; buildgate: ci/randomx-source: no deb-src entry, and no deb entry to mirror (in $work/none/root/etc/apt/sources.list, sources.list.d/*.list, debian.sources or ubuntu.sources); written: " \
  "exit $rc; $err; written: $written"
exit "$rc_all"
