#!/bin/sh
# The validation of the real-system terms (docs/validation.md): scripts/validate on the
# published measurements (tests/data/measurements.csv) with the shipped
# platforms, nothing fitted.  The targets, over the systems whose latency
# figures are published (HGX H100, MI300X): bandwidth-bound points (from
# 64 MiB) <= 12 %, whole sweeps <= 25 %.  Beside them, each system's errors
# are held a little above the values docs/validation.md reports, so that a
# change that takes collsim farther from the hardware fails here.
. "${top_srcdir:-.}/tests/cli_common.sh"
need python3

out=$(COLLSIM="$collsim" python3 "$top_srcdir/scripts/validate" "$top_srcdir/tests/data/measurements.csv" --check 0.12 0.25)
status=$?
check "validate --check 12 % / 25 % passes" "$status $(printf '%s\n' "$out" | tail -1)" '^0 check: bandwidth-bound 0\.[01][0-9]+ <= 0\.12, full 0\.[0-2][0-9]+ <= 0\.25: ok$'

# the after error of SYSTEM in REGIME is at most LIMIT percent
pinned() {
    value=$(printf '%s\n' "$out" | awk -F' \\| ' -v s="| $1" -v r="$2" '$1 == s && $2 == r { sub(/%.*/, "", $5); print $5 }')
    check "$1, $2: after error $value % <= $3 %" "$(awk -v v="$value" -v l="$3" 'BEGIN { print (v != "" && v <= l) ? "ok" : "over" }')" '^ok$'
}
pinned "HGX H100 (ASTRA-sim validation)" bandwidth 2.5
pinned "Azure ND A100 v4" bandwidth 11.5
pinned "AMD MI300X 8-GPU xGMI [full mesh]" bandwidth 10.5
pinned "AMD MI300X 8-GPU xGMI [full mesh]" all 26
pinned "GCP A3 Mega 2x8 H100 (TCPXO 8x200G)" bandwidth 31
pinned "GCP A3 Mega 2x8 H100 (TCPXO 8x200G)" all 47
pinned "GCP A3 Mega 2x8 H100 (TCPXO 8x200G)" latency 19
pinned "published latency" bandwidth 5.5
pinned "published latency" all 17
pinned "all systems" bandwidth 11.5
pinned "all systems" all 37
# the tuner ran what the platform's library offers: MI300X (RCCL) ring channels over the full mesh's
# rings, A3 Mega (NCCL) its tree on the 8 rails
check "MI300X large sizes on 6 channels (Walecki rings)" "$out" '\| AMD MI300X .* \| 17179869184 \| .* \| ring/simple/6 \|$'
check "A3 Mega large sizes on NCCL's tree over 8 channels" "$out" '\| GCP A3 Mega .* \| 8589934592 \| .* \| tree/simple/8 \|$'
check "protocol switches compared" "$out" '^\| AMD MI300X 8-GPU xGMI \[full mesh\] \| 7.41e\+05 \|'
# MI300X: RCCL enables LL and Simple (LL128 on gfx90a only) and caps LL at 39 GB/s
# (AMD GPUs at SM60 compatibility: NCCL's Volta row): the tuner's LL -> Simple
# switch within 2x of the measured one
check "MI300X switch within 2x" "$out" '^\| AMD MI300X .* \| [0-9.e+]+ \(ll -> simple\) \| (1\.[0-9]+|2\.00) \|$'
# A3 Mega runs Simple alone (Google's TCPXO profile) and NCCL's tuner keeps its tree at every size:
# no switch to set beside the measured one (docs/validation.md)
check "A3 Mega: no switch of the tuner" "$out" '^\| GCP A3 Mega .* \| none \| - \|$'
summary
