#!/bin/sh
# Contention measured by simulation (docs/contention.md, explainer 05 §3-§4.2): the eta
# fitted from the scenarios in scenarios/ against the bounds and orderings
# the seed states.  Numbers come from the eta CSV (-o FILE.csv writes FILE.eta.csv):
#   case,primitive,algorithm,group,tier,label,points,eta_alpha,eta_beta,...
. "${top_srcdir:-.}/tests/cli_common.sh"
scenarios="$top_srcdir/scenarios"

# eta_beta of the whole collective (no tier) for CASE and ALGORITHM in an eta CSV file
eta_beta() { # eta.csv case algorithm
    csv_field "$1" eta_beta "case=$2" "algorithm=$3" tier= | head -1
}
# run SCENARIO into $work/NAME.csv (and NAME.eta.csv); the eta file's path
run_eta() { # scenario name
    "$collsim" run "$scenarios/$1.yaml" --quiet -o "$work/$2.csv" >&2 || echo "FAIL collsim run $1 exited $?" >&2
    echo "$work/$2.eta.csv"
}
# "yes" when awk's condition on x, y holds
holds() { # x condition y
    awk -v x="$1" -v y="$3" "BEGIN { if (x != \"\" && y != \"\" && (x $2 y)) print \"yes\"; else print \"no\" }"
}

# 05 §4.2: eta_beta(upper tier) <= min(eta_hw, 1/s), binding at 1/s under
# uniform cross-tier traffic (spread routing); ECMP collisions stay below it.
out=$(run_eta clos-cross-leaf-oversubscription clos-cross-leaf-oversubscription)
case=0
for s in 1 2 4; do
    e=$(eta_beta "$out" $case ring)
    check_close "Clos s=$s spread: eta_beta = 1/s (the bound binds) within 1e-6" "$e" "1 / $s" "1e-6 * $s"
    case=$((case + 1))
done
for s in 1 2 4; do
    e=$(eta_beta "$out" $case ring)
    check "Clos s=$s ecmp: eta_beta <= 1/s (the bound holds)" "$(holds "$e" '<=' "1/$s+1e-9")" '^yes$'
    check "Clos s=$s ecmp: collisions cost more than s alone" "$(holds "$e" '<' "1/$s")" '^yes$'
    case=$((case + 1))
done
e=$(eta_beta "$out" 6 ring)
check "Clos s=4, one leaf-ordered ring: not uniform cross-tier traffic, above 1/s" "$(holds "$e" '>' 0.25)" '^yes$'

# 05 §3.1-§3.2 on the 8x8x8 torus: the prefix-aligned single TP group is the
# exact 8-ring; groups sharing a dimension and an off-prefix layout lower eta_beta.
out=$(run_eta torus-concurrent-tp-groups torus-concurrent-tp-groups)
single=$(eta_beta "$out" 0 ring)
check_close "torus: prefix single TP group eta_beta = 1" "$single" 1 1e-9
check_close "torus: disjoint prefix groups keep eta_beta = 1" "$(eta_beta "$out" 1 ring)" 1 1e-9
check "torus: groups sharing a dimension below the single group" "$(holds "$(eta_beta "$out" 2 ring)" '<' "$single")" '^yes$'
check_close "torus: two rings per link: eta_beta = 1/2 within 1e-9" "$(eta_beta "$out" 2 ring)" 0.5 2e-9
check "torus: off-prefix concurrent groups below the single group" "$(holds "$(eta_beta "$out" 3 ring)" '<' "$single")" '^yes$'

# 05 §3.3: zipf-skewed all-to-all below uniform, on the star and on the torus
out=$(run_eta moe-skewed-alltoall moe-skewed-alltoall)
check "star: zipf A2A below uniform" "$(holds "$(eta_beta "$out" 1 pairwise)" '<' "$(eta_beta "$out" 0 pairwise)")" '^yes$'
# the hot expert (group rank 0) receives w0 = N / sum_k k^-S of the mean; on a
# star its port alone drains that, so eta_beta = 1 / w0 (independent of M)
expected=$(awk 'BEGIN { s = 0; for (k = 1; k <= 64; k++) s += k ^ -0.5; print s / 64 }')
check_close "star zipf(0.5): eta_beta = 1/w0 = $expected within 1e-6" "$(eta_beta "$out" 1 pairwise)" "$expected" "1e-6 / $expected"
check "torus: zipf A2A below uniform" "$(holds "$(eta_beta "$out" 3 torus)" '<' "$(eta_beta "$out" 2 torus)")" '^yes$'

# 05 §4.2: ECMP at or below ideal spreading, for cross-pod rings and for A2A
out=$(run_eta fat-tree-ecmp-vs-spread fat-tree-ecmp-vs-spread)
check "fat-tree rings: ECMP <= spread" "$(holds "$(eta_beta "$out" 0 ring)" '<=' "$(eta_beta "$out" 1 ring)")" '^yes$'
check "fat-tree A2A: ECMP <= spread" "$(holds "$(eta_beta "$out" 2 pairwise)" '<=' "$(eta_beta "$out" 3 pairwise)")" '^yes$'

# mixed traffic: the all-reduce sharing the fabric with an all-to-all is slower than alone
out=$(run_eta mixed-allreduce-alltoall mixed-allreduce-alltoall)
check "mixed: AR with A2A below AR alone" "$(holds "$(eta_beta "$out" 1 ring)" '<' "$(eta_beta "$out" 0 ring)")" '^yes$'

# Determinism (docs/output.md, "Regression"): the same scenario twice, and --jobs 1 against --jobs 2,
# give byte-identical JSON (concurrent groups, concurrent cases, skew).
for name in torus-concurrent-tp-groups mixed-allreduce-alltoall moe-skewed-alltoall; do
    "$collsim" run "$scenarios/$name.yaml" --format json -o "$work/a.json" 2>/dev/null
    "$collsim" run "$scenarios/$name.yaml" --format json -o "$work/b.json" 2>/dev/null
    "$collsim" run "$scenarios/$name.yaml" --format json -o "$work/c.json" --jobs 2 2>/dev/null
    check "$name: twice, byte-identical JSON" "$(cmp "$work/a.json" "$work/b.json" && echo same)" '^same$'
    check "$name: --jobs 2 identical to --jobs 1" "$(cmp "$work/a.json" "$work/c.json" && echo same)" '^same$'
done
out=$("$collsim" run "$scenarios/quickstart.yaml" --jobs 0 2>&1); status=$?
check "--jobs 0 exits 2" "$status" '^2$'
check "--jobs 0 says what it takes" "$out" 'jobs takes'

# ---- before a fluid simulation SimGrid's solver would couple past 2,304 flows
# (docs/scale.md), run names the model that finishes: 320 random groups of 8
# on 16^3 cross each other's links, one system of 320 x 8 = 2,560 flows (a ring
# of 8 joins 8 distinct node pairs); laid out by prefix they share no link ----
notes=
for layout in "random(3)" prefix; do
    printf 'name: coupled\nplatform: %s/platforms/torus-16x16x16.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [1KB]\n    groups: {count: 320, size: 8, layout: %s}\n' \
        "$top_srcdir" "$layout" >"$work/coupled.yaml"
    err=$("$collsim" run "$work/coupled.yaml" -o "$work/coupled.csv" 2>&1 >/dev/null)
    check "coupled groups ($layout) run: exit 0" "$?" "^0$"
    notes="$notes $layout:$(printf '%s\n' "$err" | grep -c 'share links as one max-min system')"
    [ "$layout" = prefix ] || check "the note counts the coupled groups and flows, and names the packet model" "$err" \
        "320 concurrent groups with 2560 flows share links as one max-min system.*packet model finishes"
done
check "the note for the random layout only" "$notes" "^ random\(3\):1 prefix:0$"
summary
