#!/bin/sh
# op-mutant-runner.sh NAN_MUTATE MUTATION PROBE ARGS... — a deliberately wrong
# runner for the op-family self-tests (nan_selftest.c, mutant_* scenarios):
# runs the guest natively and rewrites one op's records through nan-mutate as
# a translator with that bug would print them (nan-mutate --help lists them).
mutate=$1
mutation=$2
shift 2
"$@" | "$mutate" "$mutation"
