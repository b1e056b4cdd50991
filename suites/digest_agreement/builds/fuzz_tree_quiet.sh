#!/bin/sh
# fuzz_tree_quiet.sh — the libFuzzer tree (<build>/fuzz, BG_FUZZ_BUILD=ON, never
# builds RandomX variants) configures without the line "digest build variants:
# none built, …", which read there as an error of the ordinary tree.
#
# Usage: fuzz_tree_quiet.sh BG_CHECK CMAKE SOURCE_DIR FUZZ_TREE
# Check (suite digest_agreement): <test>.configure_output.  Exit 77 (skip) when
# FUZZ_TREE was never configured (no clang + libFuzzer, -DBG_FUZZ=OFF).
set -u
[ $# -eq 4 ] || { echo "buildgate: fuzz_tree_quiet.sh: want BG_CHECK CMAKE SOURCE_DIR FUZZ_TREE" >&2; exit 2; }
check=$1 cmake=$2 src=$3 tree=$4
n=${BG_TEST_NAME:-digest.selftest.fuzz_tree_quiet}
if [ ! -f "$tree/CMakeCache.txt" ]; then
  "$check" --suite digest_agreement --name "$n.configure_output" --verdict skip \
    --expected "the fuzz tree's configure output" --observed "no fuzz tree at $tree (fuzz targets skipped)"
  exit 77
fi
out=$("$cmake" -S "$src" -B "$tree" 2>&1) ||
  { echo "buildgate: fuzz_tree_quiet.sh: configure of $tree failed: $(printf '%s\n' "$out" | grep -m1 -i error)" >&2; exit 3; }
line=$(printf '%s\n' "$out" | grep -m1 'digest build variants' || true)
"$check" --suite digest_agreement --name "$n.configure_output" \
  --expect-equal "no 'digest build variants' line" "${line:-no 'digest build variants' line}"
