#!/bin/sh
# crash-runner.sh — a runner that dies by SIGSEGV (self-test of crash reporting).
kill -SEGV $$
