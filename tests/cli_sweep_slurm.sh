#!/bin/sh
# cli_sweep_slurm.sh — a sweep on a real Slurm cluster (docs/sweeps.md,
# "Slurm"): a one-node cluster on localhost, its munged, slurmctld and slurmd
# started here and stopped on exit (even on failure), state and spool in the
# test's folder.  scripts/slurm-sweep submits tests/data/sweep-24.yaml (24
# simulations) as a job array of 4 tasks and a merge job: the merged JSON
# must be byte-identical to `collsim sweep` of the same sweep on this machine,
# and each axis point's report to `collsim run` of that point's scenario
# written by hand.  Then one task is cancelled midway (scancel) and the
# sweep resubmitted: the rerun simulates only the missing points, and the
# merge is identical again.  Skips (77) only where the daemons cannot start.
. "${top_srcdir:-.}/tests/cli_common.sh"
for program in munged munge slurmctld slurmd sbatch squeue scancel sinfo; do
    command -v $program >/dev/null 2>&1 || { echo "SKIP: $program not found: the slurm-wlm and munge packages are not installed (scripts/setup installs them)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: slurmd and munged (as the munge user) can only be started by root here"; exit 77; }
id munge >/dev/null 2>&1 || { echo "SKIP: no munge user: the munge package is not installed properly"; exit 77; }
export PATH="$PATH:/usr/sbin:/sbin"
started=$(date +%s)
run=$(mktemp -d /run/collsim-munge-XXXXXX)
pids=""
stop_cluster() {
    [ -n "${SLURM_CONF:-}" ] && scancel --quiet --user=root >/dev/null 2>&1
    for pid in $pids $(cat "$run/munged.pid" 2>/dev/null); do kill "$pid" 2>/dev/null; done
    sleep 1
    for pid in $pids $(cat "$run/munged.pid" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
    rm -rf "$run" "$work"
}
trap stop_cluster EXIT
trap 'exit 1' INT TERM HUP
skip() { echo "SKIP: the Slurm daemons cannot start: $1"; for log in "$run"/*.log "$work"/*.log; do [ -f "$log" ] && { echo "--- $log"; tail -5 "$log"; }; done; exit 77; }

# munged, as the munge user, with a key of its own, its socket in a folder the munge user owns under /run
chown munge:munge "$run"
chmod 0755 "$run"
dd if=/dev/urandom of="$run/munge.key" bs=1024 count=1 2>/dev/null
chown munge:munge "$run/munge.key"
chmod 0400 "$run/munge.key"
runuser -u munge -- munged --socket="$run/munge.socket" --key-file="$run/munge.key" --pid-file="$run/munged.pid" \
    --log-file="$run/munged.log" --seed-file="$run/munged.seed" >"$work/munged.out" 2>&1 || skip "munged failed: $(cat "$work/munged.out")"
munge -n -S "$run/munge.socket" | unmunge -S "$run/munge.socket" >/dev/null 2>&1 || skip "munge cannot encode and decode a credential"

# slurm.conf: this host as the one node, with what slurmd -C finds (CPUs, memory)
node=$(slurmd -C | head -1)
[ -n "$node" ] || skip "slurmd -C says nothing about this host"
port=$((20000 + $$ % 20000))
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=collsimtest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$run/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
sed -i 's/ UpTime=[^ ]*//' "$SLURM_CONF"
slurmctld -D -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids="$pids $!"
for i in $(seq 1 60); do
    sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)' && break
    sleep 0.5
done
sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)' || skip "the node did not come up ($(sinfo -h -o '%t %E' 2>&1 | head -1))"
echo "cluster up after $(( $(date +%s) - started )) s"

sweep_file="$top_srcdir/tests/data/sweep-24.yaml"
one="$work/one.json"
"$collsim" sweep "$sweep_file" -o "$one" --jobs 2 -q
check "the sweep runs on this machine" "$(head -c 40 "$one")" '^\{"collsim"'

# wait_job ID: until Slurm no longer lists job ID (array tasks included), at most 120 s
wait_job() {
    for i in $(seq 1 240); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    return 1
}
merge_id() { printf '%s\n' "$1" | sed -n 's/.* merge \([0-9]*\) writes.*/\1/p'; }
array_id() { printf '%s\n' "$1" | sed -n 's/^array \([0-9]*\) .*/\1/p'; }

# 1. the whole sweep as 4 array tasks and a merge job
out="$work/out"
submitted=$("$top_srcdir/scripts/slurm-sweep" --collsim "$collsim" --tasks 4 --out "$out" "$sweep_file" 2>"$work/plan.txt")
check "slurm-sweep submits an array of 4 and a merge" "$submitted" '^array [0-9]+ \(4 tasks, at most 4 at once\) .* merge [0-9]+ writes'
check "the array script takes one shard per task" "$(cat "$out/slurm/array.sh")" '#SBATCH --array=0-3%4'
check "each task runs its shard" "$(cat "$out/slurm/array.sh")" 'sweep .*--shard "\$SLURM_ARRAY_TASK_ID/4" --out'
echo "submitted after $(( $(date +%s) - started )) s"
wait_job "$(merge_id "$submitted")" || check "the merge job ends within 2 minutes" "$(squeue 2>&1)" '^never$'
check "24 point files" "$(ls "$out" | grep -c '^[0-9a-f]\{16\}\.json$')" '^24$'
check "every task ran a share" "$(cat "$out"/slurm/shard-*.log; ls "$out"/slurm/shard-*.log | wc -l)" '^4$'
if cmp -s "$one" "$out/merged.json"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL the merged JSON differs from the one-machine sweep"; cat "$out/slurm/merge.log"; fi

echo "merged after $(( $(date +%s) - started )) s"
# each axis point's report is collsim run of its scenario, written by hand from the base
base="$top_srcdir/tests/data/sweep-star.yaml"
for eff in 1 0.8 0.6 0.5; do
    for alg in ring dbt; do
        sed "s/  kind: star/  kind: star\n  efficiency: $eff/; s/algorithms: \[ring\]/algorithms: [$alg]/" "$base" > "$work/point.yaml"
        "$collsim" run "$work/point.yaml" --format json -o "$work/point.json" -q --jobs 2
        if python3 -c 'import sys; sys.exit(open(sys.argv[2]).read() not in open(sys.argv[1]).read())' "$out/merged.json" "$work/point.json"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL efficiency $eff, $alg: collsim run's JSON is not in the merged JSON"
        fi
    done
done

# 2. one task cancelled midway: the rerun does only what is missing.  Slurm's
# cancel can arrive after the task has written the rest of its share (a loaded
# machine): then nothing is missing, and the attempt is made again, three at most
for attempt in 1 2 3; do
out2="$work/out2-$attempt"
submitted=$("$top_srcdir/scripts/slurm-sweep" --collsim "$collsim" --tasks 4 --parallel 1 --out "$out2" "$sweep_file" 2>/dev/null)
array=$(array_id "$submitted")
# the running task, once it has written one point and not all of its share
victim=""
for i in $(seq 1 200); do
    task=$(squeue -h -t R -j "$array" -o %K 2>/dev/null | head -1)
    done_points=$(ls "$out2" 2>/dev/null | grep -c '^[0-9a-f]\{16\}\.json$')
    if [ -n "$task" ] && [ "$done_points" -ge 1 ]; then
        shard_points=$("$collsim" sweep "$sweep_file" --list --shard "$task/4" | cut -d' ' -f1)
        written=0
        for id in $shard_points; do [ -f "$out2/$id.json" ] && written=$((written + 1)); done
        if [ "$written" -ge 1 ] && [ "$written" -lt "$(echo "$shard_points" | wc -l)" ]; then
            victim=$task
            scancel "${array}_$task"
            break
        fi
    fi
    sleep 0.1
done
wait_job "$array"
before=$(ls "$out2" | grep -c '^[0-9a-f]\{16\}\.json$')
[ "$before" -lt 24 ] && break
echo "attempt $attempt: the cancel came after task $victim had written its share; again"
scancel "$(merge_id "$submitted")"
done
check "a task was cancelled midway through its share" "task '$victim'" "^task '[0-3]'$"
# afterok can no longer be met: the merge job waits for ever (DependencyNeverSatisfied) and never runs
check "the merge job waits on a dependency that cannot be met" "$(squeue -h -j "$(merge_id "$submitted")" -o '%t %r')" '^PD Dependency'
scancel "$(merge_id "$submitted")"
echo "cancelled array done after $(( $(date +%s) - started )) s"
[ ! -f "$out2/merged.json" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL the merge ran after a cancelled task"; }
check "some points are missing" "$before" '^([0-9]|1[0-9]|2[0-3])$'
"$collsim" merge "$out2" -o "$work/partial.json" 2>"$work/missing.txt"
check "merge names the missing points and exits 1" "$? $(cat "$work/missing.txt")" "^1 collsim merge: point [0-9a-f]{16} of axis point [0-9] .* is missing"
check "merge names every missing point" "$(grep -c 'is missing$' "$work/missing.txt")" "^$((24 - before))\$"
stamp="$work/stamp"
touch "$stamp"
sleep 1
submitted=$("$top_srcdir/scripts/slurm-sweep" --collsim "$collsim" --tasks 4 --out "$out2" "$sweep_file" 2>/dev/null)
wait_job "$(merge_id "$submitted")"
rerun=$(find "$out2" -name '*.json' -newer "$stamp" | grep -c '/[0-9a-f]\{16\}\.json$')
check "the rerun simulated only the missing points" "$rerun" "^$((24 - before))\$"
if cmp -s "$one" "$out2/merged.json"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL the merge after the rerun differs from the one-machine sweep"; fi
echo "wall time $(( $(date +%s) - started )) s"
summary
