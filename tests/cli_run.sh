#!/bin/sh
# Command-level checks of `collsim run` / `verify` for the scenario keys of
# docs/algorithms.md (inner/outer tiers, segments: auto, inc) and their bad input.
. "${top_srcdir:-.}/tests/cli_common.sh"
platforms=$(cd "$top_srcdir/platforms" && pwd)
scenario() { # file, platform, case lines...
    file=$work/$1; platform=$2; shift 2
    printf 'name: t\nplatform: %s\ncases:\n' "$platforms/$platform" > "$file"
    for line in "$@"; do printf '%s\n' "$line" >> "$file"; done
}

# hierarchical with explicit tiers on the L = 2 SuperPOD: 03 §2.1's case study, 114.5 us
scenario h.yaml superpod-l2.yaml "  - primitive: allreduce" "    algorithms: [hierarchical]" \
    "    inner: ring" "    outer: rabenseifner" "    sizes: [16MB]"
out=$("$collsim" run "$work/h.yaml" --verify --format csv -o "$work/h.csv" 2>&1)
check "hierarchical verifies" "$out" 'verify case 0 allreduce hierarchical on 144 ranks, 16 MB \(P = [0-9]+\): ok'
# inner ring RS and AG on 72 ranks (0.5 us, 900 GB/s) around the outer all-reduce of
# M/72 on 2 pods over the rail leaf (2 us, 50 GB/s), where Rabenseifner is the ring
check_close "hierarchical AR at 16 MB: 2 (71 alpha + 71/72 M/BW) + 2 alpha_leaf + (M/72)/BW_ib" \
    "$(csv_field "$work/h.csv" time_s case=0 size_bytes=16000000 segments=1)" \
    "2 * (71 * 0.5e-6 + 71 / 72 * 16e6 / 900e9) + 2 * 2e-6 + 16e6 / 72 / 50e9" 1e-12

# segments: auto picks P* per size (01 App. C.3): ring BC on 72 ranks, L = 71:
# 1 KB -> P = 1; 1 GB -> sqrt((71 - 1) * 1e9 / (0.5e-6 * 900e9)) = 394.4 -> 394
scenario auto.yaml nvl72-star.yaml "  - primitive: bcast" "    algorithms: [ring]" "    sizes: [1KB, 1GB]" \
    "    segments: auto"
"$collsim" run "$work/auto.yaml" --format csv -o "$work/auto.csv" 2>&1
segments() { csv_field "$work/auto.csv" segments case=0 primitive=bcast algorithm=ring group=0 ranks=72 "size_bytes=$1"; }
check_close "auto P at 1 KB" "$(segments 1000)" 1 0
check_close "auto P at 1 GB" "$(segments 1000000000)" "int(sqrt((71 - 1) * 1e9 / (0.5e-6 * 900e9)))" 0

# inc on the NVL72 star at P = 8: 9 (0.2 us + 16 MB / (8 * 900 GB/s)) = 21.8 us
scenario inc.yaml nvl72-star.yaml "  - primitive: allreduce" "    algorithms: [inc]" "    sizes: [16MB]" "    segments: 8"
out=$("$collsim" run "$work/inc.yaml" --verify --format csv -o "$work/inc.csv" 2>&1)
check "inc verifies" "$out" 'allreduce inc on 72 ranks, 16 MB \(P = 8\): ok'
check_close "inc AR time 9 (0.2 us + M / (8 BW))" "$(csv_field "$work/inc.csv" time_s case=0 size_bytes=16000000 segments=8)" \
    "9 * (0.2e-6 + 16e6 / (8 * 900e9))" 1e-13

# sendrecv direct: one message over the SuperPOD's farthest class (cross rail,
# across spines: 8.5 us, 02 §8 / 03 §1.2) at 1 GB: 8.5 us + 1 GB / 50 GB/s
scenario p2p.yaml superpod-l32.yaml "  - primitive: sendrecv" "    algorithms: [direct]" "    sizes: [1GB]" \
    "    root: 0" "    peer: 2303"
out=$("$collsim" run "$work/p2p.yaml" --verify --format csv -o "$work/p2p.csv" 2>&1)
check "sendrecv verifies" "$out" 'sendrecv direct on 2304 ranks, 1 GB .*: ok'
check_close "sendrecv time 8.5 us + 1 GB / 50 GB/s" "$(csv_field "$work/p2p.csv" time_s case=0 size_bytes=1000000000 segments=1)" \
    "8.5e-6 + 1e9 / 50e9" 1e-12
scenario bad5.yaml star-512.yaml "  - primitive: sendrecv" "    algorithms: [direct]" "    sizes: [1MB]" "    peer: 0"
out=$("$collsim" run "$work/bad5.yaml" 2>&1); status=$?
check "sendrecv to itself exits 2" "$status" '^2$'
check "sendrecv to itself says why" "$out" 'two different ranks'

# bad input: exit 2 with the case's position
scenario bad1.yaml torus-4x4.yaml "  - primitive: allreduce" "    algorithms: [inc]" "    sizes: [1MB]"
out=$("$collsim" run "$work/bad1.yaml" 2>&1); status=$?
check "inc on a torus exits 2" "$status" '^2$'
check "inc on a torus says why" "$out" 'bad1.yaml:4:5: allreduce inc cannot run .*no switches'
scenario bad2.yaml clos-16.yaml "  - primitive: allreduce" "    algorithms: [hierarchical]" "    inner: frobnicate" "    sizes: [1MB]"
out=$("$collsim" run "$work/bad2.yaml" 2>&1); status=$?
check "unknown tier algorithm exits 2" "$status" '^2$'
check "unknown tier algorithm is positioned" "$out" "bad2.yaml:6:12: 'inner' names no algorithm"
scenario bad3.yaml star-512.yaml "  - primitive: allreduce" "    algorithms: [hierarchical]" "    sizes: [1MB]"
out=$("$collsim" run "$work/bad3.yaml" 2>&1); status=$?
check "hierarchical on a star exits 2" "$status" '^2$'
check "hierarchical on a star says why" "$out" 'two-tier'
scenario bad4.yaml star-512.yaml "  - primitive: bcast" "    algorithms: [ring]" "    sizes: [1MB]" "    segments: some"
out=$("$collsim" run "$work/bad4.yaml" 2>&1); status=$?
check "bad segments exits 2" "$status" '^2$'
summary
