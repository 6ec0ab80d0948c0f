#!/bin/sh
# Calibration held out (docs/validation.md, "Calibration"): scripts/
# calibration_tables calibrates each system of the published measurements
# (tests/data/measurements.csv) on every other size and runs the calibrated
# platform, each system's case as its log was produced (the ring a forced-ring
# log names; else the library's own choice, auto), against the held-out sizes.
# Targets: held-out <= 5 %, held-out bandwidth-bound <= 3 %, met by HGX H100
# (ring) 1.1 % / 1.1 %, A100 (auto) 3.2 % / 2.9 %, MI300X (auto) 2.5 % / 0.3 %.
# A3 Mega (auto: NCCL's tree on 8 channels) misses them, 6.3 % / 8.9 %: the
# tree's channels share links in the simulation (contended, up to 10 % slower
# than the model at GiB sizes) and the fit, against the model's counts, does
# not see it; its figures are pinned here so that they do not grow.
. "${top_srcdir:-.}/tests/cli_common.sh"
need python3

out=$(COLLSIM="$collsim" python3 "$top_srcdir/scripts/calibration_tables" "$top_srcdir/tests/data/measurements.csv" --check 0.05 0.03)
status=$?
check "every system but A3 Mega within 5 % held out, 3 % bandwidth-bound held out" "$status $(printf '%s\n' "$out" | tail -1)" '^1 check: held-out <= 0\.05, bandwidth-bound held-out <= 0\.03: FAILED GCP A3 Mega 2x8 H100 \(TCPXO 8x200G\)$'
held() { # system: "held-out% bandwidth-bound%" from its row
    printf '%s\n' "$out" | awk -F' [|] ' -v s="| $1" '$1 == s && NF == 6 { sub(/%.*/, "", $5); sub(/%.*/, "", $6); print $5, $6 }'
}
check "A3 Mega held out within its pinned 6.5 % / 9 %" "$(held "GCP A3 Mega 2x8 H100 (TCPXO 8x200G)" | awk '{ print ($1 <= 6.5 && $2 <= 9) ? "ok" : $0 }')" '^ok$'
# each held-out point was run on its calibrated protocol: the table names one per row
check "88 points, each with its half and protocol" "$(printf '%s\n' "$out" | grep -cE '\| (fitted|held out) \| (ll|ll128|simple) \|$')" '^88$'
summary
