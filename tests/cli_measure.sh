#!/bin/sh
# What only packets show, measured on small instances: the orderings that
# docs/contention.md ("What only packets show") reports from the full
# scenarios (scenarios/packet-*.yaml), each against a number derived here
# or the other network model.
#   1. queueing: eta_alpha (small-M time over the formula) rises with
#      background load under the packet model; the fluid model, which has
#      no queues, stays at the formula (explainer 05 §2.2, §6.2);
#   2. congestion spreading: an incast slows a victim that shares only an
#      upstream FIFO with it, to BW/6 (derived below), with credits, not
#      with flow_control: none, not under the fluid model; the stalls reach
#      the victim's own access link; deep buffers delay it (05 §6.4);
#   3. tails: skewed all-to-all and concurrent groups widen p99/p50; a ring
#      alone takes exactly 2(N-1) median messages (05 §6.3);
#   4. routing: ECMP's collisions (eta_beta 1/3 on the k = 4 fat-tree)
#      vanish under adaptive and shrink under spray; both beat ECMP on
#      all-to-all;
#   5. torus layouts under the packet model as under the fluid model.
. "${top_srcdir:-.}/tests/cli_common.sh"
platforms=$(cd "$top_srcdir/platforms" && pwd)
python=/usr/bin/python3
[ -x "$python" ] || python=python3

# rows of a JSON output: case size ratio time_s p50 p99 algbw (one line each)
rows() {
    "$python" - "$1" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["case"], r["group"], r["size_bytes"], repr(r["ratio"]), repr(r["time_s"]),
          repr(r["latency_p50_s"]), repr(r["latency_p99_s"]), repr(r["algbw_Bps"]))
EOF
}
# ratio of case C (group G) at size S in rows file F
field() { # file case group size column(4=ratio 5=time 6=p50 7=p99 8=algbw)
    awk -v c="$2" -v g="$3" -v s="$4" -v k="$5" '$1 == c && $2 == g && $3 == s {print $k}' "$1"
}
# "yes" when awk's expression over a and b holds
holds() { awk -v a="$1" -v b="$2" "BEGIN {print ($3) ? \"yes\" : \"no: a=\" a \" b=\" b}"; }
# runs $work/NAME.yaml under both models: $work/NAME-packet.json / .rows, $work/NAME-cm02.json / .rows
both_models() { # name, options for the packet run
    name=$1; shift
    for model in packet cm02; do
        [ $model = packet ] && options="$*" || options=""
        # shellcheck disable=SC2086
        "$collsim" run "$work/$name.yaml" --model $model $options --format json -o "$work/$name-$model.json" 2>"$work/err"
        check "$name: $model run exits 0" "$? $(cat "$work/err")" '^0 $'
        rows "$work/$name-$model.json" > "$work/$name-$model.rows"
    done
}

# --- 1. queueing eta_alpha against load (Clos 8 x 4, s = 4, 650 KB buffers) ---
bg='ranks: [[1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23, 25, 26, 27, 29, 30, 31]], pattern: uniform, tier: spine'
{
    echo "name: measure-queueing"
    echo "platform: {name: clos-8x4-s4-650KB, kind: clos, leaves: 8, ranks_per_leaf: 4, spines: 1, oversubscription: 4, alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps, packet: {buffer: 650KB}}"
    echo "cases:"
    for load in 0 0.5 0.8; do
        case="primitive: allreduce, algorithms: [ring], sizes: [1KB], groups: [[0, 4, 8, 12, 16, 20, 24, 28]]"
        if [ "$load" = 0 ]; then echo "  - {$case}"; else echo "  - {$case, background: {$bg, load: $load}}"; fi
    done
} > "$work/queueing.yaml"
both_models queueing
q0=$(field "$work/queueing-packet.rows" 0 0 1000 4)
q50=$(field "$work/queueing-packet.rows" 1 0 1000 4)
q80=$(field "$work/queueing-packet.rows" 2 0 1000 4)
check_close "queueing: no load, the ring is its formula (14 alpha + 1.75 M/BW): ratio 1" "$q0" 1 1e-9
check "queueing: eta_alpha at 50 % load above the idle fabric's by > 10 %" "$(holds "$q50" "$q0" 'a > 1.1 * b')" '^yes$'
check "queueing: eta_alpha at 80 % load above 50 %'s" "$(holds "$q80" "$q50" 'a > b')" '^yes$'
for c in 1 2; do
    f=$(field "$work/queueing-cm02.rows" $c 0 1000 4)
    check "queueing: fluid model, case $c: no queues, 1 KB at its formula within 2 %" "$(holds "$f" 1 'a < 1.02 * b')" '^yes$'
done

# --- 2. congestion spreading (Clos 4 x 4, s = 2, one spine) ---
# Incast: ranks 1-3 (leaf 0) and 5-7 (leaf 1) into rank 8 (leaf 2) at 1.5 x
# its link; victim r0 -> r12 (leaf 0 -> leaf 3) shares with it only leaf 0's
# uplink and the spine's FIFO input buffer from leaf 0.  With credits, r8's
# link (BW) is the bottleneck: the spine's port to leaf 2 serves its inputs
# from leaf 0 and leaf 1 in turn, BW/2 each; leaf 0's uplink takes r0..r3 in
# turn, so that FIFO holds one victim packet per three incast packets and
# drains the victim at (BW/2)/3 = BW/6.  Unbounded buffers lift that, given
# a crossbar of speedup 2: at speedup 1 an input that waited for a busy
# output drains its backlog no faster than its link fills it, and the
# victim ends about 12 % late.
spread_platform() { # name, packet mapping
    echo "{name: $1, kind: clos, leaves: 4, ranks_per_leaf: 4, spines: 1, oversubscription: 2, alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps$2}"
}
incast='background: {ranks: [1, 2, 3, 5, 6, 7], pattern: incast, to: 8, load: 1.5}'
cat > "$work/spreading.yaml" <<YAML
name: measure-spreading
platform: $(spread_platform credit "")
cases:
  - {primitive: sendrecv, algorithms: [direct], sizes: [1MB, 16MB], groups: [[0, 12]]}
  - {primitive: sendrecv, algorithms: [direct], sizes: [1MB, 16MB], groups: [[0, 12]], $incast}
  - {primitive: sendrecv, algorithms: [direct], sizes: [1MB, 16MB], groups: [[0, 12]], $incast,
     platform: $(spread_platform none ", packet: {flow_control: none, speedup: 2}")}
  - {primitive: sendrecv, algorithms: [direct], sizes: [1MB, 16MB], groups: [[0, 12]], $incast,
     platform: $(spread_platform deep ", packet: {buffer: 4MB}")}
YAML
both_models spreading --links
alone=$(field "$work/spreading-packet.rows" 0 0 16000000 4)
credit=$(field "$work/spreading-packet.rows" 1 0 16000000 8)
none=$(field "$work/spreading-packet.rows" 2 0 16000000 4)
check_close "spreading: the victim alone is its formula: ratio 1" "$alone" 1 1e-9
check_close "spreading: with credits the victim runs at BW/6 = 8.33 GB/s (within 3 %)" "$credit" 8.3333e9 0.03
check "spreading: flow_control none, the victim within 5 % of alone" "$(holds "$none" 1 'a < 1.05')" '^yes$'
for c in 1 2 3; do
    f=$(field "$work/spreading-cm02.rows" $c 0 16000000 4)
    check_close "spreading: fluid model, case $c: the victim at its formula: ratio 1" "$f" 1 1e-9
done
default1=$(field "$work/spreading-packet.rows" 1 0 1000000 4)
deep1=$(field "$work/spreading-packet.rows" 3 0 1000000 4)
check "spreading: 4 MB buffers absorb the incast longer (1 MB victim less than half as slowed)" "$(holds "$deep1" "$default1" 'a - 1 < (b - 1) / 2')" '^yes$'
out=$("$python" - "$work/spreading-packet.json" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
def stalled(case, link, direction):
    r = [r for r in rows if r["case"] == case and r["size_bytes"] == 16000000][0]
    return [l["stalled_s"] for l in r["links"] if l["link"] == link and l["direction"] == direction][0]
print("credit victim access", "stalled" if stalled(1, "r0_leaf", "up") > 0 else "free")
print("credit spine to leaf 2", "stalled" if stalled(1, "leaf2_spine0", "down") > 0 else "free")
print("none stalls", sum(l["stalled_s"] for r in rows if r["case"] == 2 for l in r["links"]))
EOF
)
check "spreading: credits stall the spine's port to the incast's leaf" "$out" '^credit spine to leaf 2 stalled$'
check "spreading: the stalls reach the victim's own access link (two tiers up)" "$out" '^credit victim access stalled$'
check "spreading: flow_control none stalls nothing" "$out" '^none stalls 0(\.0)?$'

# --- 3. tails ---
cat > "$work/tails.yaml" <<YAML
name: measure-tails
network: packet
platform: $platforms/star-64.yaml
cases:
  - {primitive: alltoall, algorithms: [pairwise], sizes: [4MB], skew: uniform}
  - {primitive: alltoall, algorithms: [pairwise], sizes: [4MB], skew: zipf(1.2)}
  - {primitive: allreduce, algorithms: [ring], sizes: [4MB], groups: [[0, 4, 8, 12]], platform: $platforms/fat-tree-k4.yaml}
  - {primitive: allreduce, algorithms: [ring], sizes: [4MB], groups: {count: 4, size: 4, layout: strided}, platform: $platforms/fat-tree-k4.yaml}
YAML
"$collsim" run "$work/tails.yaml" --format json -o "$work/t.json" 2>"$work/err"
check "tails: run exits 0" "$? $(cat "$work/err")" '^0 $'
rows "$work/t.json" > "$work/t.rows"
tail_ratio() { awk -v c="$1" -v g="$2" '$1 == c && $2 == g {print $7 / $6}' "$work/t.rows"; }
check "tails: uniform all-to-all, every message alike: p99 = p50" "$(holds "$(tail_ratio 0 0)" 1 'a - b < 1e-9')" '^yes$'
check "tails: zipf(1.2) all-to-all, p99/p50 > 2" "$(holds "$(tail_ratio 1 0)" 2 'a > b')" '^yes$'
check "tails: a ring alone, p99 = p50" "$(holds "$(tail_ratio 2 0)" 1 'a - b < 1e-9')" '^yes$'
slowest=$(awk '$1 == 3 {print $2, $5}' "$work/t.rows" | sort -k2 -g | tail -1 | cut -d' ' -f1)
check "tails: 4 concurrent ring groups (ECMP), the slowest group's p99/p50 > 1.1" "$(holds "$(tail_ratio 3 "$slowest")" 1.1 'a > b')" '^yes$'
check_close "tails: a ring alone takes 2(N-1) = 6 median messages" \
    "$(field "$work/t.rows" 2 0 4000000 5)" "6 * $(field "$work/t.rows" 2 0 4000000 6)" 1e-9
check "tails: a concurrent ring group takes more than 6 median messages" \
    "$(holds "$(field "$work/t.rows" 3 "$slowest" 4000000 5)" "$(field "$work/t.rows" 3 "$slowest" 4000000 6)" 'a > 6.5 * b')" '^yes$'

# --- 4. routing on the k = 4 fat-tree ---
ft() { echo "{name: ft-$(echo "$1" | tr -dc a-z), kind: fat_tree, k: 4, alpha_edge: 2us, alpha_aggregation: 8us, alpha_core: 12us, bandwidth: 50GBps, packet: {routing: $1}}"; }
{
    echo "name: measure-routing"
    echo "network: packet"
    echo "platform: $(ft ecmp)"
    echo "cases:"
    for r in ecmp spray adaptive; do
        echo "  - {primitive: allreduce, algorithms: [ring], sizes: [1MB, 4MB, 16MB], groups: {count: 4, size: 4, layout: strided}, platform: $(ft $r)}"
    done
    for r in ecmp spray adaptive; do
        echo "  - {primitive: alltoall, algorithms: [pairwise], sizes: [1MB, 4MB, 16MB], platform: $(ft $r)}"
    done
    echo "  - {primitive: allreduce, algorithms: [ring], sizes: [1MB, 4MB, 16MB], groups: {count: 4, size: 4, layout: strided}, platform: $(ft "adaptive, architecture: voq")}"
} > "$work/routing.yaml"
"$collsim" run "$work/routing.yaml" --format json -o "$work/r.json" 2>"$work/err"
check "routing: run exits 0" "$? $(cat "$work/err")" '^0 $'
# eta_beta of CASE's whole collective (no tier)
routing_eta() { json_field "$work/r.json" "eta/case=$1,tier=null/eta_beta"; }
# three of the four cross-pod rings' flows share one core path under ECMP (docs/contention.md)
check_close "routing: ECMP rings collide, eta_beta 1/3 within 4 %" "$(routing_eta 0)" "1 / 3" 0.04
# adaptive steers each packet to the emptier uplink: the rings' collisions go.
# spray hashes each packet's entropy at every switch: the rings' flows spread
# over both cores, but at random, and these fifo switches block at their
# inputs under random destinations (Karol et al. 1987): better than ECMP, not 1
check_close "routing: adaptive undoes the collisions (eta_beta 1)" "$(routing_eta 2)" 1 0.0005
check "routing: spray spreads the rings' collisions (eta_beta above ECMP's 1/3)" \
    "$(holds "$(routing_eta 1)" "$(routing_eta 0)" 'a > 1.5 * b')" '^yes$'
# a pairwise all-to-all's steps are permutations, which ECMP's hash collides
# (Al-Fares et al. 2008) and per-packet choices spread
check "routing: spray beats ECMP on the all-to-all" "$(holds "$(routing_eta 4)" "$(routing_eta 3)" 'a > b')" '^yes$'
# at voq switches a packet takes its queue (and so its fork) as it enters:
# adaptive counts every packet that chose a port, not only the queues' heads
check_close "routing: adaptive at voq switches undoes the collisions too (eta_beta 1)" "$(routing_eta 6)" 1 0.0005
check "routing: adaptive beats ECMP on the all-to-all" "$(holds "$(routing_eta 5)" "$(routing_eta 3)" 'a > b')" '^yes$'

# --- 5. torus layouts (8x8x8) under the packet model beside the fluid model ---
cat > "$work/torus.yaml" <<YAML
name: measure-torus
platform: $platforms/torus-8x8x8.yaml
cases:
  - {primitive: allreduce, algorithms: [ring], sizes: [1MB], groups: {count: 64, size: 8, layout: prefix}}
  - {primitive: allreduce, algorithms: [ring], sizes: [1MB], groups: {count: 128, size: 4, layout: strided}}
  - {primitive: allreduce, algorithms: [ring], sizes: [1MB], groups: {count: 1, size: 8, layout: random(1)}}
YAML
both_models torus
for model in packet cm02; do
    check_close "torus: $model, 64 prefix groups on disjoint X lines are the formula: ratio 1" \
        "$(field "$work/torus-$model.rows" 0 0 1000000 4)" 1 1e-9
done
# strided by 128: every ring hop crosses 2 links and every link carries one hop of each of 2 rings
check_close "torus: fluid, groups sharing a dimension take exactly twice the formula: ratio 2 within 1e-9" \
    "$(field "$work/torus-cm02.rows" 1 0 1000000 4)" 2 0.5e-9
check "torus: packet, groups sharing a dimension slower than alone" \
    "$(holds "$(field "$work/torus-packet.rows" 1 0 1000000 4)" 1 'a > 1.2')" '^yes$'
# an off-prefix group alone: its hops are longer paths on free links, the same time in both models
check_close "torus: an off-prefix group alone, packet = fluid" \
    "$(field "$work/torus-packet.rows" 2 0 1000000 5)" "$(field "$work/torus-cm02.rows" 2 0 1000000 5)" 1e-9

summary
