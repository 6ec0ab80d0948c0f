#!/bin/sh
# `collsim predict` (README, docs/model.md): the analytic model alone, from the shipped
# seed-table scenarios; nothing simulated (no time_s), every row's n_alpha and
# n_beta the seed's; bad model keys exit 2 naming file:line:column.
. "${top_srcdir:-.}/tests/cli_common.sh"
scenarios=$(cd "$top_srcdir/scenarios" && pwd)
platforms=$(cd "$top_srcdir/platforms" && pwd)
# FIELD of CSV's all-reduce row for CASE and ALGORITHM: group 0 of 512 ranks at 16 MB
row() { # csv, field, case, algorithm
    csv_field "$1" "$2" "case=$3" primitive=allreduce "algorithm=$4" group=0 ranks=512 size_bytes=16000000
}
alpha=0.5e-6 bw=900e9 m=16e6 # star-512 and the torus 8^3: 0.5 us, 900 GB/s; M = 16 MB

# 04 §3.1 through the command line: n_alpha 1022 / 18 / 2 / 42 and the totals
"$collsim" predict "$scenarios/seed-04-3.1-n512-allreduce-ladder.yaml" --format csv > "$work/ladder.csv" 2>&1
check "predict exits 0" "$?" '^0$'
check "ring row: nothing simulated (no time_s, no ratio)" "$(row "$work/ladder.csv" time_s 0 ring)|$(row "$work/ladder.csv" ratio 0 ring)" '^[|]$'
ring="1022 * $alpha + 2 * 511 / 512 * $m / $bw" # 01 §5.1: 2(N-1) alpha + 2(N-1)/N M/BW = 546.49 us
check_close "ring row: 546.49 us" "$(row "$work/ladder.csv" predicted_s 0 ring)" "$ring" 1e-9
check_close "ring row: ideal 546.49 us" "$(row "$work/ladder.csv" ideal_s 0 ring)" "$ring" 1e-9
check_close "ring row: n_alpha 1022" "$(row "$work/ladder.csv" n_alpha 0 ring)" 1022 0
check "dbt row: no ratio" "$(row "$work/ladder.csv" ratio 0 dbt)" '^$'
check_close "dbt row: 18 alpha + 2 M/BW = 44.56 us" "$(row "$work/ladder.csv" predicted_s 0 dbt)" "18 * $alpha + 2 * $m / $bw" 1e-9
check_close "dbt row: n_alpha 18" "$(row "$work/ladder.csv" n_alpha 0 dbt)" 18 0
check_close "dbt row: n_beta 2" "$(row "$work/ladder.csv" n_beta 0 dbt)" 2 0
check "inc row: no ratio" "$(row "$work/ladder.csv" ratio 1 inc)" '^$'
check_close "inc row: 2 alpha + M/BW = 18.78 us" "$(row "$work/ladder.csv" predicted_s 1 inc)" "2 * $alpha + $m / $bw" 1e-9
check_close "inc row: n_alpha 2" "$(row "$work/ladder.csv" n_alpha 1 inc)" 2 0
check_close "inc row: n_beta 1" "$(row "$work/ladder.csv" n_beta 1 inc)" 1 0
check "torus row: no ratio" "$(row "$work/ladder.csv" ratio 2 torus_dimdecomp)" '^$'
check_close "torus row: 42 alpha + 2(N-1)/N M/BW = 56.49 us" "$(row "$work/ladder.csv" predicted_s 2 torus_dimdecomp)" \
    "42 * $alpha + 2 * 511 / 512 * $m / $bw" 1e-9
check_close "torus row: n_alpha 42" "$(row "$work/ladder.csv" n_alpha 2 torus_dimdecomp)" 42 0

# 05 §5.1 with eta: seed: the realistic total beside the ideal one; NVLS at (eta_alpha, eta_beta) = (1.00, 0.52)
"$collsim" predict "$scenarios/seed-05-5.1-realistic-allreduce.yaml" --format csv > "$work/realistic.csv" 2>&1
check_close "NVLS realistic 2 alpha / 1.00 + M / (0.52 BW) = 35.19 us" "$(row "$work/realistic.csv" predicted_s 0 inc)" \
    "2 * $alpha / 1.00 + $m / (0.52 * $bw)" 1e-9
check_close "NVLS ideal 18.78 us" "$(row "$work/realistic.csv" ideal_s 0 inc)" "2 * $alpha + $m / $bw" 1e-9

# crossovers (01 App. B.3, §5.3) in the table, and their sizes in the JSON
out=$("$collsim" predict "$scenarios/seed-01-B.3-crossover.yaml" 2>&1)
check "B.3 crossover printed, said to be predicted" "$out" 'crossover \(predicted\) recursive_doubling = dbt at M\* = [0-9]'
"$collsim" predict "$scenarios/seed-01-B.3-crossover.yaml" --format json -o "$work/b3.json"
check_close "B.3 crossover at ceil(log2 N)/(ceil(log2 N) - 1) alpha BW = 506.25 KB" \
    "$(json_field "$work/b3.json" crossovers/case=0,a=recursive_doubling,b=dbt/size_bytes)" "9 / 8 * $alpha * $bw" 1e-9
"$collsim" predict "$scenarios/seed-01-5.3-practice-crossover.yaml" --format json -o "$work/5.3.json"
# M* = 2 (N - 1 - ceil(log2 N)) alpha BW / (c_real - 2 (N-1)/N), c_real = 2
check_close "5.3 crossover N = 72: 2.07 GB" "$(json_field "$work/5.3.json" crossovers/case=0,a=ring,b=dbt/size_bytes)" \
    "2 * (72 - 1 - 7) * $alpha * $bw / (2 - 2 * 71 / 72)" 1e-9
check_close "5.3 crossover N = 512: 115.66 GB" "$(json_field "$work/5.3.json" crossovers/case=1,a=ring,b=dbt/size_bytes)" \
    "2 * (512 - 1 - 9) * $alpha * $bw / (2 - 2 * 511 / 512)" 1e-9

# bad model keys: exit 2 with file:line:column and what is expected
printf 'name: t\nplatform: %s/star-512.yaml\neta: sometimes\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [1MB]\n' "$platforms" > "$work/eta.yaml"
out=$("$collsim" predict "$work/eta.yaml" 2>&1); status=$?
check "bad eta exits 2" "$status" '^2$'
check "bad eta names file:line:col" "$out" 'eta.yaml:3:6: .*eta.* takes ideal, seed'
printf 'name: t\nplatform: %s/star-512.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [1MB]\n    eta: {eta_alpha: 0.5}\n' "$platforms" > "$work/alpha.yaml"
out=$("$collsim" predict "$work/alpha.yaml" 2>&1)
check "eta_alpha below 1 refused" "$out" 'alpha.yaml:7:.*eta_alpha.* 1 or more'
printf 'name: t\nplatform: %s/superpod-l2.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [1MB]\n    eta: {nvlink: {eta_beta: 0.8}, spine: {eta_beta: 0.5}}\n' "$platforms" > "$work/tier.yaml"
out=$("$collsim" predict "$work/tier.yaml" 2>&1)
check "unknown tier name refused, tiers listed" "$out" "tier.yaml:7:.*unknown key 'spine': expected one of nvlink, ib_leaf"
printf 'name: t\nplatform: %s/star-512.yaml\ncases:\n  - primitive: bcast\n    algorithms: [ring]\n    sizes: [1MB]\n    form: rough\n' "$platforms" > "$work/form.yaml"
out=$("$collsim" predict "$work/form.yaml" 2>&1)
check "bad form refused" "$out" "form.yaml:7:11: 'form' takes exact"

# Real-system terms: the rows say what ran; the tuner's pick at 1 KB is a low-latency
# protocol (NCCL's LL: base 6.6 / 6.8 us), at 4 GB Simple (full bandwidth)
printf 'name: t\nplatform: %s/hgx-h100.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [auto]\n    sizes: [1KB, 4GB]\n  - primitive: allreduce\n    algorithms: [ring]\n    protocol: ll128\n    channels: 4\n    sizes: [1MB]\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [4GB]\n' "$platforms" > "$work/auto.yaml"
"$collsim" predict "$work/auto.yaml" --format csv > "$work/auto.csv" 2>&1
# what ran at SIZE in CASE: algorithm, protocol, channels, tuned
ran() { # case, size
    for field in algorithm protocol channels tuned; do csv_field "$work/auto.csv" $field "case=$1" "size_bytes=$2"; done | tr '\n' ' '
}
check "auto at 1 KB: LL, tuned" "$(ran 0 1000)" '^(ring|dbt) ll 1 true $'
# LL's base latency as launch: 6.6 us for a ring, 6.8 us for a tree
lat_1kb=$([ "$(csv_field "$work/auto.csv" algorithm case=0 size_bytes=1000)" = ring ] && echo 6.6e-6 || echo 6.8e-6)
check_close "auto at 1 KB: LL's base latency as launch" "$(csv_field "$work/auto.csv" launch_s case=0 size_bytes=1000)" "$lat_1kb" 1e-9
# at 4 GB NVLS (collsim's inc, Simple only) wins on one Hopper node, as NCCL's tuner picks it there; its
# launch is NCCL's NVLS hwLat on NVLink, 25 us, charged once (baseLat 0)
check "auto at 4 GB: NVLS (inc) Simple, tuned" "$(ran 0 4000000000)" '^inc simple 1 true $'
check_close "auto at 4 GB: NVLS's NVLink latency" "$(csv_field "$work/auto.csv" launch_s case=0 size_bytes=4000000000)" "25e-6" 1e-9
# ring without protocol: or channels: on a platform naming NCCL gets NCCL's protocol choice, Simple at 4 GB
check "ring at 4 GB on library nccl: Simple, tuned" "$(ran 2 4000000000)" '^ring simple [0-9]+ true $'
# a ring's launch adds NCCL's per-hop latency once per step, 2(N-1) = 14 steps on NVLink:
# Simple 8.4 + 14 (3.4 - 0.6) = 47.6 us, LL128 14 + 14 (1.9 - 0.6) = 32.2 us
check_close "ring at 4 GB: Simple's base + 14 steps" "$(csv_field "$work/auto.csv" launch_s case=2 size_bytes=4000000000)" \
    "8.4e-6 + 14 * (3.4e-6 - 0.6e-6)" 1e-9
check "a named protocol and channels: not tuned" "$(ran 1 1000000)" '^ring ll128 4 false $'
check_close "a named protocol and channels: LL128's 14 us base + 14 steps" "$(csv_field "$work/auto.csv" launch_s case=1 size_bytes=1000000)" \
    "14e-6 + 14 * (1.9e-6 - 0.6e-6)" 1e-9
out=$("$collsim" predict "$work/auto.yaml" 2>&1)
check "table marks the tuner's pick" "$out" ' (ring|dbt) \(auto\) +([0-9]+ +)?ll +[0-9]'
summary
