#!/bin/sh
# A simulation newly within collsim's bounds keeps its exact form
# (docs/scale.md): hierarchical all-reduce over 4,096 ranks, once refused by
# the schedule-size estimate of a composition (8 N^2, 134 million), now
# estimated from its parts on their sub-groups.  Inner ring over the 2 GPUs
# of each pod (NVLink), outer recursive doubling over the 2,048 pods of a
# rail (one leaf per rail: a star, no two exchanges on one link), so every
# message is alone on its route and CM02 and the packet model both give
# the closed form to 1e-9: 03 §2.1 with 01 §5.1 inside and 01 App. B.1 across,
#   t = 2 (D-1)(α_nvl + M/(D BW_nvl)) + log2 L (α_ib + (M/D)/BW_ib).
. "${top_srcdir:-.}/tests/cli_common.sh"
d=2 l=2048 m=64000
printf 'name: exact-4096
platform: {kind: nvl72_superpod, pods: %d, gpus_per_pod: %d, rails: 2, pods_per_leaf: %d,
  nvlink: {alpha: 0.5us, bandwidth: 900GBps}, ib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps}}
cases:
  - primitive: allreduce
    algorithms: [hierarchical]
    inner: ring
    outer: recursive_doubling
    sizes: [64KB]
' "$l" "$d" "$l" > "$work/exact.yaml"
formula="2 * ($d - 1) * (0.5e-6 + $m / ($d * 900e9)) + 11 * (2e-6 + $m / $d / 50e9)"
for model in cm02 packet; do
    "$collsim" run "$work/exact.yaml" --model "$model" --format csv -o "$work/$model.csv" -q 2>"$work/$model.err"
    check "$model: 4,096 ranks run, exit 0" "$?" '^0$'
    check_close "$model: predicted = 2(D-1)(α + M/(D BW)) + log2 L (α_ib + M/(D BW_ib)) = 30.11 us" \
        "$(csv_field "$work/$model.csv" predicted_s case=0)" "$formula" 1e-12
    check_close "$model: simulated = the closed form" "$(csv_field "$work/$model.csv" time_s case=0)" "$formula" 1e-9
done
summary
