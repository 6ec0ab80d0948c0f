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
bcast:torus_dimdecomp reduce:ring reduce:binomial reduce:torus_dimdecomp"

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
        check "N = $n, $model: every imported schedule takes the built-in's time to 1e-9" "$(gap "$csv")" \
            "^$((count * 2)) pairs, largest gap (0|[0-9.]+e-(1[0-9]|[2-9][0-9]))$"
    done
done
# channels: the exported ring on 4 channels has 4 MSCCL channels, a threadblock per connection
check "ring on 4 channels: nchannels 4" "$(cat "$work/x21-8.xml")" 'nchannels="4"'
check "every attribute MSCCL's runtime requires" "$(head -2 "$work/x21-8.xml")" \
    '<algo name="[^"]+" proto="Simple" nchannels="4" nchunksperloop="32" ngpus="8" coll="allreduce" inplace="1" outofplace="0" minBytes="0" maxBytes="0">'

# what MSCCL cannot express, and why (exit 2)
out=$("$collsim" schedule export inc --ranks 8 2>&1); status=$?
check "inc is refused" "$status" '^2$'
check "inc: its switch actors" "$out" 'switch actors reduce or multicast inside the network'
out=$("$collsim" schedule export bruck --primitive alltoall --ranks 8 2>&1); status=$?
check "bruck is refused: one message of non-contiguous ranges" "$status:$out" '^2:.*non-contiguous set of chunk ranges as one message'
out=$("$collsim" schedule export direct --primitive permutation --ranks 8 2>&1); status=$?
check "a permutation is refused: no such MSCCL collective" "$status:$out" '^2:.*no permutation collective'
out=$("$collsim" schedule export ring --ranks 16 --channels 3 2>&1)
check "ring on 16 ranks, 3 channels: more than 64 steps in a threadblock? no: 30 steps" "$?" '^0$'
out=$("$collsim" schedule export dbt --ranks 64 2>&1); status=$?
check "past MSCCL's 64 steps per threadblock: refused, naming MSCCL_MAX_NUM_STEPS" "$status:$out" '^2:.*MSCCL_MAX_NUM_STEPS'

summary
