#!/bin/sh
# hang-runner.sh — a runner that never finishes (self-test of the timeout).
exec sleep 600
