#!/usr/bin/env bash
# Self-test (digest.selftest.v2_source): ci/randomx-source judges a RandomX v2
# tarball by its TREE (fixtures/randomx/v2.0.manifest), not its bytes.
# Usage: v2_source.sh BG_CHECK REPO TARBALL WORK_DIR
#   TARBALL: a verified v2.0 tarball (<BG_RANDOMX_CACHE>/randomx-v2.0.tar.gz);
#   absent: skip (run ci/provision --randomx-source).
# Asserts: the same tree repacked (other bytes) is accepted and kept; one file
# changed, one missing, one extra are each refused (exit 2) in one line naming
# that file, with nothing kept in the cache.
set -uo pipefail
check=$1 repo=$2 tarball=$3 work=$4
outer=${BG_CHECKS_FILE:-/dev/null} me=${BG_TEST_NAME:-digest.selftest.v2_source}
unset BG_CHECKS_FILE
rec() { BG_CHECKS_FILE=$outer "$check" --suite digest_agreement --name "$me.$1" --expect-equal "$2" "$3" || true; }
if [ ! -f "$tarball" ]; then
  BG_CHECKS_FILE=$outer "$check" --suite digest_agreement --name "$me" --verdict skip \
    --expected "a verified RandomX v2.0 tarball" --observed "$tarball missing (run ci/provision --randomx-source)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work/x" || exit 3
tar xzf "$tarball" -C "$work/x" || exit 3
top=$(ls "$work/x")
# pack <name>: the (edited) tree as a tarball with other bytes than upstream's (gzip -1, own order)
pack() { (cd "$work/x" && find "$top" -type f | LC_ALL=C sort -r | tar cf - -T - | gzip -1 >"$work/$1.tar.gz"); }
# source <name>: ci/randomx-source --version v2 on that tarball, into its own cache; rc in $rc
source_run() {
  BG_RANDOMX_CACHE="$work/cache-$1" BG_RANDOMX_V2_TARBALL="$work/$1.tar.gz" \
    "$repo/ci/randomx-source" --version v2 >"$work/$1.out" 2>"$work/$1.err"
  rc=$?
}
kept() { if [ -f "$work/cache-$1/randomx-v2.0.tar.gz" ]; then echo 1; else echo 0; fi; }

pack repacked
rec repacked.bytes_differ 1 "$(cmp -s "$work/repacked.tar.gz" "$tarball" && echo 0 || echo 1)"
source_run repacked
rec repacked.exit 0 "$rc"
rec repacked.kept 1 "$(kept repacked)"

f=src/dataset.cpp
printf '\n' >>"$work/x/$top/$f"
pack changed
source_run changed
rec changed.exit 2 "$rc"
rec changed.one_line 1 "$(wc -l <"$work/changed.err" | tr -d ' ')"
rec changed.names_file 1 "$(grep -c "^buildgate: ci/randomx-source: v2: .*: $f differs (SHA-256 " "$work/changed.err")"
rec changed.nothing_kept 0 "$(kept changed)"
tar xzf "$tarball" -C "$work/x" "$top/$f" || exit 3

f=src/tests/tests.cpp
mv "$work/x/$top/$f" "$work/tests.cpp"
pack missing
source_run missing
rec missing.exit 2 "$rc"
rec missing.names_file 1 "$(grep -c "missing file $f" "$work/missing.err")"
rec missing.nothing_kept 0 "$(kept missing)"
mv "$work/tests.cpp" "$work/x/$top/$f"

: >"$work/x/$top/src/planted.c"
pack extra
source_run extra
rec extra.exit 2 "$rc"
rec extra.names_file 1 "$(grep -c "extra file src/planted.c (not in the manifest)" "$work/extra.err")"
rec extra.nothing_kept 0 "$(kept extra)"
exit 0
