#!/bin/sh
# Calibration held out (docs/validation.md, "Calibration"): scripts/
# calibration_tables calibrates each system of the published measurements
# (tests/data/measurements.csv) on every other size and runs the calibrated
# platform, each system's case as its log was produced (the ring a forced-ring
# log names; else the library's own choice, auto), against the held-out sizes.
# Target: held-out <= 5 % on every system, on the whole sweep and on its
# bandwidth-bound points (from 64 MiB on).
. "${top_srcdir:-.}/tests/cli_common.sh"
need python3

out=$(COLLSIM="$collsim" python3 "$top_srcdir/scripts/calibration_tables" "$top_srcdir/tests/data/measurements.csv" --check 0.05 0.05)
status=$?
check "every system within 5 % held out, whole sweep and bandwidth-bound" "$status $(printf '%s\n' "$out" | tail -1)" '^0 check: held-out <= 0\.05, bandwidth-bound held-out <= 0\.05: ok$'
# each held-out point was run on its calibrated protocol: the table names one per row
check "88 points, each with its half and protocol" "$(printf '%s\n' "$out" | grep -cE '\| (fitted|held out) \| (ll|ll128|simple) \|$')" '^88$'
summary
