#!/bin/sh
# MSCCL schedules as data (docs/schedules.md): every built-in algorithm MSCCL
# can express, exported (`collsim schedule export`), read back
# (`algorithms: [msccl:FILE.xml]`), verified and simulated, takes the
# built-in's time to 1e-9 in both network models; what MSCCL cannot express
# is refused with the reason; hand-written files verify and take their
# alpha-beta forms (computed here from the platform's alpha and BW); a wrong
# one fails naming the chunk; malformed ones exit 2 with FILE:LINE.
. "${top_srcdir:-.}/tests/cli_common.sh"
data=$(cd "$top_srcdir/tests/data/msccl" && pwd)

# The exportable built-ins: primitive and algorithm (ring also on 4 channels).
builtins="allreduce:ring allreduce:dbt allreduce:recursive_doubling allreduce:rabenseifner allreduce:torus_dimdecomp
allreduce:torus_rabenseifner allgather:ring allgather:recursive_doubling allgather:torus_dimdecomp reducescatter:ring
reducescatter:recursive_halving reducescatter:torus_dimdecomp alltoall:pairwise alltoall:torus bcast:ring bcast:binomial
bcast:torus_dimdecomp reduce:ring reduce:binomial reduce:torus_dimdecomp allgather:pat reducescatter:pat alltoall:bruck
alltoall:ring_relay"

# the largest relative gap between each built-in row (case 2k) and its msccl: twin (case 2k + 1), size by size
gap() { # csv
    printf '%s\n' "$1" | awk -F, '$1 ~ /^[0-9]+$/ {
        key = int($1 / 2) "," $6; if ($3 ~ /^msccl:/) m[key] = $8; else b[key] = $8 }
        END { worst = 0; n = 0
              for (k in m) { n++; if (!(k in b)) { print "unpaired", k; exit }
                             d = (m[k] - b[k]) / b[k]; if (d < 0) d = -d; if (d > worst) worst = d }
              printf "%d pairs, largest gap %.3g\n", n, worst }'
}

for n in 4 8 16; do
    scenario="$work/roundtrip-$n.yaml"
    printf 'name: roundtrip-%s\nplatform: {name: star, kind: star, ranks: 32, alpha: 0.5us, bandwidth: 900GBps}\ncases:\n' "$n" > "$scenario"
    count=0
    for item in $builtins ring4; do
        prim=${item%%:*} algo=${item#*:} channels=1
        [ "$item" = ring4 ] && prim=allreduce algo=ring channels=4
        count=$((count + 1))
        file="$work/x$count-$n.xml" # short: the row's algorithm name is msccl:x1-8
        out=$("$collsim" schedule export "$algo" --primitive "$prim" --ranks "$n" --channels "$channels" -o "$file" 2>&1)
        check "$prim $algo on $n ranks, $channels channel(s) exports" "$?:$out" '^0:$'
        extra=""
        [ "$channels" -gt 1 ] && extra="    channels: $channels
"
        for what in "$algo
$extra" "msccl:$(basename "$file")
"; do
            printf '  - primitive: %s\n    algorithms: [%s]\n    sizes: [1MB, 16MB]\n    groups: {count: 1, size: %s}\n' \
                "$prim" "$(printf '%s\n' "$what" | head -1)" "$n" >> "$scenario"
            printf '%s\n' "$what" | sed 1d | grep . >> "$scenario"
        done
    done
    out=$("$collsim" verify "$scenario" 2>&1)
    check "N = $n: every built-in and its MSCCL twin verify" "$?" '^0$'
    check "N = $n: no verification failed" "$(printf '%s\n' "$out" | grep -c FAILED)" '^0$'
    for model in cm02 packet; do
        csv=$("$collsim" run "$scenario" --model "$model" --format csv 2>&1)
        check "N = $n, $model: runs" "$?" '^0$'
        echo "round trip, N = $n, $model: $(gap "$csv")"
        check "N = $n, $model: every imported schedule takes the built-in's time to 1e-9" "$(gap "$csv")" \
            "^$((count * 2)) pairs, largest gap (0|[0-9.]+e-(1[0-9]|[2-9][0-9]))$"
    done
done
# channels: the exported ring on 4 channels has 4 MSCCL channels, a threadblock per connection
check "ring on 4 channels: nchannels 4" "$(cat "$work/x25-8.xml")" 'nchannels="4"'
check "every attribute MSCCL's runtime requires" "$(head -2 "$work/x25-8.xml")" \
    '<algo name="[^"]+" proto="Simple" nchannels="4" nchunksperloop="32" ngpus="8" coll="allreduce" inplace="1" outofplace="0" minBytes="0" maxBytes="0">'

# from a scenario's case: hierarchical all-reduce on a Clos of 4 leaves (the platform's domains), exported, read
# back on the same platform, verified and simulated: the built-in's time to 1e-9 in both models, contended or not
platforms=$(cd "$top_srcdir/platforms" && pwd)
printf 'name: h\nplatform: %s/clos-16.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [hierarchical]\n    sizes: [1MB, 16MB]\n' \
    "$platforms" > "$work/hier.yaml"
out=$("$collsim" schedule export "$work/hier.yaml" -o "$work/h.xml" 2>&1)
check "hierarchical exported from a scenario's case" "$?:$out" '^0:$'
printf 'name: h\nplatform: %s/clos-16.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [hierarchical]\n    sizes: [1MB, 16MB]\n  - primitive: allreduce\n    algorithms: [msccl:h.xml]\n    sizes: [1MB, 16MB]\n' \
    "$platforms" > "$work/hier2.yaml"
check "... read back, it verifies" "$("$collsim" verify "$work/hier2.yaml" 2>&1 | grep -c ': ok$')" '^4$'
for model in cm02 packet; do
    check "... and takes the built-in's time under $model" "$(gap "$("$collsim" run "$work/hier2.yaml" --model $model --format csv 2>&1)")" \
        '^2 pairs, largest gap (0|[0-9.]+e-(1[0-9]|[2-9][0-9]))$'
done
# protocol: auto asks the prediction before the schedule is built
printf 'name: p\nplatform: %s\ncases:\n  - primitive: allreduce\n    algorithms: [msccl:%s]\n    protocol: auto\n    sizes: [1KB, 1GB]\n' \
    '{name: star8, kind: star, ranks: 8, alpha: 0.5us, bandwidth: 900GBps}' "$data/hier_allreduce.xml" > "$work/auto.yaml"
out=$("$collsim" predict "$work/auto.yaml" --format csv 2>&1)
check "protocol: auto predicts an imported algorithm" "$?:$(printf '%s\n' "$out" | grep -c '^0,allreduce,msccl:hier_allreduce')" '^0:2$'

# what MSCCL cannot express, and why (exit 2)
out=$("$collsim" schedule export inc --ranks 8 2>&1); status=$?
check "inc is refused" "$status" '^2$'
check "inc: its switch actors" "$out" 'switch actors reduce or multicast inside the network'
check "bruck's messages of several ranges: packed into scratch (cpy, then s; r, then cpy)" \
    "$(grep -c 'type="cpy"' "$work/x23-8.xml")" '^[1-9][0-9]*$'
out=$("$collsim" schedule export direct --primitive permutation --ranks 8 2>&1); status=$?
check "a permutation is refused: no such MSCCL collective" "$status:$out" '^2:.*no permutation collective'
out=$("$collsim" schedule export ring --ranks 16 --channels 3 2>&1)
check "ring on 16 ranks, 3 channels: 30 steps per threadblock, within MSCCL's 64" "$?" '^0$'
out=$("$collsim" schedule export dbt --ranks 64 2>&1); status=$?
check "past MSCCL's 64 steps per threadblock: refused, naming MSCCL_MAX_NUM_STEPS" "$status:$out" '^2:.*MSCCL_MAX_NUM_STEPS'

# hand-written files (tests/data/msccl, generate.py): each verifies and, under the fluid model (which shares a
# port's rate among the messages that cross it), takes its alpha-beta form, computed here from the platform
# written below: alpha 0.5 us and BW 900 GB/s on the star; alpha_leaf 2 us, alpha_spine 8 us, BW 50 GB/s on two leaves.
star='{name: star8, kind: star, ranks: 8, alpha: 0.5us, bandwidth: 900GBps}'
nodes='{name: two-nodes, kind: clos, leaves: 2, ranks_per_leaf: 4, spines: 1, oversubscription: 1, alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps}'
form() { # alpha-beta time in seconds: n_alpha_leaf alpha_leaf(us) n_alpha_outer alpha_outer(us) n_beta (of M) M BW(GB/s)
    awk -v a="$1" -v x="$2" -v b="$3" -v y="$4" -v n="$5" -v m="$6" -v bw="$7" 'BEGIN { printf "%.17g", a * x * 1e-6 + b * y * 1e-6 + n * m / (bw * 1e9) }'
}
hand() { # file primitive platform model: "size time" per row
    printf 'name: hand\nplatform: %s\ncases:\n  - primitive: %s\n    algorithms: [msccl:%s]\n    sizes: [1MB, 64MB]\n' \
        "$3" "$2" "$data/$1" > "$work/hand.yaml"
    "$collsim" run "$work/hand.yaml" --verify --model "$4" --format csv 2>"$work/hand.err" | awk -F, '$1 == "0" { print $6, $8 }'
}
close() { # rows "size time", then expected times per size as "size:seconds ...": "ok" or what differs
    printf '%s\n' "$1" | awk -v want="$2" -v tol="$3" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { split(w[i], p, ":"); e[p[1]] = p[2] } }
        { d = ($2 - e[$1]) / e[$1]; if (d < 0) d = -d; if (!($1 in e) || d > tol) { print "size", $1, "time", $2, "want", e[$1]; bad = 1 } ; rows++ }
        END { if (!bad && rows == 2) print "ok"; else if (rows != 2) print rows, "rows" }'
}
n=8
for m in 1000000 64000000; do
    ring="$ring $m:$(form $((2 * (n - 1))) 0.5 0 0 "$(awk -v n=$n 'BEGIN { print 2 * (n - 1) / n }')" $m 900)"
    pairs="$pairs $m:$(form 2 0.5 0 0 "$(awk -v n=$n 'BEGIN { print 2 * (n - 1) / n }')" $m 900)"
    a2a="$a2a $m:$(form 1 0.5 0 0 "$(awk -v n=$n 'BEGIN { print (n - 1) / n }')" $m 900)"
    hier="$hier $m:$(form 6 2 1 8 1.75 $m 50)"
done
check "ring all-reduce, 8 GPUs, 8 channels: 2(N-1) alpha + 2(N-1)/N M/BW" "$(close "$(hand ring_allreduce_8ch.xml allreduce "$star" cm02)" "$ring" 1e-9)" '^ok$'
check "... verifies" "$(cat "$work/hand.err")" 'ring_allreduce_8ch on 8 ranks, 64 MB .*: ok'
check "all-pairs all-reduce: 2 alpha + 2(N-1)/N M/BW" "$(close "$(hand allpairs_allreduce.xml allreduce "$star" cm02)" "$pairs" 1e-9)" '^ok$'
check "... verifies" "$(cat "$work/hand.err")" 'allpairs_allreduce on 8 ranks, 64 MB .*: ok'
check "all-to-all: alpha + (N-1)/N M/BW" "$(close "$(hand alltoall_direct.xml alltoall "$star" cm02)" "$a2a" 1e-9)" '^ok$'
check "... verifies" "$(cat "$work/hand.err")" 'alltoall_direct on 8 ranks, 64 MB .*: ok'
check "two-node all-reduce: 6 alpha_leaf + alpha_spine + 7 (M/4)/BW" "$(close "$(hand hier_allreduce.xml allreduce "$nodes" cm02)" "$hier" 1e-9)" '^ok$'
check "... verifies" "$(cat "$work/hand.err")" 'hier_allreduce on 8 ranks, 64 MB .*: ok'
out=$(printf 'name: h\nplatform: %s\ncases:\n  - primitive: allreduce\n    algorithms: [msccl:%s]\n    sizes: [1MB, 64MB]\n' "$nodes" "$data/hier_allreduce.xml" > "$work/p.yaml"; "$collsim" predict "$work/p.yaml" --format csv 2>&1)
check "two-node all-reduce: its critical-path prediction is the same form (n_alpha 10 over the tiers, n_beta 1.75)" \
    "$(close "$(printf '%s\n' "$out" | awk -F, '$1 == "0" { print $6, $9 }')" "$hier" 1e-9)" '^ok$'
# packet model: the same files verify and run; a port's messages go packet by packet, near the forms
check "packet model: two-node all-reduce within 0.5 % of its form" "$(close "$(hand hier_allreduce.xml allreduce "$nodes" packet)" "$hier" 5e-3)" '^ok$'
# (the all-to-all's seven messages per rank meet at the switch's outputs: an output-queued switch takes them as
# they come, within 2.3 % of the form at 1 MB; behind FIFO inputs, head-of-line blocking makes it 7.8 %: docs/packet.md)
oq_star='{name: star8, kind: star, ranks: 8, alpha: 0.5us, bandwidth: 900GBps, packet: {architecture: shared}}'
check "packet model: all-to-all within 5 % of its form (output-queued switch)" "$(close "$(hand alltoall_direct.xml alltoall "$oq_star" packet)" "$a2a" 5e-2)" '^ok$'

# a chunk sent to the wrong rank: verification fails naming the rank and the chunk (block 0 -> 1 is chunk 1), exit 1
printf 'name: w\nplatform: %s\ncases:\n  - primitive: alltoall\n    algorithms: [msccl:%s]\n    sizes: [1MB]\n' "$star" "$data/alltoall_wrong.xml" > "$work/w.yaml"
out=$("$collsim" verify "$work/w.yaml" 2>&1); status=$?
check "the wrong all-to-all fails verification (exit 1)" "$status" '^1$'
check "... naming rank 1's chunk 1 (its block from rank 0)" "$out" 'FAILED: rank 1 chunk 1 is wrong'

# malformed or impossible files: exit 2 with FILE:LINE and what to do
good="$data/alltoall_direct.xml"
bad() { # name sed-expression: a copy of the all-to-all broken by SED, run: "status|message"
    sed "$2" "$good" > "$work/$1.xml"
    printf 'name: b\nplatform: %s\ncases:\n  - primitive: alltoall\n    algorithms: [msccl:%s.xml]\n    sizes: [1MB]\n' "$star" "$1" > "$work/$1.yaml"
    out=$("$collsim" verify "$work/$1.yaml" 2>&1); printf '%s|%s' "$?" "$out"
}
check "not well-formed XML" "$(bad broken '5s|/>|>|')" "^2\|.*broken.xml:[0-9]+(:[0-9]+)?: not well-formed XML"
check "unknown step type" "$(bad type '5s|type="s"|type="send"|')" '^2\|.*type.xml:5:0: unknown step type "send"'
check "dangling dependency" "$(bad dangling '5s|depid="-1" deps="-1"|depid="3" deps="7"|')" '^2\|.*dangling.xml:5:0: deps 7 names no step of threadblock 3'
check "dependency on a step that never signals" "$(bad silent '5s|depid="-1" deps="-1"|depid="1" deps="1"|')" '^2\|.*silent.xml:5:0: .*never signals'
check "cycle of dependencies" "$(bad cycle '5s|depid="-1" deps="-1" hasdep="0"|depid="1" deps="0" hasdep="1"|; 9s|depid="-1" deps="-1" hasdep="0"|depid="0" deps="0" hasdep="1"|')" \
    '^2\|.*cycle.xml:[0-9]+:0: .*wait for one another in a cycle'
check "chunk out of range" "$(bad range '5s|srcoff="1"|srcoff="8"|')" '^2\|.*range.xml:5:0: srcoff chunks 8..8 are outside GPU 0.s input buffer of 8 chunks'
check "a send nobody receives" "$(bad unmatched '6d')" '^2\|.*unmatched.xml:[0-9]+:0: GPU [0-9]+.s send to GPU 0 here never completes'
check "collective of another primitive" "$(bad coll 's|coll="alltoall"|coll="allgather"|')" '^2\|.*coll.xml:2:0: coll "allgather" is a allgather, but the case runs alltoall'
check "missing attribute" "$(bad attribute '4s| recv="1"||')" "^2\\|.*attribute.xml:4:0: <tb> has no 'recv' attribute"
printf 'name: g\nplatform: %s\ncases:\n  - primitive: alltoall\n    algorithms: [msccl:%s]\n    sizes: [1MB]\n    groups: {count: 2, size: 4}\n' \
    "$star" "$good" > "$work/groups.yaml"
out=$("$collsim" verify "$work/groups.yaml" 2>&1)
check "ngpus is not the case's group size" "$?|$out" '^2\|.*alltoall_direct.xml:2:0: ngpus is 8, but the case.s groups have 4 ranks'
sed 's|ngpus="8"|ngpus="4"|' "$good" > "$work/ngpus.xml"
out=$("$collsim" schedule show "$work/ngpus.xml" 2>&1)
check "more GPUs than ngpus" "$?|$out" "^2\\|.*ngpus.xml:[0-9]+:0: 'id' must be a decimal integer from 0 to 3, not \"4\""

# schedule show: per rank and lane, for a file and a built-in alike
out=$("$collsim" schedule show "$data/hier_allreduce.xml" 2>&1)
check "show an MSCCL file: 4 lanes of rank 0 and its critical path of 7 messages" "$out" 'critical path 7 messages'
check "... a lane per connection" "$out" 'lane: send to 4, channel 0'
out=$("$collsim" schedule show ring --ranks 4 2>&1)
check "show a built-in: ring on 4 ranks, 6 messages on its critical path" "$out" 'allreduce on 4 ranks, 4 chunks, 48 ops, 24 messages; critical path 6 messages'

summary
