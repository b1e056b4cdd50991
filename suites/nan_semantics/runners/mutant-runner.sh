#!/bin/sh
# mutant-runner.sh — a deliberately wrong runner for the self-tests: runs the
# guest natively and flips the sign bit of every default NaN in its output
# (0xFFC00000 -> 0x7FC00000, 0xFFF8000000000000 -> 0x7FF8000000000000), as a
# translator with ARM's positive default NaN would.  nan-check must catch it.
"$@" | sed -e 's/ffc00000/7fc00000/g' -e 's/fff8000000000000/7ff8000000000000/g'
