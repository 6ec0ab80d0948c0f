#!/bin/sh
# The tuner costs what the executor runs: on every shipped real-system
# platform, all-reduce with `algorithms: [auto]` from 1 KiB to 8 GiB, the
# tuner's predicted time of its pick (predicted_s: the analytic model at the
# segments, channels and protocol the pick runs) equals the simulated time of
# that pick (time_s, cm02) within 1e-9 wherever no message of the run shared a
# link (contended false: every message took its lone alpha + M/BW).  Where a
# run is contended, the gap is printed, not checked.  On mi300x-2node the
# tuner picks NCCL's tree on one channel at large sizes: on xGMI nodes its
# chains are predicted from the schedule's critical path (model/
# schedule_path.c), exact where uncontended.  dgx-h100-su32 runs a
# group of 64 GPUs (8 of its nodes): its 256 at once pass the schedule limit.
. "${top_srcdir:-.}/tests/cli_common.sh"
need python3

checked=0
for platform in hgx-h100 hgx-a100 gb200-nvl72 mi300x-8 gcp-a3-mega-2node dgx-h100-8node dgx-h100-su32 mi300x-2node mi300x-8node; do
    groups=""
    [ "$platform" = dgx-h100-su32 ] && groups="    groups: {count: 1, size: 64}"
    printf 'platform: %s/platforms/%s.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [auto]\n    sizes: [1KiB, 8KiB, 64KiB, 512KiB, 4MiB, 32MiB, 256MiB, 2GiB, 8GiB]\n%s\n' \
        "$top_srcdir" "$platform" "$groups" > "$work/$platform.yaml"
    "$collsim" run "$work/$platform.yaml" --format csv -q -o "$work/$platform.csv"
    check "$platform: runs" "$?" '^0$'
    out=$(python3 - "$work/$platform.csv" <<'EOF_PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r["contended"] == "false"
       and abs(float(r["time_s"]) / float(r["predicted_s"]) - 1) > 1e-9]
for r in rows:
    gap = float(r["time_s"]) / float(r["predicted_s"]) - 1
    print(f"# {r['size_bytes']:>11} {r['algorithm']:>6} {r['protocol']:>6} ch {r['channels']:>2} "
          f"contended {r['contended']:>5} sim/pred - 1 = {gap:+.2e}")
print(f"rows {len(rows)} uncontended {sum(r['contended'] == 'false' for r in rows)} off {len(bad)}")
EOF_PY
)
    printf '%s\n' "$out" | sed "s/^# /# $platform /"
    check "$platform: 9 sizes, the tuner's pick simulated as predicted where uncontended" "$(printf '%s\n' "$out" | tail -1)" '^rows 9 uncontended [0-9] off 0$'
    checked=$((checked + $(printf '%s\n' "$out" | tail -1 | awk '{print $4}')))
done
# the single-node systems (one NVSwitch, an xGMI mesh) run uncontended at every size: the check is not empty
check "at least 30 uncontended picks checked (the four single-node systems)" "$checked" '^([3-9][0-9]|[1-9][0-9][0-9])$'
# which algorithm, at which size: on hgx-h100, auto beside ring, tree and inc; each row's `best` is the
# least simulated time of the case at its size (recomputed here from the rows' time_s), an auto row whose
# pick simulates over 5 % slower than the best names it in slower_than, and each simulated crossover lies
# between two consecutive sizes whose best are its two algorithms
printf 'platform: %s/platforms/hgx-h100.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [auto, ring, tree, inc]\n    sizes: [1KiB, 64KiB, 1MiB, 4MiB, 16MiB, 256MiB]\n' "$top_srcdir" > "$work/best.yaml"
"$collsim" run "$work/best.yaml" --format csv -q -o "$work/best.csv"
check "best: runs" "$?" '^0$'
out=$(python3 - "$work/best.csv" "$work/best.crossovers.csv" <<'EOF_PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sizes = sorted({float(r["size_bytes"]) for r in rows})
best = {}
for m in sizes:
    at = [r for r in rows if float(r["size_bytes"]) == m]
    winner = min(at, key=lambda r: float(r["time_s"]))
    best[m] = winner["algorithm"]
    for r in at:
        if r["best"] != winner["algorithm"]:
            print("best wrong at", m, r["algorithm"], r["best"])
        slower = r["tuned"] == "true" and float(r["time_s"]) > 1.05 * float(winner["time_s"])
        if (r["slower_than"] != "") != slower and r is at[0]:
            print("slower_than wrong at", m, r["algorithm"], r["slower_than"])
crossings = [x for x in csv.DictReader(open(sys.argv[2])) if x["basis"] == "simulated"]
for x in crossings:
    m = float(x["size_bytes"])
    ok = any(sizes[i] <= m <= sizes[i + 1] and {best[sizes[i]], best[sizes[i + 1]]} == {x["a"], x["b"]}
             for i in range(len(sizes) - 1))
    if not ok:
        print("crossover off", x)
print("switches", sum(best[sizes[i]] != best[sizes[i + 1]] for i in range(len(sizes) - 1)), "simulated crossovers", len(crossings),
      "predicted", sum(x["basis"] == "predicted" for x in csv.DictReader(open(sys.argv[2]))))
EOF_PY
)
check "best per size, slower_than and the simulated crossovers agree with the simulated times" "$out" '^switches ([1-9]) simulated crossovers \1 predicted [0-9]+$'
summary
