#!/bin/sh
# scripts/hier_baseline, the bare SimGrid program that is the floor under
# collsim's hierarchical all-reduce (docs/scale.md §6), does the flows collsim
# does: its printed end time equals `collsim run --model cm02` on the same
# platform and size, and, where no two messages share a link, both equal the
# closed form of ring on ring (explainer 03 §2.1 with 01 §5.1 in each tier):
#   t = 2 (G-1) (α_nvl + M/(G BW_nvl)) + 2 (L-1) (α_ib + M/(N BW_ib)).
# The platforms: superpod-l4 (4 racks of 72 under one leaf per rail: the
# outer rings meet at no link, α_ib = α_leaf), and 16 racks at 4 a leaf,
# whose outer rings cross the spines and share ECMP uplinks (contended: above
# the closed form, and the two programs still agree).  Sizes whose M·K/N is
# whole at K = 9 (16 MB) and past collsim's scale cap (1,000,003 B: rounded).
. "${top_srcdir:-.}/tests/cli_common.sh"
baseline="$top_builddir/scripts/hier_baseline"
scenario() { # platform, size: a one-case hierarchical all-reduce scenario
    printf 'name: floor\nplatform: %s\ncases:\n  - primitive: allreduce\n    algorithms: [hierarchical]\n    sizes: [%s]\n' \
        "$1" "$2" > "$work/floor.yaml"
}
# platforms/superpod-l4.yaml: G = 72, L = 4, NVLink 0.5 us and 900 GB/s, IB leaf 2 us and 50 GB/s
g=72 l=4 m=16000000
formula="2 * ($g - 1) * (0.5e-6 + $m / ($g * 900e9)) + 2 * ($l - 1) * (2e-6 + $m / ($g * $l) / 50e9)"
floor=$("$baseline" "$top_srcdir/platforms/superpod-l4.yaml" "$m" 2>"$work/floor.err")
check "superpod-l4: hier_baseline runs" "$?" '^0$'
check_close "superpod-l4: hier_baseline = the closed form of ring on ring (124.728 us)" "$floor" "$formula" 1e-9
scenario "$(cd "$top_srcdir" && pwd)/platforms/superpod-l4.yaml" 16MB
"$collsim" run "$work/floor.yaml" --model cm02 --format csv -o "$work/l4.csv" -q
check_close "superpod-l4: collsim cm02 = hier_baseline" "$(csv_field "$work/l4.csv" time_s case=0)" "$floor" 1e-9
check_close "superpod-l4: collsim's prediction = the closed form" "$(csv_field "$work/l4.csv" predicted_s case=0)" \
    "$formula" 1e-12
printf 'name: superpod-16\nkind: nvl72_superpod\npods: 16\ngpus_per_pod: 72\nrails: 4\npods_per_leaf: 4\nspines_per_rail: 72
nvlink: {alpha: 0.5us, bandwidth: 900GBps}\nib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps}\n' > "$work/sp16.yaml"
l=16
uncontended="2 * ($g - 1) * (0.5e-6 + $m / ($g * 900e9)) + 2 * ($l - 1) * (8e-6 + $m / ($g * $l) / 50e9)"
for size in 1000003 16000000; do
    floor=$("$baseline" "$work/sp16.yaml" "$size" 2>"$work/floor.err")
    check "16 racks, $size B: hier_baseline runs" "$?" '^0$'
    scenario "$work/sp16.yaml" "${size}B"
    "$collsim" run "$work/floor.yaml" --model cm02 --format csv -o "$work/sp16.csv" -q
    check_close "16 racks, $size B: collsim cm02 = hier_baseline" "$(csv_field "$work/sp16.csv" time_s case=0)" "$floor" 1e-9
done
check "16 racks, 16 MB: contended, so not below the uncontended closed form (354.40 us)" \
    "$(awk -v t="$floor" "BEGIN { print (t >= ($uncontended) * (1 - 1e-12)) ? \"not below\" : \"below\" }")" '^not below$'
out=$("$baseline" "$top_srcdir/platforms/star-64.yaml" 1000 2>&1)
check "a platform without domains: exit 2" "$?" '^2$'
check "a platform without domains: says what it needs" "$out" 'at least 2 domains'
summary
