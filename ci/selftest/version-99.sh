#!/bin/sh
# version-99.sh — a runner prefix of an unlisted version for the self-tests:
# `version-99.sh --version` answers 99.1.0 (no known line covers it); otherwise
# it runs its arguments unchanged (e.g. version-99.sh qemu-aarch64 probe ...).
if [ "${1:-}" = --version ]; then
  echo "version 99.1.0 (buildgate self-test)"
  exit 0
fi
exec "$@"
