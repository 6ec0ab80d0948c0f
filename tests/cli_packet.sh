#!/bin/sh
# The packet model from the command line (docs/packet.md): --model packet
# and `network: packet` select it and every output names it; runs are
# byte-identical on reruns and with --jobs 1 vs 2; `platform describe` says
# whether each tier's buffer covers its credit loop; a permutation runs.
. "${top_srcdir:-.}/tests/cli_common.sh"
platforms=$(cd "$top_srcdir/platforms" && pwd)

cat > "$work/mixed.yaml" <<YAML
name: packet-mixed
platform: $platforms/clos-16.yaml
cases:
  - primitive: allreduce
    algorithms: [ring, dbt]
    sizes: [256KB, 1MB]
    groups: {count: 4, size: 4, layout: strided}
  - concurrent:
      - primitive: allreduce
        algorithms: [ring]
        sizes: [512KB]
      - primitive: alltoall
        algorithms: [pairwise]
        sizes: [512KB]
  - primitive: permutation
    algorithms: [direct]
    sizes: [1MB]
    seed: 5
YAML

out=$("$collsim" run "$work/mixed.yaml" --model packet --format json 2>&1)
check "--model packet: JSON names the model" "$out" '"model": "packet"'
check "--model packet: rows for every case" "$(printf '%s' "$out" | grep -o '"case": 3' | head -1)" '"case": 3'
out=$("$collsim" run "$work/mixed.yaml" --model packet 2>&1)
check "--model packet: the table header names the model" "$out" 'network model packet'

# `network: packet` in the scenario; --model overrides it
sed 's/^name: packet-mixed/name: packet-mixed\nnetwork: packet/' "$work/mixed.yaml" > "$work/network.yaml"
check "network: packet selects the packet model" "$("$collsim" run "$work/network.yaml" --format json 2>&1)" '"model": "packet"'
check "--model cm02 overrides network: packet" "$("$collsim" run "$work/network.yaml" --model cm02 --format json 2>&1)" '"model": "cm02"'
check "without either, CM02" "$("$collsim" run "$work/mixed.yaml" --format json 2>&1)" '"model": "cm02"'
check "--model takes packet among its values" "$("$collsim" run "$work/mixed.yaml" --model ns3 2>&1)" 'cm02, lv08 or packet'

# determinism: byte-identical JSON on a rerun and with two simulations at once
"$collsim" run "$work/network.yaml" --format json -o "$work/a.json" --jobs 1 2>/dev/null
"$collsim" run "$work/network.yaml" --format json -o "$work/b.json" --jobs 1 2>/dev/null
"$collsim" run "$work/network.yaml" --format json -o "$work/c.json" --jobs 2 2>/dev/null
check "packet JSON: rerun byte-identical" "$(cmp "$work/a.json" "$work/b.json" && echo same)" '^same$'
check "packet JSON: --jobs 1 and --jobs 2 byte-identical" "$(cmp "$work/a.json" "$work/c.json" && echo same)" '^same$'

# the uncontended permutation's prediction: alpha of its slowest route + M/BW;
# and the contended rows differ from the fluid model's (queues, not max-min)
check "verify: the permutation computes its postcondition" "$("$collsim" verify "$work/mixed.yaml" 2>&1)" 'permutation direct on 16 ranks, .*: ok'

# describe: the default buffers cover the credit loop; 64 KiB at 900 GB/s does not
out=$("$collsim" platform describe "$platforms/star-512.yaml" 2>&1)
check "describe: default buffer covers the loop" "$out" 'switch +buffer 444 KiB per input port \(default\); credit loop 444 KiB: covered'
printf 'kind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\npacket: {buffer: 64KiB, header: 60B}\n' > "$work/small.yaml"
out=$("$collsim" platform describe "$work/small.yaml" 2>&1)
check "describe: a small buffer does not cover the loop" "$out" 'buffer 64 KiB per input port; credit loop .*: NOT covered'
check "describe: header and mtu shown" "$out" 'mtu 4096 B, header 60 B per packet, cut_through, flow control credit, routing ecmp'
# --ties: the order of the engine's events at one attosecond.  An
# uncontended ring on a star keeps the seed formula to the last digit under
# any order (its messages never meet); per-packet spray on the k = 4
# fat-tree (a permutation, 1 MB) moves with it: synchronized flows take
# the node's round-robin turns in the order their packets are handled.
cat > "$work/ring.yaml" <<YAML
name: ties-ring
platform: $platforms/star-64.yaml
cases:
  - primitive: allreduce
    algorithms: [ring]
    sizes: [1KiB, 1MiB, 64MiB]
YAML
cat > "$work/spray.yaml" <<YAML
name: ties-spray
network: packet
platform: {name: ft4-spray, kind: fat_tree, k: 4, alpha_edge: 2us, alpha_aggregation: 8us, alpha_core: 12us, bandwidth: 50GBps, packet: {routing: spray}}
cases:
  - primitive: permutation
    algorithms: [direct]
    sizes: [1MB]
    seed: 3
YAML
row_times() { # scenario, ties: the rows' time_s
    "$collsim" run "$1" --model packet --ties "$2" --format csv --quiet 2>&1 | csv_field - time_s
}
ring=$(row_times "$work/ring.yaml" scheduled)
check "--ties: the ring runs" "$ring" '^[0-9]'
ratios=$("$collsim" run "$work/ring.yaml" --model packet --ties 'shuffled(7)' --format csv --quiet 2>&1 | csv_field - ratio)
check "--ties shuffled(7): a ring row per size" "$(printf '%s\n' "$ratios" | grep -c .)" '^3$'
for ratio in $ratios; do
    check_close "--ties shuffled(7): the ring is the seed formula to 1e-9" "$ratio" 1 1e-9
done
check "--ties shuffled(7): every ring time unchanged" "$([ "$(row_times "$work/ring.yaml" 'shuffled(7)')" = "$ring" ] && echo same)" '^same$'
spray=$(row_times "$work/spray.yaml" scheduled)
moved=no
for seed in 1 2 3; do [ "$(row_times "$work/spray.yaml" "shuffled($seed)")" != "$spray" ] && moved=yes; done
check "--ties shuffled(1..3): spray's contended permutation moves" "$moved" '^yes$'
check "--ties shuffled(2): the same time on a rerun" "$([ "$(row_times "$work/spray.yaml" 'shuffled(2)')" = "$(row_times "$work/spray.yaml" 'shuffled(2)')" ] && echo same)" '^same$'
check "--ties: the model names the order" "$("$collsim" run "$work/spray.yaml" --ties 'shuffled(2)' --format json 2>&1)" '"model": "packet, ties shuffled\(2\)"'
check "--ties: the table header names the order" "$("$collsim" run "$work/spray.yaml" --ties 'shuffled(2)' 2>&1)" 'network model packet, ties shuffled\(2\)'
"$collsim" run "$work/spray.yaml" --ties 'shuffled(2)' --trace "$work/ties-trace.json" --quiet > /dev/null 2>&1
check "--ties: the trace's title names the order" "$(cat "$work/ties-trace.json")" 'network model packet, ties shuffled\(2\)'
check "--ties scheduled: the model is plain packet" "$("$collsim" run "$work/spray.yaml" --ties scheduled --format json 2>&1)" '"model": "packet"'
for bad in 'shuffle(1)' 'shuffled()' 'shuffled(-1)' 'shuffled(1)x' 'shuffled(a)' 'shuffled(18446744073709551616)' random; do
    out=$("$collsim" run "$work/spray.yaml" --ties "$bad" 2>&1); status=$?
    check "--ties $bad: exit 2" "$status" '^2$'
    check "--ties $bad: says what it takes" "$out" 'scheduled or shuffled\(SEED\)'
done
out=$("$collsim" run "$work/ring.yaml" --ties 'shuffled(1)' 2>&1); status=$?
check "--ties with the fluid model: exit 2" "$status" '^2$'
check "--ties with the fluid model: says why" "$out" 'packet model.*add --model packet'

# Virtual lanes (docs/packet.md, "Virtual lanes"): an exchange between
# ranks 0 and 4 beside an incast from ranks 0-3 into rank 5 at 95 % of its
# link.  On
# the incast's lane, rank 0's packets for rank 4 queue at the switch behind
# its packets for rank 5; on a lane of their own they do not, and the
# exchange is faster.  The fluid model has no lanes: a run refuses them.
for lane in 0 1; do
    cat > "$work/lanes$lane.yaml" <<YAML
name: lanes
platform: {name: star-8, kind: star, ranks: 8, alpha: 1us, bandwidth: 10GBps, packet: {virtual_lanes: 2}}
network: packet
cases:
  - primitive: allreduce
    algorithms: [ring]
    sizes: [4MB]
    groups: [[0, 4]]
    background: {ranks: [0, 1, 2, 3], pattern: incast, to: 5, load: 0.95, message: 64KiB, virtual_lane: $lane}
YAML
done
t_same=$("$collsim" run "$work/lanes0.yaml" --format csv --quiet 2>&1 | csv_field - time_s)
t_apart=$("$collsim" run "$work/lanes1.yaml" --format csv --quiet 2>&1 | csv_field - time_s)
check "virtual lanes: the exchange beside the incast, on its lane and apart, both simulated" "$t_same $t_apart" '^[0-9].* [0-9]'
check "virtual lanes: apart from the incast's lane, faster" "$(awk -v a="$t_apart" -v s="$t_same" 'BEGIN {print (a < 0.8 * s) ? "faster" : "not faster: " a " vs " s}')" '^faster$'
check "virtual lanes: the report names the background's lane" "$("$collsim" run "$work/lanes1.yaml" 2>&1)" 'lane 1'
out=$("$collsim" run "$work/lanes1.yaml" --model cm02 2>&1); status=$?
check "virtual lanes under the fluid model: exit 2" "$status" '^2$'
check "virtual lanes under the fluid model: FILE:LINE:COL and why" "$out" "lanes1.yaml:[0-9]*:[0-9]*: virtual lanes are the packet model's"
check "platform describe: spray's entropies" "$(printf 'name: s\nkind: fat_tree\nk: 4\nalpha_edge: 1us\nalpha_aggregation: 2us\nalpha_core: 3us\nbandwidth: 50GBps\npacket: {routing: spray, entropies: 256}\n' > "$work/s.yaml"; "$collsim" platform describe "$work/s.yaml")" 'spray +a sender.s packets cycle through 256 entropy values'
check "platform describe: the lanes" "$(printf 'name: l\nkind: star\nranks: 4\nalpha: 1us\nbandwidth: 10GBps\npacket: {virtual_lanes: 2, lane_weights: [3, 1]}\n' > "$work/l.yaml"; "$collsim" platform describe "$work/l.yaml")" 'lanes .* 2 per link, each with its own buffer and credits; ports serve them weighted \(3:1 packets a turn\)'

summary
