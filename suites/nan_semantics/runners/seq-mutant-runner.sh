#!/bin/sh
# seq-mutant-runner.sh MUTATION PROBE ARGS... — a deliberately wrong runner
# for the generated-sequence self-tests (nan-seq-selftest): runs the guest
# natively with NAN_SEQ_MUTANT=MUTATION, which makes nan-probe --sequences
# emit one op wrongly, as a translator with that bug would run it
# (nan_seq_jit.h: copy:FROM:TO, flags-lost:OP).  nan-seq must fail and
# shrink the deviating blocks to a few steps that contain the op.
NAN_SEQ_MUTANT=$1
export NAN_SEQ_MUTANT
shift
exec "$@"
