#!/bin/sh
# `collsim predict` at 1,048,576 ranks (docs/scale.md): a closed form needs
# the schedule's segments, never the schedule, so the largest platforms of
# every kind that holds them are predicted, each row the seed's formula
# written here; a prediction that reads its schedule (NCCL's tree over
# full-mesh nodes on one channel) is refused with that reason.
. "${top_srcdir:-.}/tests/cli_common.sh"
n=1048576 m=1e9

predict() { # name, platform (inline), cases
    printf 'name: %s\nplatform: %s\ncases:\n%s\n' "$1" "$2" "$3" > "$work/$1.yaml"
    "$collsim" predict "$work/$1.yaml" --format json -q > "$work/$1.json" 2> "$work/$1.err"
}
field() { # name, path under results
    json_field "$work/$1.json" "results/$2"
}

# a star of 2^20 ranks, α = 0.5 µs, BW = 900 GB/s
predict star "{kind: star, ranks: $n, alpha: 0.5us, bandwidth: 900GBps}" \
'  - primitive: allreduce
    algorithms: [ring, dbt]
    sizes: [1GB]
  - primitive: bcast
    algorithms: [ring]
    sizes: [1GB]'
check "star: predicted, exit 0" "$?" '^0$'
check_close "ring all-reduce: 2(N-1)(α + M/(N BW)), 01 §5.1" "$(field star case=0,algorithm=ring/predicted_s)" \
    "2 * ($n - 1) * (0.5e-6 + $m / ($n * 900e9))" 1e-9
check_close "DBT: P = L = 2 floor(log2 N) = 40 segments, 01 §5.2 / App. C" "$(field star case=0,algorithm=dbt/segments)" 40 0
check_close "ring broadcast: the default P = N segments, 01 §3.1" "$(field star case=1,algorithm=ring/segments)" "$n" 0
check_close "ring broadcast: (N + P - 2)(α + M/(P BW)) at P = N, 01 §3.1" "$(field star case=1,algorithm=ring/predicted_s)" \
    "(2 * $n - 2) * (0.5e-6 + $m / ($n * 900e9))" 1e-9

# a 64 x 128 x 128 torus: dimension-decomposed rings, 02 §3.4
predict torus "{kind: torus, dims: [64, 128, 128], alpha: 0.5us, bandwidth: 900GBps}" \
'  - primitive: allreduce
    algorithms: [torus_dimdecomp]
    sizes: [1GB]'
check "torus: predicted, exit 0" "$?" '^0$'
check_close "torus: n_α = 2 Σ (d_i - 1) = 634" "$(field torus 0/n_alpha)" 634 0
check_close "torus: n_β = 2(N-1)/N" "$(field torus 0/n_beta)" "2 * ($n - 1) / $n" 1e-12

# an NVL72 SuperPOD of 14,560 pods (1,048,320 GPUs), 4 rails: hierarchical ring on ring, 03 §2.1
pods=14560 d=72
predict superpod "{kind: nvl72_superpod, pods: $pods, gpus_per_pod: $d, rails: 4, pods_per_leaf: 8, spines_per_rail: 72,
  nvlink: {alpha: 0.5us, bandwidth: 900GBps, alpha_switch: 0.2us}, ib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps}}" \
'  - primitive: allreduce
    algorithms: [hierarchical]
    sizes: [16MB]'
check "SuperPOD: predicted, exit 0" "$?" '^0$'
check_close "SuperPOD: inner RS + AG 2(D-1) α_NVL + 2(D-1)/D M/BW_NVL, outer 2(L-1) α_IB + 2(L-1)/(L D) M/BW_IB" \
    "$(field superpod 0/predicted_s)" \
    "2 * ($d - 1) * 0.5e-6 + 2 * ($d - 1) / $d * 16e6 / 900e9 + 2 * ($pods - 1) * 8e-6 + 2 * ($pods - 1) / ($pods * $d) * 16e6 / 50e9" 1e-9

# a k = 160 fat-tree (1,024,000 ranks): the ring crosses the core
predict fat_tree "{kind: fat_tree, k: 160, alpha_edge: 2us, alpha_aggregation: 8us, alpha_core: 12us, bandwidth: 50GBps}" \
'  - primitive: allreduce
    algorithms: [ring]
    sizes: [1GB]'
check "fat-tree k = 160: predicted, exit 0" "$?" '^0$'
check_close "fat-tree: ring n_α = 2(N-1)" "$(field fat_tree 0/n_alpha)" "2 * (1024000 - 1)" 0

# NCCL's tree over full-mesh (xGMI) nodes on one channel is predicted from its schedule's critical path:
# 16,384 nodes of 8 are past the schedule's bound, and the refusal says why
predict xgmi "{kind: rail_cluster, nodes: 16384, gpus_per_node: 8, xgmi: {alpha: 0.6us, bandwidth: 64GBps},
  network: {alpha_leaf: 2.7us, alpha_spine: 3.0us, bandwidth: 400Gbps}}" \
'  - primitive: allreduce
    algorithms: [tree]
    channels: 1
    sizes: [1GB]'
check "xGMI tree: refused, exit 2" "$?" '^2$'
check "xGMI tree: the refusal says the prediction reads the schedule" "$(cat "$work/xgmi.err")" \
    'xgmi.yaml:5:5: .*this prediction reads the schedule'
summary
