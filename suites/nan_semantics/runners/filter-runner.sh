#!/bin/sh
# filter-runner.sh — a mutant runner for the self-tests: runs the rest of its
# arguments (a real runner's command and the guest, or the guest alone) and
# passes the probe's JSON through `FILTER --mutate KIND`, which changes
# chosen records the way a faulty translator would (nan_mutant.h).
# Usage: filter-runner.sh FILTER KIND COMMAND [ARGS...]
f=$1 k=$2
shift 2
"$@" | "$f" --mutate "$k"
