#!/bin/sh
# `collsim predict` (SPEC §2, §5): the analytic model alone, from the shipped
# seed-table scenarios; nothing simulated (no time_s), every row's n_alpha and
# n_beta the seed's; bad model keys exit 2 naming file:line:column.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
collsim="$top_builddir/collsim"
scenarios=$(cd "$top_srcdir/scenarios" && pwd)
platforms=$(cd "$top_srcdir/platforms" && pwd)
work=$(mktemp -d /tmp/collsim-cli-predict-XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
check() { # description, output, grep -E pattern
    if printf '%s\n' "$2" | grep -Eq -- "$3"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: no /$3/ in:"; printf '%s\n' "$2"; fi
}

# 04 §3.1 through the command line: n_alpha 1022 / 18 / 2 / 42 and the totals
out=$("$collsim" predict "$scenarios/seed-04-3.1-n512-allreduce-ladder.yaml" --format csv 2>&1)
check "predict exits 0" "$?" '^0$'
check "ring row: no time_s, 546.49 us, n_alpha 1022" "$out" '^0,allreduce,ring,0,512,16000000,[0-9]+,,0\.000546486[0-9]*,0\.000546486[0-9]*,,1022,'
check "dbt row: 44.56 us, n_alpha 18, n_beta 2" "$out" '^0,allreduce,dbt,0,512,16000000,[0-9]+,,4\.4555[0-9]*e-05,[^,]*,,18,2,'
check "inc row: 18.78 us, n_alpha 2" "$out" '^1,allreduce,inc,0,512,16000000,[0-9]+,,1\.8777[0-9]*e-05,[^,]*,,2,1,'
check "torus row: 56.49 us, n_alpha 42" "$out" '^2,allreduce,torus_dimdecomp,0,512,16000000,[0-9]+,,5\.6486[0-9]*e-05,[^,]*,,42,'

# 05 §5.1 with eta: seed: the realistic total beside the ideal one
out=$("$collsim" predict "$scenarios/seed-05-5.1-realistic-allreduce.yaml" --format csv 2>&1)
check "NVLS realistic 35.19 us, ideal 18.78 us" "$out" '^0,allreduce,inc,0,512,16000000,[0-9]+,,3\.518[0-9]*e-05,1\.8777[0-9]*e-05,'

# crossovers (01 App. B.3, §5.3) in the table
out=$("$collsim" predict "$scenarios/seed-01-B.3-crossover.yaml" 2>&1)
check "B.3 crossover printed, said to be predicted" "$out" 'crossover \(predicted\) recursive_doubling = dbt at M\* = 50625'
out=$("$collsim" predict "$scenarios/seed-01-5.3-practice-crossover.yaml" 2>&1)
check "5.3 crossover N = 72" "$out" 'crossover.*ring.*dbt.*2\.07[0-9]* GB'
check "5.3 crossover N = 512" "$out" 'crossover.*ring.*dbt.*115\.6[0-9]* GB'

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

# issue 15: the rows say what ran; the tuner's pick at 1 KB is a low-latency
# protocol (NCCL's LL: base 6.6 / 6.8 us), at 4 GB Simple (full bandwidth)
printf 'name: t\nplatform: %s/hgx-h100.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [auto]\n    sizes: [1KB, 4GB]\n  - primitive: allreduce\n    algorithms: [ring]\n    protocol: ll128\n    channels: 4\n    sizes: [1MB]\n' "$platforms" > "$work/auto.yaml"
# columns: case, algorithm, then protocol, channels, tuned, launch_s (after main's model column)
out=$("$collsim" predict "$work/auto.yaml" --format csv 2>&1 | cut -d, -f1,3,31-34)
check "auto at 1 KB: LL, tuned, LL's base latency as launch" "$out" '^0,(ring|dbt),ll,1,true,6\.(6|79|8)'
# a ring's launch adds NCCL's per-hop latency once per step, 2(N-1) = 14 steps on NVLink:
# Simple 8.4 + 14 (3.4 - 0.6) = 47.6 us, LL128 14 + 14 (1.9 - 0.6) = 32.2 us
check "auto at 4 GB: Simple ring, tuned, base + 14 steps" "$out" '^0,ring,simple,[0-9]+,true,4\.(76|759999[0-9]*)e-05$'
check "a named protocol and channels: not tuned, LL128's 14 us base + 14 steps" "$out" '^1,ring,ll128,4,false,3\.(22|219999[0-9]*)e-05$'
out=$("$collsim" predict "$work/auto.yaml" 2>&1)
check "table marks the tuner's pick" "$out" ' (ring|dbt) \(auto\) +([0-9]+ +)?ll +[0-9]'
echo "cli_predict: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
