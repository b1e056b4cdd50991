#!/usr/bin/env bash
# Self-test: bad input to the build variants gives one clear line and never
# stops the other variants (docs/digest_agreement.md "Build variants").
# Usage: bad_input.sh BG_CHECK ROOT WORK
#   WORK: a scratch directory inside the build tree (emptied first)
# Cases: a source dir that is not RandomX; a tarball with a wrong SHA-256 (and
# it is not kept); a tarball with the right SHA-256 that is not RandomX; a file
# with the right SHA-256 that is no archive (configure goes on); a
# malformed SHA-256; a failing build step (recorded, exit 0); the variant's
# test then fails with that one line; a missing cross compiler/emulator skips.
set -uo pipefail
check=$1 root=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
me=${BG_TEST_NAME:-digest.selftest.build_bad_input}
# shellcheck source-path=SCRIPTDIR source=selftest_rec.sh
. "$here/selftest_rec.sh"
rm -rf "$work" && mkdir -p "$work/notrx" "$work/junk" || exit 3
src() { cmake -DROOT="$root" -DWORK="$work/bin" -DSRC="$1" -DSHA="${2:-}" -P "$here/source_probe.cmake" 2>&1 | grep -E "^(dir|error)="; }

out=$(src "$work/notrx")
rec not_randomx_dir "error=$work/notrx is not a RandomX source tree (no src/randomx.h, no project(RandomX) in CMakeLists.txt)" "$out"

echo junk >"$work/junk/README" && tar -czf "$work/junk.tar.gz" -C "$work" junk
sha=$(cmake -E sha256sum "$work/junk.tar.gz" | cut -d' ' -f1)
zero=0000000000000000000000000000000000000000000000000000000000000000
out=$(src "file://$work/junk.tar.gz" $zero)
rec wrong_sha256 "error=file://$work/junk.tar.gz: SHA-256 $sha, expected $zero: not used" "$out"
rec wrong_sha256_not_kept 0 "$(ls "$work/bin/_deps/randomx-download" 2>/dev/null | wc -l)"
out=$(src "file://$work/junk.tar.gz" "$sha")
rec not_randomx_tarball "error=file://$work/junk.tar.gz is not a RandomX source tarball (no src/randomx.h, no project(RandomX))" "$out"
echo "not a tarball" >"$work/garbage.tar.gz"
gsha=$(cmake -E sha256sum "$work/garbage.tar.gz" | cut -d' ' -f1)
out=$(src "file://$work/garbage.tar.gz" "$gsha" | head -1)
pre="error=file://$work/garbage.tar.gz is not a readable tarball ("
rec not_an_archive "$pre" "${out:0:${#pre}}"
out=$(src "file://$work/junk.tar.gz" abc)
rec malformed_sha256 "error=BG_RANDOMX_SOURCE is a URL: BG_RANDOMX_SHA256 must be its 64-hex-digit SHA-256, got 'abc'" "$out"

# a failing step: recorded in <variant>/rx.FAILED, the build goes on (exit 0)
v="$work/broken"
cmake -DOUT="$v" -DWHAT=build -P "$root/cmake/BuildgateStep.cmake" -- cmake -E false >/dev/null 2>&1
rec failed_step_exit 0 "$?"
rec failed_step_line 1 "$(grep -c "^build failed (exit 1): .*(log: $v/build.log)" "$v/rx.FAILED" 2>/dev/null)"
err=$(BG_CHECKS_FILE=/dev/null BG_TEST_NAME=x "$here/run_variant.sh" --variant broken "$check" "$v" - bg-digest-check 2>&1 >/dev/null)
rc=$?
rec failed_variant_exit 1 "$rc"
rec failed_variant_line "1 buildgate: build variant broken: build failed (exit 1)" \
  "$(printf '%s\n' "$err" | grep -c .) $(printf '%s\n' "$err" | head -1 | cut -c1-54)"
err=$(BG_CHECKS_FILE=/dev/null BG_TEST_NAME=x "$here/run_variant.sh" --variant none "$check" "$work/none" \
      '!aarch64-linux-gnu-gcc/g++ not found' bg-digest-check 2>&1 >/dev/null)
rc=$?
rec no_cross_compiler "77 buildgate: build variant none: aarch64-linux-gnu-gcc/g++ not found" "$rc $err"
exit 0
