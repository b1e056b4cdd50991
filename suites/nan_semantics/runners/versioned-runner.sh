#!/bin/sh
# versioned-runner.sh — the self-tests' runner of an unlisted version: answers
# --version like a QEMU no known line covers (99.1.0) and otherwise runs as
# mutant-runner.sh (positive default NaN), so nan-check must fail and propose
# lines scoped to >=99.1,<99.2 (nan.selftest.proposed_lines).
if [ "${1:-}" = --version ]; then
  echo "qemu-x86_64 version 99.1.0 (buildgate self-test)"
  exit 0
fi
exec "$(dirname "$0")/mutant-runner.sh" "$@"
