#!/bin/sh
# initial-mutant-runner.sh PRELOAD PROBE ARGS... — a deliberately wrong runner
# for nan.selftest.mutant_initial: starts the guest with FTZ|DAZ set in MXCSR
# and 53-bit x87 precision (PRELOAD: runners/nan_ftzdaz_preload.c built as a
# shared library), as a translator that initialises its guests' FPU state
# wrongly would.  nan-check --context initial must fail mxcsr-initial.
# The YMM mutants (nan.selftest.mutant_ymm_*) run it with PRELOAD
# libnan-ymm.so (runners/nan_ymm_preload.c) and NAN_YMM_MUTANT set;
# nan.selftest.mutant_fault_swallowed with libnan-fault.so
# (runners/nan_fault_preload.c: every #GP dropped, the instruction skipped).
preload=$1
shift
LD_PRELOAD=$preload exec "$@"
