#!/bin/sh
# feature-false-runner.sh — a mutant runner for the self-test
# nan.selftest.probe_feature_contradiction: runs the rest of its arguments
# (the guest) and rewrites the probe's "features" to claim AVX is absent
# ("avx":true -> false) while the VEX records stay; on a guest CPU without
# AVX it claims SSE4.1 is absent instead (its ops' records stay).  nan-check
# must fail that document as a contradiction, not skip the YMM facts.
# Usage: feature-false-runner.sh COMMAND [ARGS...]
out=$("$@")
rc=$?
case $out in
*'"avx":true'*) printf '%s\n' "$out" | sed 's/"avx":true/"avx":false/' ;;
*) printf '%s\n' "$out" | sed 's/"sse41":true/"sse41":false/' ;;
esac
exit $rc
