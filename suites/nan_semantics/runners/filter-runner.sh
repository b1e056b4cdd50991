#!/bin/sh
# filter-runner.sh NAN_MUTATE KIND COMMAND [ARGS...] — the mutant runner of
# the NaN self-tests (nan_selftest.c): runs COMMAND (the guest alone, or a real
# runner's command and the guest) and passes the probe's document through
# `NAN_MUTATE KIND`, which changes it as a translator with that bug would
# (nan-mutate --help lists the kinds and the rule each must trip).
mutate=$1 kind=$2
shift 2
"$@" | "$mutate" "$kind"
