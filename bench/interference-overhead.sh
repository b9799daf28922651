#!/bin/bash
# The interference record's cost per iteration, and as a share of a pft run
# (docs/statistics.md "Disturbed iterations"; target: the harness's whole
# overhead outside the timed region stays under 1%).
set -eu
B=${MMBENCH_BUILD:-build}
"$B/bench/interference-cost" 2000
