#!/bin/sh
# A simulation child's heartbeat and bounds (docs/reliability.md, "Simulation
# children", "Heartbeat and watchdog", "Simulation budgets", "--cfg options"):
# a long simulation shows its simulated time and operations every 2 s on the
# progress line; a child whose simulated time stands still is ended (exit 3);
# one past its memory limit ends as out of memory (exit 3); a packet-model
# run past its packet-hop budget and --cfg values that spin or depend on load
# are refused before they run (exit 2); nothing is written on any of them.
. "${top_srcdir:-.}/tests/cli_common.sh"
long="$top_srcdir/scenarios/bench-ring-star512.yaml" # ring all-reduce, 512 ranks, 1 MB: seconds of simulation
mkdir "$work/out"

# ---- the heartbeat: every beat later in simulated time, never past the run ----
"$collsim" run "$long" --progress --format json > "$work/long.json" 2> "$work/err"
check "a long simulation with --progress exits 0" "$?" '^0$'
elapsed=$(sed -n 's/^collsim: 1\/1 simulations done; \([0-9.]*\) s elapsed$/\1/p' "$work/err")
beats=$(grep -cE '^collsim: 0/1 simulations done, running case 0 allreduce ring 1 MB; [0-9.]+ s elapsed; simulated [0-9.]+ [mun]?s, [0-9]+ operations done$' "$work/err")
if awk "BEGIN { exit !($elapsed >= 5) }"; then
    check "a simulation of $elapsed s shows a heartbeat at least twice" "$(awk "BEGIN { print ($beats >= 2) ? \"yes\" : \"$beats beats\" }")" '^yes$'
else
    echo "note: the simulation took $elapsed s, under 5 s: $beats heartbeat(s) seen, two not required"
fi
# simulated time (seconds) and operations of each beat, in order
sed -n 's/.* elapsed; simulated \([0-9.]*\) \([mun]*s\), \([0-9]*\) operations done$/\1 \2 \3/p' "$work/err" |
    awk '{ scale = $2 == "ms" ? 1e-3 : $2 == "us" ? 1e-6 : $2 == "ns" ? 1e-9 : 1; printf "%.6e %s\n", $1 * scale, $3 }' > "$work/beats"
check "each heartbeat is later in simulated time and has more operations done" \
    "$(awk 'NR > 1 && !($1 > t && $2 > n) { bad = bad " " NR } { t = $1; n = $2 } END { print bad ? "out of order at" bad : "increasing" }' "$work/beats")" '^increasing$'
run_s=$(json_field "$work/long.json" results/0/time_s)
check "no heartbeat is past the run's simulated time ($run_s s)" \
    "$(awk -v end="$run_s" '$1 > end { bad = 1 } END { print bad ? "past the end" : "within" }' "$work/beats")" '^within$'
# ring all-reduce on N = 512: every rank sends and receives 2 (N - 1) messages: 4 N (N - 1) operations
check "no heartbeat counts more operations than the ring has (4 x 512 x 511)" \
    "$(awk '$2 > 4 * 512 * 511 { bad = 1 } END { print bad ? "too many" : "within" }' "$work/beats")" '^within$'

# ---- the watchdog: a child stopped outright (SIGSTOP) makes no progress ----
COLLSIM_STALL_SECONDS=3 "$collsim" run "$long" -q -o "$work/out/stalled.json" 2> "$work/err" &
runner=$!
child=""
for attempt in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do # the simulation child, once forked
    sleep 0.5
    child=$(pgrep -P "$runner" | head -1)
    [ -n "$child" ] && break
done
start=$(date +%s)
[ -n "$child" ] && kill -STOP "$child"
wait "$runner"
status=$?
check "a child whose simulated time stands still is ended: exit 3" "$status" '^3$'
check "the watchdog ends it within a few seconds of the 3 s limit" "$(( $(date +%s) - start ))" '^([0-9])$'
check "it says so, naming the case and the limit" "$(cat "$work/err")" \
    '^collsim: the simulation of case 0 \(allreduce ring at 1 MB\) made no progress in simulated time for [3-9] s of wall time \(stuck at .* simulated, [0-9]+ operations done\): ended, as COLLSIM_STALL_SECONDS=3 asks'

# ---- the memory limit: 64 MiB cannot hold 512 ranks' actors ----
if [ -z "$collsim_instrumented" ]; then
    COLLSIM_CHILD_MEMORY=64MiB "$collsim" run "$long" -q -o "$work/out/oom.json" 2> "$work/err"
    check "a child past its memory limit: exit 3" "$?" '^3$'
    check "it says out of memory, with the limit" "$(tail -1 "$work/err")" \
        '^collsim: the simulation of case 0 \(allreduce ring at 1 MB\) ran out of memory \(its limit: 64 MiB, COLLSIM_CHILD_MEMORY'
else
    echo "note: instrumented build: AddressSanitizer's shadow memory leaves no room for a memory limit (none is set)"
fi
for setting in COLLSIM_CHILD_MEMORY=1MB COLLSIM_STALL_SECONDS=soon; do
    env "$setting" "$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" -q -o "$work/out/bad.json" 2> "$work/err"
    check "$setting: exit 2" "$?" '^2$'
    check "$setting: named" "$(cat "$work/err")" "^collsim: ${setting%%=*}=${setting#*=}: give "
done

# ---- the packet-hop budget: ring all-reduce on 8 ranks at 1 MB sends
# 8 x 2 x 7 messages of 125000 B, 31 packets of 4 KiB each, over 2 links ----
printf 'name: budget\nplatform: {kind: star, ranks: 8, alpha: 0.5us, bandwidth: 900GBps}\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [1MB]\n' \
    > "$work/budget.yaml"
hops=$(awk 'BEGIN { packets = int(1e6 / 8 / 4096); if (packets * 4096 < 1e6 / 8) packets++; print 8 * 2 * 7 * packets * 2 }')
COLLSIM_PACKET_HOPS=$((hops - 1)) "$collsim" run "$work/budget.yaml" --model packet -q -o "$work/out/budget.json" 2> "$work/err"
check "past the packet-hop budget: exit 2" "$?" '^2$'
check "the message gives the estimate ($hops packet-hops) and the way out" "$(cat "$work/err")" \
    "would make $hops packet-hops in the packet model \\(112 messages cut into packets of 4096 B.*past the budget of $((hops - 1)).*--model cm02.*COLLSIM_PACKET_HOPS=7000 "
COLLSIM_PACKET_HOPS=$hops "$collsim" run "$work/budget.yaml" --model packet -q > /dev/null 2> "$work/err"
check "a budget of exactly the estimate runs" "$?" '^0$'
# checked before anything runs: a first size within the budget is not simulated
# before a second one past it is refused (--progress would show it running)
sed 's/sizes: \[1MB\]/sizes: [1KB, 1MB]/' "$work/budget.yaml" > "$work/budget2.yaml"
COLLSIM_PACKET_HOPS=$((hops - 1)) "$collsim" run "$work/budget2.yaml" --model packet --progress -o "$work/out/budget2.json" 2> "$work/err"
check "one size past the budget: exit 2" "$?" '^2$'
check "refused before the first simulation started: the refusal is all of stderr" "$(wc -l < "$work/err")" '^ *1$'
check "the refusal names the size past the budget" "$(cat "$work/err")" '^collsim: case 0 \(allreduce ring at 1 MB\) would make '

# ---- --cfg values that spin or depend on load: refused at once ----
for option in surf/precision:0 maxmin/precision:0 contexts/nthreads:2; do
    timeout 60 "$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" --cfg="$option" -o "$work/out/cfg.json" 2> "$work/err"
    check "--cfg=$option: exit 2" "$?" '^2$'
    check "--cfg=$option: refused with the reason" "$(cat "$work/err")" "^collsim: --cfg=$option: collsim refuses it: "
done
check "nothing written by any refusal or ended run" "$(ls -A "$work/out")" '^$'
summary
