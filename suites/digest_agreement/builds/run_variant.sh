#!/bin/sh
# run_variant.sh — runs one tool of a build variant, or says why it cannot.
#
# Usage: run_variant.sh --variant NAME BG_CHECK VARIANT_DIR EMULATOR TOOL [ARGS...]
#   NAME         the build variant (CMake passes it; never read from a path or test name)
#   BG_CHECK     the host's bg-check (records the check when the tool cannot run)
#   VARIANT_DIR  <build>/suites/digest_agreement/builds/<variant>
#   EMULATOR     "-" (native) or the emulator command, e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu";
#                "!<reason>" when the variant cannot be built or run here (no cross
#                compiler, no emulator): records a skip with <reason>, exits 77
#   TOOL         bg-digest-check | bg-aes-flags | bg-aes-insns (in VARIANT_DIR/probe)
# When the variant's RandomX or probe did not build (VARIANT_DIR/{rx,probe}.FAILED,
# written by cmake/BuildgateStep.cmake), records check $BG_TEST_NAME.build =
# fail with that one line and exits 1.  When the tool was not built (e.g. no
# Capstone for bg-aes-insns), records a skip and exits 77.  Otherwise execs
# [EMULATOR] TOOL ARGS.
if [ "$#" -lt 6 ] || [ "$1" != --variant ]; then
  echo "buildgate: run_variant.sh: usage: run_variant.sh --variant NAME BG_CHECK VARIANT_DIR EMULATOR TOOL [ARGS...]" >&2
  exit 2
fi
v=$2 check=$3 dir=$4 emu=$5 tool=$6
shift 6
case "$emu" in
  !*)
    why=${emu#!}
    echo "buildgate: build variant $v: $why" >&2
    "$check" --suite digest_agreement --name "$BG_TEST_NAME.build" --verdict skip \
      --expected "a host that builds and runs variant $v" --observed "$why"
    exit 77 ;;
esac
for f in "$dir/rx.FAILED" "$dir/probe.FAILED"; do
  if [ -f "$f" ]; then
    line=$(head -1 "$f")
    echo "buildgate: build variant $v: $line" >&2
    "$check" --suite digest_agreement --name "$BG_TEST_NAME.build" --verdict fail \
      --expected "variant $v built" --observed "$line"
    exit 1
  fi
done
if [ ! -x "$dir/probe/$tool" ]; then
  why="$tool was not built for variant $v (see $dir/probe-configure.log)"
  echo "buildgate: build variant $v: $why" >&2
  "$check" --suite digest_agreement --name "$BG_TEST_NAME.build" --verdict skip \
    --expected "$tool built" --observed "$why"
  exit 77
fi
# $emu is a command with arguments: word splitting intended
# shellcheck disable=SC2086
[ "$emu" = - ] && emu=""
exec $emu "$dir/probe/$tool" "$@"
