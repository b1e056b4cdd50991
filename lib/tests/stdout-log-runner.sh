#!/bin/sh
# stdout-log-runner.sh PROGRAM ARGS... — a runner that writes one log line to
# stdout before it runs the program, as a translator with its log on stdout
# does (box64 with BOX64_LOG >= 1, issue 23): the probes' JSON then follows a
# stray line, which nan-check and litmus-check must quote in their failure.
# Used through BG_X86_RUNNERS by nan.selftest.stdout_log_line and
# memory_order.selftest.stdout_log_line.
echo "[LOG] stdout-log-runner: starting $1"
exec "$@"
