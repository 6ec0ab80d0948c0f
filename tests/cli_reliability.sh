#!/bin/sh
# Hostile and unusual use of the command line (docs/reliability.md,
# docs/output.md): units as collsim prints them, routes longer than any fixed buffer,
# files that are not regular files or are too large, --cfg misuse, a solver
# crash retried, the verifier's bound, and interrupts that must leave
# nothing behind.
. "${top_srcdir:-.}/tests/cli_common.sh"
platforms="$top_srcdir/tests/data"
export TMPDIR="$work/tmp" # whatever collsim leaves in a temporary folder shows up here
mkdir "$TMPDIR"

# ---- units as collsim prints them read back (11.8) ----
check "GB/s, Gb/s, µs and μs read like GBps, Gbps and us" \
    "$("$collsim" platform describe "$platforms/units-as-printed.yaml" | cmp - "$(
        "$collsim" platform describe "$platforms/units-canonical.yaml" >"$work/canonical.txt"
        echo "$work/canonical.txt"
    )" && echo same)" "^same$"
# what describe prints for a tier ("alpha 500 ns  BW 50 GB/s") is a valid input
printed=$("$collsim" platform describe "$platforms/units-canonical.yaml" | sed -n 's/^ *leaf *alpha \(.*\) *BW \([^ ]* [^ ]*\) .*/\1|\2/p')
alpha=$(printf '%s' "${printed%%|*}" | sed 's/ *$//')
bandwidth=${printed#*|}
printf 'kind: star\nranks: 8\nalpha: %s\nbandwidth: %s\n' "$alpha" "$bandwidth" >"$work/printed.yaml"
check "describe's own '$alpha' and '$bandwidth' read back" \
    "$("$collsim" platform describe "$work/printed.yaml" | grep '^  switch')" "alpha 500 ns +BW 50 GB/s"
# a plain whole number is a size in bytes: 16000000 predicts as 16MB does
for size in 16000000 16MB; do
    printf 'name: plain\nplatform: %s/platforms/star-64.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [%s]\n' \
        "$top_srcdir" "$size" >"$work/plain-$size.yaml"
    "$collsim" predict "$work/plain-$size.yaml" --format csv >"$work/plain-$size.csv"
done
check "sizes: [16000000] predicts what sizes: [16MB] does" "$(cmp "$work/plain-16000000.csv" "$work/plain-16MB.csv" && echo same)" "^same$"

# ---- routes of any length: each lattice's farthest pair, hop count and
# latency from the geometry (explainer 02 App. B.1: a mesh dim costs d-1
# hops, a torus dim floor(d/2)) ----
route() { # NAME KIND DIMS DST HOPS: route 0 -> DST has HOPS links of 0.5 us
    printf 'kind: %s\ndims: %s\nalpha: 0.5us\nbandwidth: 900GBps\n' "$2" "$3" >"$work/$1.yaml"
    out=$("$collsim" platform route "$work/$1.yaml" 0 "$4" --size 1MB 2>&1)
    check "$1: route 0 -> $4 has $5 links" "$out" "^links $5 physical; latency [0-9.]+ us;"
    check_close "$1: latency $5 x 0.5 us (printed to 4 digits)" \
        "$(printf '%s\n' "$out" | sed -n 's/^links .* latency \([^ ]*\) us;.*/\1/p')" "$5 * 0.5" 1e-4
    check "$1: one message simulated over them is latency + size/BW" "$out" 'relative difference (0|-?[0-9.]+e-1[3-9])$'
}
route mesh-200 mesh "[200]" 199 199
route torus-130 torus "[130]" 65 65
route mesh-40x40 mesh "[40, 40]" 1599 78
route torus-48-cubed torus "[48, 48, 48]" $((24 + 24 * 48 + 24 * 2304)) 72
# predict and run across the 199-hop mesh: t = 199 alpha + M/BW (01 §8)
printf 'name: far\nplatform: %s/mesh-200.yaml\ncases:\n  - primitive: sendrecv\n    algorithms: [direct]\n    sizes: [1MB]\n    root: 0\n    peer: 199\n' \
    "$work" >"$work/far.yaml"
for mode in predict run; do
    column=$([ "$mode" = run ] && echo time_s || echo predicted_s)
    "$collsim" "$mode" "$work/far.yaml" --format json -o "$work/far-$mode.json" 2>"$work/far.err"
    check_close "$mode across 199 mesh hops: $column = 199 alpha + M/BW" \
        "$(json_field "$work/far-$mode.json" "results/0/$column")" "199 * 0.5e-6 + 1e6 / 9e11" 1e-9
done

# ---- files that are not regular YAML files ----
refused() { # DESCRIPTION PATTERN COMMAND...: exit 2, one line matching PATTERN, nothing on stdout
    description=$1
    pattern=$2
    shift 2
    err=$("$@" 2>&1 >"$work/stdout")
    status=$?
    check "$description: exit 2" "$status" "^2$"
    check "$description: says so" "$err" "$pattern"
    check "$description: one line, nothing on stdout" "$(printf '%s\n' "$err" | wc -l)$(wc -c <"$work/stdout")" "^ *1 *0$"
}
refused "a directory as platform" "is a directory, not a YAML file" "$collsim" platform describe "$work"
refused "a directory as scenario" "is a directory, not a YAML file" "$collsim" run "$work"
mkfifo "$work/fifo"
refused "a FIFO as platform (no writer: must not block)" "is a FIFO \(named pipe\), not a regular file" \
    "$collsim" platform describe "$work/fifo"
printf 'name: a\nplatform: %s/fifo\ncases: []\n' "$work" >"$work/fifo-platform.yaml"
refused "a FIFO named as a scenario's platform" "fifo-platform.yaml:2:11: platform file .*is a FIFO" \
    "$collsim" run "$work/fifo-platform.yaml"
if [ "$(id -u)" -ne 0 ]; then
    cp "$top_srcdir/platforms/star-64.yaml" "$work/unreadable.yaml"
    chmod 000 "$work/unreadable.yaml"
    refused "an unreadable platform" "cannot open: Permission denied: make the file readable" \
        "$collsim" platform describe "$work/unreadable.yaml"
fi
awk 'BEGIN { printf "kind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\ndescription: \""; for (i = 0; i < 4300000; i++) printf "x"; print "\"" }' \
    >"$work/huge.yaml"
refused "a platform file above 4 MiB" "is larger than 4 MiB, the largest YAML file collsim reads" \
    "$collsim" platform describe "$work/huge.yaml"
awk 'BEGIN { printf "kind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\ndescription: ["; for (i = 0; i < 1048580; i++) printf "0,"; print "0]" }' \
    >"$work/many.yaml"
refused "more than 2^20 values" "more than 1048576 values" "$collsim" platform describe "$work/many.yaml"

# ---- --cfg misuse is bad input, named before any simulation (11.7) ----
mkdir "$work/out"
for option in foo/bar:1 network/model:FOO maxmin/precision:abc tracing:1; do
    refused "--cfg=$option" "^collsim: --cfg=$option: " "$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" \
        --cfg="$option" -o "$work/out/report.json"
done
check "--cfg misuse leaves no output" "$(ls -A "$work/out")" "^$"

# ---- a crash of SimGrid's solver (torus all-to-all on 5x6 at 4 MB crashes
# SimGrid 3.32's solver at 1e-9 and at 1e-12) is simulated again down the
# precision ladder and said so, naming the case ----
printf 'name: solver\nplatform: {kind: torus, dims: [5, 6], alpha: 0.5us, bandwidth: 900GBps}\ncases:\n  - primitive: alltoall\n    algorithms: [torus]\n    sizes: [4MB]\n' \
    >"$work/solver.yaml"
err=$("$collsim" run "$work/solver.yaml" 2>&1 >/dev/null)
check "a solver crash is retried: exit 0" "$?" "^0$"
check "the retry names the case" "$err" "solver crashed on case 0 \(alltoall torus at 4 MB\) at maxmin/precision:1e-9; simulating again at maxmin/precision:1e-12"
check "then the next precision" "$err" "at maxmin/precision:1e-12; simulating again at maxmin/precision:1e-7"
# ---- the ladder starts at 1e-9, where the solver survives torus all-to-all
# on 2x3x4 (it crashed at 1e-12): no attempt wasted, no note ----
printf 'name: solver\nplatform: {kind: torus, dims: [2, 3, 4], alpha: 0.5us, bandwidth: 900GBps}\ncases:\n  - primitive: alltoall\n    algorithms: [torus]\n    sizes: [1MB]\n' \
    >"$work/solver.yaml"
err=$("$collsim" run "$work/solver.yaml" 2>&1 >/dev/null)
check "2x3x4 all-to-all runs at once: exit 0" "$?" "^0$"
check "2x3x4 all-to-all runs at once: no retry" "$err" "^$"

# ---- the verifier's bound: A2A on 1024 ranks has 2^30 fingerprints ----
printf 'name: big\nplatform: {kind: star, ranks: 1024, alpha: 0.5us, bandwidth: 900GBps}\ncases:\n  - primitive: alltoall\n    algorithms: [pairwise]\n    sizes: [1MB]\n' \
    >"$work/big.yaml"
refused "verify past the verifier's bound" "big.yaml:4:5: cannot verify alltoall pairwise on 1024 ranks: .*the verifier holds at most 134217728" \
    "$collsim" verify "$work/big.yaml"

# ---- the simulation's host bound, (vm.max_map_count - 4096) / 2 actors: pairs of ranks
# exchanging one message past it are a tiny schedule but too many SimGrid actors; predict still runs ----
areas=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 65530)
most=$(((areas - 4096) / 2))
pairs=$((most / 2 + 1))
printf 'name: wide\nplatform: {kind: star, ranks: %d, alpha: 0.5us, bandwidth: 900GBps}\ncases:\n  - primitive: sendrecv\n    algorithms: [direct]\n    sizes: [1MB]\n    groups: {count: %d, size: 2}\n' \
    $((2 * pairs)) "$pairs" >"$work/wide.yaml"
refused "run on more hosts than a simulation holds" "wide.yaml:7:13: $pairs group\\(s\\) of 2 ranks place $((2 * pairs)) ranks in one simulation; the fluid model simulates at most $most at once" \
    "$collsim" run "$work/wide.yaml"
"$collsim" predict "$work/wide.yaml" >/dev/null
check "predict of the same is not bounded by SimGrid" "$?" "^0$"
# the packet model runs its ranks without SimGrid actors: the same pairs run, each pair's exchange
# (uncontended on a star) in the time of one pair alone
"$collsim" run "$work/wide.yaml" --model packet --format csv -o "$work/wide.csv" -q
check "the packet model is not bounded by SimGrid's actors" "$?" "^0$"
sed "s/count: $pairs/count: 1/" "$work/wide.yaml" > "$work/one.yaml"
"$collsim" run "$work/one.yaml" --model packet --format csv -o "$work/one.csv" -q
check "$pairs concurrent pairs on a star take one pair's time" \
    "$(awk -F, 'FNR == 2 { t[FILENAME] = $8 } END { for (f in t) v[++n] = t[f]; print (n == 2 && v[1] == v[2] && v[1] > 0) ? "same" : v[1] " vs " v[2] }' "$work/wide.csv" "$work/one.csv")" "^same$"

# ---- interrupts: SIGTERM, SIGINT, SIGHUP to collsim during a run kill its
# simulations and leave no output, no temporary file, no process ----
long="$top_srcdir/scenarios/bench-torus16-concurrent-groups.yaml"
children_of() { ps -o pid= --ppid "$1" 2>/dev/null | tr -d ' '; }
alive() { # the PIDs still running (a zombie waiting for a new parent to reap it is dead)
    for child in "$@"; do
        case $(ps -o stat= -p "$child" 2>/dev/null) in "" | Z*) ;; *) printf ' %s' "$child" ;; esac
    done
}
started() { # PID: wait until it runs a simulation child
    tries=0
    while [ -z "$(children_of "$1")" ] && [ "$tries" -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
}
for signal in TERM:15 INT:2 HUP:1; do
    number=${signal#*:}
    signal=${signal%:*}
    rm -rf "$work/out" && mkdir "$work/out"
    env --default-signal=INT "$collsim" run "$long" --jobs 2 -o "$work/out/report.json" --plot "$work/out/plot.svg" \
        2>"$work/interrupt.err" &
    pid=$!
    started "$pid"
    children=$(children_of "$pid")
    kill -s "$signal" "$pid"
    wait "$pid"
    status=$?
    check "SIG$signal: collsim dies of it" "$status" "^$((128 + number))$"
    sleep 0.2
    left=$(alive $children)
    check "SIG$signal: its simulation children ($(echo $children)) are gone" "$left" "^$"
    check "SIG$signal: nothing in the output folder" "$(ls -A "$work/out")" "^$"
    check "SIG$signal: nothing in TMPDIR" "$(ls -A "$TMPDIR")" "^$"
done
# SIGKILL cannot be caught: the children die with collsim all the same
"$collsim" run "$long" -o "$work/out/report.json" 2>/dev/null &
pid=$!
started "$pid"
children=$(children_of "$pid")
kill -s KILL "$pid"
wait "$pid"
sleep 0.5
left=$(alive $children)
check "SIGKILL: its simulation children ($(echo $children)) die with it" "$left" "^$"
summary
