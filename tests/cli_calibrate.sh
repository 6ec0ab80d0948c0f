#!/bin/sh
# `collsim calibrate` and `--measured` (docs/calibration.md) through the command line:
# an all_reduce_perf log written here in the nccl-tests format from chosen
# costs (LL-like up to 1 MiB: launch 40 us, 60 GB/s; Simple-like above:
# launch 60 us, 360 GB/s; hop 0.6 us = hgx-h100's alpha) is calibrated back
# to them; the calibrated platform, simulated and predicted, reproduces the
# log (pred_error and sim_error within its 2-decimal rounding); malformed
# logs exit 2 naming file:line:column.
. "${top_srcdir:-.}/tests/cli_common.sh"
platforms=$(cd "$top_srcdir/platforms" && pwd)

# ring all-reduce on 8 ranks (01 §5.1): t = launch + 14 x hop + 1.75 x M / BW
write_log() { # file, collective binary
    {
        echo "# nccl-tests version 2.13.8 nccl-headers=21903 nccl-library=21903"
        echo "# Collective test starting: $2"
        echo "# nThread 1 nGpus 8 minBytes 1024 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0"
        echo "#"
        echo "# Using devices"
        for r in 0 1 2 3 4 5 6 7; do printf '#  Rank %2d Group  0 Pid  4242 on      node1 device %2d [0000:18:00] NVIDIA H100\n' $r $r; done
        echo "node1:4242:4242 [0] NCCL INFO Bootstrap : Using eth0"
        echo "node1:4242:4242 [0] NCCL INFO NCCL_ALGO set by environment to Ring"
        echo "#"
        echo "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong"
        echo "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       "
        awk 'BEGIN { for (m = 1024; m <= 8589934592; m *= 2) {
                 if (m <= 1048576) t = 40e-6 + 14 * 0.6e-6 + 1.75 * m / 60e9; else t = 60e-6 + 14 * 0.6e-6 + 1.75 * m / 360e9
                 alg = m / t / 1e9
                 printf "%12.0f  %12.0f  %8s  %6s  %6d  %7.2f  %6.2f  %6.2f  %6d  %7.2f  %6.2f  %6.2f  %6d\n", m, m / 4, "float", "sum", -1, t * 1e6, alg, alg * 1.75, 0, t * 1e6, alg, alg * 1.75, 0 } }'
        echo "# Out of bounds values : 0 OK"
        echo "# Avg bus bandwidth    : 100.0"
    } > "$1"
}
write_log "$work/ar.log" all_reduce_perf

out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/ar.log" -o "$work/cal.yaml" 2>&1); status=$?
check "calibrate exits 0" "$status" '^0$'
check "collective and ranks said, and from what" "$out" 'allreduce on 8 ranks, 24 points .*Collective test starting.*|Rank'
check "the NCCL INFO line is named, file:line" "$out" 'ar\.log:14: note: line not read'
check "every point's residual printed" "$(printf '%s\n' "$out" | grep -c 'ar\.log:[0-9][0-9]* ')" '^24$'
cal=$(cat "$work/cal.yaml")
check "the input platform is kept" "$cal" '^kind: star$'
check "the log's algorithm named, from its NCCL INFO line" "$out" 'algorithm ring from line 15: NCCL_ALGO ring'
# the platform's figures are kept as written: its efficiency 0.824 (the fit is against 450 x 0.824 = 370.8 GB/s)
check "its efficiency kept as written" "$cal" '^efficiency: 0\.824$'
check "a group of the ring, as the log named it" "$(printf '%s\n' "$cal" | grep -A1 '^    algorithm: ring$' | tail -1)" '^    chosen: named$'
check "LL regime: up to 1 MiB, launch 40 us, 60/370.8 of the NVLink rate" "$cal" 'll: \{up_to: 1048576B, launch: (39\.9[89]|40\.0[01])[0-9]*us, overhead: 0\.0000us, efficiency: 0\.161[78][0-9]*, channels: 1\}'
check "Simple regime: launch 60 us, 360/370.8 of the NVLink rate" "$cal" 'simple: \{from: 2097152B, launch: (59\.9[5-9]|60\.0[0-4])[0-9]*us, overhead: 0\.0000us, efficiency: 0\.970[89][0-9]*, channels: 1\}'
check "each fit says its logs and residual" "$cal" '# allreduce regime 1 of 2, 1024 B .. 1048576 B: 11 points of .*ar\.log; residual rms'

# logs of two collectives, written from DIFFERENT costs, calibrated together: each (collective, tier)
# its own group, each recovered, each primitive predicted and simulated with its own
# all_reduce_perf: ring (01 §5.1) t = 20 us + 14 x 0.6 us + 1.75 M / 300 GB/s
# alltoall_perf: pairwise t = 35 us + 7 x 0.6 us + 7/8 M / 150 GB/s (nccl-tests' busbw (N-1)/N x algbw)
write_line_log() { # file, collective binary, ranks, launch (s), n_alpha, n_beta, BW (B/s), hop (s)
    {
        echo "# Collective test starting: $2"
        echo "# nThread 1 nGpus $3 minBytes 1024 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0"
        echo "# Using devices"
        echo "node0:4242:4242 [0] NCCL INFO NCCL_ALGO set by environment to Ring"
        r=0; while [ $r -lt "$3" ]; do printf '#  Rank %2d Group  0 Pid  4242 on node%d device %2d [0000:18:00] NVIDIA H100\n' $r $((r / 8)) $((r % 8)); r=$((r + 1)); done
        echo "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong"
        echo "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       "
        awk -v L="$4" -v na="$5" -v nb="$6" -v bw="$7" -v hop="$8" -v n="$3" -v c="$2" 'BEGIN {
                 f = (c == "alltoall_perf") ? (n - 1) / n : 2 * (n - 1) / n; op = (c == "alltoall_perf") ? "none" : "sum"
                 for (m = 1024; m <= 8589934592; m *= 2) {
                 t = L + na * hop + nb * m / bw; alg = m / t / 1e9
                 printf "%12.0f  %12.0f  %8s  %6s  %6d  %7.2f  %6.2f  %6.2f  %6d  %7.2f  %6.2f  %6.2f  %6d\n", m, m / 4, "float", op, -1, t * 1e6, alg, alg * f, 0, t * 1e6, alg, alg * f, 0 } }'
        echo "# Avg bus bandwidth    : 100.0"
    } > "$1"
}
# calibrate PLATFORM OUT LOG...: exit 0 checked under LABEL
calibrate_ok() { # label, platform, output, logs...
    label=$1 platform=$2 output=$3
    shift 3
    "$collsim" calibrate "$platform" "$@" -q -o "$output" > "$work/calibrate.err" 2>&1
    check "$label: exit 0" "$?" '^0$'
}
# the largest |error| of a run / predict CSV with --measured: pred_error (OFFSET 0) or sim_error (1)
worst_error() { # tolerance, rows expected, offset from the last column
    awk -F, -v tol="$1" -v rows="$2" -v k="$3" 'NR > 1 { v = $(NF - k); e = v < 0 ? -v : v; if (e > w) w = e; n++ }
        END { print (n == rows && w < tol) ? "ok" : n " rows, worst " w }'
}
# predict SCENARIO (PREDICTED rows) and run it at RUN_SIZES (RUN rows) with --measured LOG...: every
# row's error against its own log within the log's 2-decimal rounding (0.005 us of at least 20 us)
reproduces() { # label, scenario, predicted rows, run sizes, run rows, logs...
    label=$1 scenario=$2 predicted=$3 run_sizes=$4 run_rows=$5
    shift 5
    measured=$(for log in "$@"; do printf ' --measured %s' "$log"; done)
    out=$("$collsim" predict "$scenario" $measured --format csv -q 2>&1)
    check "predict: $label reproduce their own log" "$(printf '%s\n' "$out" | worst_error "${predict_tolerance:-2.5e-4}" "$predicted" 0)" '^ok$'
    sed -i "s/sizes: \[.*\]/sizes: [$run_sizes]/" "$scenario"
    out=$("$collsim" run "$scenario" $measured --format csv -q 2>&1)
    check "run: $label simulated reproduce their own log" "$(printf '%s\n' "$out" | worst_error "${run_tolerance:-2.5e-4}" "$run_rows" 1)" '^ok$'
}
write_line_log "$work/ar2.log" all_reduce_perf 8 20e-6 14 1.75 300e9 0.6e-6
write_line_log "$work/a2a.log" alltoall_perf 8 35e-6 7 0.875 150e9 0.6e-6
calibrate_ok "two collectives" "$platforms/hgx-h100.yaml" "$work/two.yaml" "$work/ar2.log" "$work/a2a.log"
two=$(cat "$work/two.yaml")
check "one group per collective measured, each naming its primitive and tier" "$(printf '%s\n' "$two" | grep -cE '^  - primitive: (allreduce|alltoall)$|^    tier: 0$')" '^4$'
check "all-reduce's: launch 20 us, 300/370.8 of the NVLink rate" "$(printf '%s\n' "$two" | sed -n '/primitive: allreduce/,/primitive: alltoall/p')" 'simple: \{launch: (19\.9[89]|20\.0[01])[0-9]*us, overhead: 0\.0000us, efficiency: 0\.809[01][0-9]*, channels: 1\}'
check "all-to-all's: launch 35 us, 150/370.8 of the NVLink rate" "$(printf '%s\n' "$two" | sed -n '/primitive: alltoall/,$p')" 'simple: \{launch: (34\.9[89]|35\.0[01])[0-9]*us, overhead: 0\.0000us, efficiency: 0\.404[45][0-9]*, channels: 1\}'
"$collsim" calibrate "$work/two.yaml" "$work/ar2.log" "$work/a2a.log" -q -o "$work/two-again.yaml"
check "... and calibrating that file again gives it back" "$(cmp "$work/two.yaml" "$work/two-again.yaml" && echo same)" '^same$'
cat > "$work/two-check.yaml" <<EOF_S
name: two-collectives
platform: $work/two.yaml
cases:
  - primitive: allreduce
    algorithms: [ring]
    protocol: auto
    sizes: [1KiB, 64KiB, 1MiB, 64MiB, 1GiB, 8GiB]
  - primitive: alltoall
    algorithms: [pairwise]
    protocol: auto
    sizes: [1KiB, 64KiB, 1MiB, 64MiB, 1GiB, 8GiB]
EOF_S
reproduces "all-reduce and all-to-all" "$work/two-check.yaml" 12 "1KiB, 1MiB, 1GiB" 6 "$work/ar2.log" "$work/a2a.log"
# a primitive without its own group is not covered (docs/model.md): it keeps the published figures, and
# says so; all-reduce and all-to-all, which have their own, say nothing
cat >> "$work/two-check.yaml" <<EOF_S
  - primitive: reducescatter
    algorithms: [ring]
    protocol: auto
    sizes: [64MiB]
EOF_S
out=$("$collsim" predict "$work/two-check.yaml" 2>&1 >/dev/null)
check "a case the calibration does not cover is told, at the case's line" "$out" 'two-check\.yaml:12:1: note: reducescatter ring on groups of 8 ranks \(tier 0\) is not covered by the calibration of .*: it runs on the published figures'
check "... and only for that case" "$(printf '%s\n' "$out" | grep -c 'note: .* is not covered')" '^1$'

# one collective on one node (NVLink, tier 0) and on two (the network, tier 1): each tier's group
# applied to the groups that climb to it (a3-mega: 450 GB/s NVLink, 25 GB/s per NIC)
# one node: t = 30 us + 1.75 M / 200 GB/s; two nodes: t = 250 us + 1.875 M / 40 GB/s
write_line_log "$work/node1.log" all_reduce_perf 8 30e-6 0 1.75 200e9 0
write_line_log "$work/node2.log" all_reduce_perf 16 250e-6 0 1.875 40e9 0
calibrate_ok "one and two nodes" "$platforms/gcp-a3-mega-2node.yaml" "$work/tiers.yaml" "$work/node1.log" "$work/node2.log"
tiers=$(cat "$work/tiers.yaml")
check "a group per tier" "$(printf '%s\n' "$tiers" | grep -cE '^    tier: [01]$')" '^2$'
# one N each: the hop stays the platform's (NVLink 0.6 us; a network hop 2.7 us + the 0.6 us PXN relay,
# docs/calibration.md), the launch takes the rest: 30 - 14 x 0.6 = 21.6 us, 250 - 30 x 3.3 = 151 us
# tier 0: 200 GB/s against NVLink's 450 x 0.824 = 370.8 GB/s, a ring on one channel (one node: no rails);
# tier 1: 40 GB/s against the ring on the platform's 8 rail channels as NCCL runs it, 8 x 25 GB/s; the
# ring's 8 channels share links in the simulation (up to 2.8 % slower than the model at 1 GiB), and the
# calibration is made good against the simulation: the launch and efficiency within 3 % of 151 us and 0.2
check "tier 1: launch ~151 us, ~40/(8 x 25) of the NICs, 8 channels" "$(printf '%s\n' "$tiers" | sed -n '/tier: 1/,$p' | sed -n 's/.*simple: {launch: \([0-9.]*\)us, overhead: 0.0000us, efficiency: \([0-9.]*\), channels: 8}.*/\1 \2/p' | awk '{ print ($1 / 151 > 0.97 && $1 / 151 < 1.03 && $2 / 0.2 > 0.97 && $2 / 0.2 < 1.03) ? "ok" : $0 }')" '^ok$'
out=$("$collsim" calibrate "$platforms/gcp-a3-mega-2node.yaml" "$work/node1.log" "$work/node2.log" 2>&1 >/dev/null)
check "... and calibrate says the simulation was slower than the model, and fitted again" "$out" 'note: .*node2\.log.* simulat.* slower than the model'
check "... but not of the one-node log, whose ring is uncontended" "$(printf '%s\n' "$out" | grep -c 'node1\.log.* slower than the model')" '^0$'
cat > "$work/tiers-check.yaml" <<EOF_S
name: two-tiers
platform: $work/tiers.yaml
cases:
  - primitive: allreduce
    algorithms: [ring]
    protocol: auto
    groups: {count: 1, size: 8}
    sizes: [1KiB, 1MiB, 64MiB, 8GiB]
  - primitive: allreduce
    algorithms: [ring]
    protocol: auto
    sizes: [1KiB, 1MiB, 64MiB, 8GiB]
EOF_S
# the two-node ring's 8 channels share links in the simulation (contended: up to 2.8 % slower than its
# prediction): the calibration reproduces the log in the simulation, and the prediction within 3 %
predict_tolerance=0.03 run_tolerance=0.005 reproduces "one node and two nodes" "$work/tiers-check.yaml" 8 "1MiB, 1GiB" 4 "$work/node1.log" "$work/node2.log"

# calibrating the calibrated platform again replaces its table: the same file
"$collsim" calibrate "$work/cal.yaml" "$work/ar.log" -o "$work/again.yaml" -q
check "calibrating again gives the same file" "$(cmp "$work/cal.yaml" "$work/again.yaml" && echo same)" '^same$'

# the calibrated platform reproduces the log: predicted everywhere, simulated at four sizes
cat > "$work/check.yaml" <<EOF_S
name: calibrated
platform: $work/cal.yaml
cases:
  - primitive: allreduce
    algorithms: [ring]
    protocol: auto
    sizes: [1KiB, 2KiB, 4KiB, 8KiB, 16KiB, 32KiB, 64KiB, 128KiB, 256KiB, 512KiB, 1MiB, 2MiB, 4MiB, 8MiB, 16MiB, 32MiB, 64MiB, 128MiB, 256MiB, 512MiB, 1GiB, 2GiB, 4GiB, 8GiB]
EOF_S
out=$("$collsim" predict "$work/check.yaml" --measured "$work/ar.log" --format csv -q 2>&1)
check "predict --measured: a measured column" "$out" 'measured_s,sim_error,pred_error$'
worst=$(printf '%s\n' "$out" | awk -F, 'NR > 1 { e = $NF < 0 ? -$NF : $NF; if (e > w) w = e } END { print (w < 2.5e-4) ? "ok" : w }')
check "every predicted point within the log's rounding (0.005 us of 48 us)" "$worst" '^ok$'
check "LL below 1 MiB, Simple above, as measured" "$(printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "protocol") p = i } NR > 1 { printf "%s ", $p }')" '^(ll ){11}(simple ){13}$'
sed -i 's/sizes: \[.*\]/sizes: [1KiB, 1MiB, 2MiB, 1GiB]/' "$work/check.yaml"
out=$("$collsim" run "$work/check.yaml" --measured "$work/ar.log" -q 2>&1)
check "run --measured: table columns" "$out" 'measured\(us\) sim_err\(%\) pred_err\(%\)'
check "simulated = predicted = measured at 1 GiB" "$out" '1073741824  ring \(auto\).* 0\.00 +-?0\.00$'

out=$("$collsim" run "$work/check.yaml" --measured "$work/ar.log" -q --format json -o "$work/run.json" --plot "$work/run.svg" 2>&1); status=$?
check "run --measured --plot: exit 0" "$status" '^0$'
check "JSON: measured_s, sim_error and pred_error on the rows" "$(grep -o '"measured_s": [0-9.e-]*, "sim_error": [-0-9.e]*, "pred_error": [-0-9.e]*' "$work/run.json" | wc -l)" '^4$'
if python3 -c 'import jsonschema' 2>/dev/null; then
    out=$(python3 -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))); print("valid")' \
        "$work/run.json" "$top_srcdir/docs/collsim-output.schema.json" 2>&1)
    check "JSON with measured fields validates against the schema" "$out" '^valid$'
fi
check "the plot draws the measured points (the tuned ring: protocol auto)" "$(grep -c 'ring (auto) measured' "$work/run.svg")" '^[1-9]'

# malformed logs: exit 2, file:line:column
sed 's/^        1024           256     float     sum      -1    [0-9.]*/        1024           256     float     sum      -1    oops/' "$work/ar.log" > "$work/bad.log"
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/bad.log" 2>&1); status=$?
check "bad time: exit 2" "$status" '^2$'
check "bad time: file:line:column" "$out" 'bad\.log:19:57: the out-of-place time .oops. is not a positive number'
head -n 19 "$work/ar.log" | sed '$s/  *[0-9N/A]*$//' > "$work/cut.log"
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/cut.log" 2>&1); status=$?
check "truncated row: exit 2 at its line" "$status:$(printf '%s' "$out" | tr '\n' ' ')" '^2:.*cut\.log:19:1: the result row has 12 columns'
out=$("$collsim" predict "$work/check.yaml" --measured "$work/bad.log" 2>&1); status=$?
check "--measured with a bad log: exit 2 before anything runs" "$status:$(printf '%s' "$out" | tr '\n' ' ')" '^2:.*bad\.log:19:57:'
grep -v 'Collective test\|Rank' "$work/ar.log" | sed 's/     sum  /    none  /' > "$work/anon.log"
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/anon.log" 2>&1); status=$?
check "a log that says neither its collective nor its ranks: exit 0" "$status" '^0$'
check "... both told from busbw / algbw = 2(N-1)/N" "$out" 'allreduce on 8 ranks.*|collective from busbw / algbw = 1\.750 .* ranks from busbw / algbw = 1\.750 = C\(N\) at N = 8'
grep -v '^ *[0-9]' "$work/ar.log" > "$work/one.log"; grep '^ *65536 ' "$work/ar.log" >> "$work/one.log"
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/one.log" 2>&1); status=$?
check "one size: exit 2, nothing to tell latency from bandwidth" "$status:$(printf '%s' "$out" | tr '\n' ' ')" '^2:.*one size cannot tell latency from bandwidth'
: >"$work/empty.log"
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/empty.log" 2>&1); status=$?
check "empty log: exit 2" "$status:$(printf '%s' "$out" | tr '\n' ' ')" '^2:.*no result row'
sed 's/Rank  7 /Rank 15 /' "$work/ar.log" > "$work/big.log"
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/big.log" 2>&1); status=$?
check "more ranks than the platform: exit 2" "$status:$(printf '%s' "$out" | tr '\n' ' ')" '^2:.*big\.log:1:1: the log ran 16 ranks'
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/ar.log" -o "$work/no/such/dir/x.yaml" 2>&1); status=$?
check "unwritable output: exit 2, nothing left" "$status:$(ls "$work" | grep -c x.yaml)" '^2:0$'

# the natural workflow on a published measurement (tests/data/measurements.csv, HGX H100 8 GPUs, NCCL Ring
# forced): the log names Ring in NCCL's INFO line; a case with only primitive, algorithms: [ring] and the
# log's sizes on the calibrated platform reproduces it within 3 % at every size, and inc there is exactly
# as on the platform uncalibrated (the calibration did not measure NVLS: it changes nothing of it)
if command -v python3 >/dev/null 2>&1; then
    python3 "$top_srcdir/scripts/measurements_to_logs" "$top_srcdir/tests/data/measurements.csv" "$work/logs" > /dev/null 2>&1
    published="$work/logs/hgx-h100-astra-sim-validation-8gpu.all_reduce_perf.log"
    { sed -n 1,3p "$published"; echo "node0:1000:1000 [0] NCCL INFO NCCL_ALGO set by environment to Ring"; sed -n '4,$p' "$published"; } > "$work/ring8.log"
    calibrate_ok "published ring log" "$platforms/hgx-h100.yaml" "$work/h100-ring.yaml" "$work/ring8.log"
    sizes=$(awk '/^ *[0-9]/ { printf "%s%s", n++ ? ", " : "", $1 }' "$work/ring8.log")
    printf 'platform: %s\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: [%s]\n  - primitive: allreduce\n    algorithms: [inc]\n    sizes: [%s]\n' \
        "$work/h100-ring.yaml" "$sizes" "$sizes" > "$work/workflow.yaml"
    "$collsim" run "$work/workflow.yaml" --measured "$work/ring8.log" --format csv -q -o "$work/workflow.csv"
    check "ring on the calibrated platform: every size within 3 % of the log, fitted" \
        "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["algorithm"] == "ring" { e = $c["sim_error"]; e = e < 0 ? -e : e; n++; if (e < 0.03 && $c["calibration"] == "fitted") ok++ } END { print ok "/" n }' "$work/workflow.csv")" '^5/5$'
    sed "s|$work/h100-ring.yaml|$platforms/hgx-h100.yaml|" "$work/workflow.yaml" > "$work/uncalibrated.yaml"
    "$collsim" run "$work/uncalibrated.yaml" --format csv -q -o "$work/uncalibrated.csv"
    check "inc on the calibrated platform: the same times as uncalibrated, and not covered" \
        "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } FNR > 1 && $c["algorithm"] == "inc" { if (FILENAME ~ /workflow/) { t[$c["size_bytes"]] = $c["time_s"]; nc += $c["calibration"] == "not covered" } else same += t[$c["size_bytes"]] == $c["time_s"] } END { print same "/" nc }' "$work/workflow.csv" "$work/uncalibrated.csv")" '^5/5$'
    # a log naming no algorithm: the library's choice per regime; algorithms: [auto] reproduces it within 5 %
    a3="$work/logs/gcp-a3-mega-2x8-h100-tcpxo-8x200g-16gpu.all_reduce_perf.log"
    out=$("$collsim" calibrate "$platforms/gcp-a3-mega-2node.yaml" "$a3" -o "$work/a3.yaml" 2>&1)
    check "calibrate says the library's choice per regime" "$out" "regime 3 of 3 .*the library's choice there as collsim's tuner makes it"
    sizes=$(awk '/^ *[0-9]/ { printf "%s%s", n++ ? ", " : "", $1 }' "$a3")
    printf 'platform: %s\ncases:\n  - primitive: allreduce\n    algorithms: [auto]\n    sizes: [%s]\n' "$work/a3.yaml" "$sizes" > "$work/auto.yaml"
    "$collsim" run "$work/auto.yaml" --measured "$a3" --format csv -q -o "$work/auto.csv"
    check "auto on the calibrated A3 Mega: exp(mean |ln(sim/measured)|) - 1 <= 5 % over the log's 24 sizes" \
        "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 { e = log(1 + $c["sim_error"]); s += e < 0 ? -e : e; n++ } END { print n, (exp(s / n) - 1 <= 0.05) ? "ok" : exp(s / n) - 1 }' "$work/auto.csv")" '^24 ok$'
fi

# --format nccl-tests: a simulated sweep printed as an nccl-tests log, read back by calibrate (the ring it
# names, its 8 ranks, its 11 sizes), and the calibrated platform reproduces the simulated sweep
printf 'platform: %s/hgx-h100.yaml\ncases:\n  - primitive: allreduce\n    algorithms: [ring]\n    sizes: {from: 1KiB, to: 1GiB, factor: 4}\n' "$platforms" > "$work/sweep.yaml"
"$collsim" run "$work/sweep.yaml" --format nccl-tests -q -o "$work/sim.log"
check "nccl-tests format: its header, columns and average" "$(grep -c '^# nThread 1 nGpus 8 minBytes 1024 maxBytes 1073741824\|^#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong$\|^# Avg bus bandwidth    : ' "$work/sim.log")" '^3$'
out=$("$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/sim.log" -o "$work/round.yaml" 2>&1)
check "calibrate reads it back: all-reduce, 8 ranks, 11 points, the ring it names" "$out" 'allreduce on 8 ranks, 11 points .*|algorithm ring from line [0-9]+: NCCL_ALGO ring'
sed "s|$platforms/hgx-h100.yaml|$work/round.yaml|" "$work/sweep.yaml" > "$work/round-check.yaml"
"$collsim" run "$work/round-check.yaml" --measured "$work/sim.log" --format csv -q -o "$work/round.csv"
check "the round trip reproduces the simulated sweep within 3 % at every size" \
    "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 { e = $c["sim_error"]; e = e < 0 ? -e : e; n++; ok += e < 0.03 } END { print ok "/" n }' "$work/round.csv")" '^11/11$'

# contradictory calibrated groups: exit 2 at FILE:LINE:COL
printf 'kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\ncalibrated:\n  - primitive: allreduce\n    tier: 0\n    algorithm: ring\n    simple: {from: 1MiB, launch: 60us, efficiency: 0.8}\n    ll: {up_to: 4MiB, launch: 40us, efficiency: 0.1}\n' > "$work/overlap.yaml"
out=$("$collsim" platform describe "$work/overlap.yaml" 2>&1); status=$?
check "two protocols over the same sizes: exit 2 at the second's line" "$status:$out" "^2:.*overlap\\.yaml:10:9: 'll' overlaps 'simple' in sizes"
printf 'kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\ncalibrated:\n  - primitive: allreduce\n    algorithm: ring\n    chosen: library\n    simple: {launch: 60us, efficiency: 0.8}\n  - primitive: allreduce\n    algorithm: tree\n    chosen: library\n    simple: {launch: 60us, efficiency: 0.8}\n' > "$work/twice.yaml"
out=$("$collsim" platform describe "$work/twice.yaml" 2>&1); status=$?
check "two library choices at the same sizes: exit 2 at the group" "$status:$out" "^2:.*twice\\.yaml:10:5: two algorithms are the library's choice at the same sizes"
printf 'kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\ncalibrated:\n  - primitive: allreduce\n    algorithm: ring2\n    simple: {launch: 60us, efficiency: 0.8}\n' > "$work/family.yaml"
out=$("$collsim" platform describe "$work/family.yaml" 2>&1); status=$?
check "an unknown family: exit 2 at its value" "$status:$out" "^2:.*family\\.yaml:7:16: unknown algorithm family 'ring2'"

# no leak and no memory error, refused or not (valgrind; ASan covers instrumented builds)
if command -v valgrind >/dev/null 2>&1 && [ -z "$collsim_instrumented" ]; then
    # the simulations that check a fit run in child processes, whose memory is SimGrid's until they exit:
    # valgrind reports on the parent alone (children silent, no error exit code of theirs), and the
    # children run without the child limit, which valgrind's own address space would exceed
    memcheck="valgrind -q --child-silent-after-fork=yes --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all"
    for log in bad cut one ar; do
        status=0
        COLLSIM_CHILD_MEMORY=unlimited $memcheck --log-file="$work/vg.log" "$collsim" calibrate "$platforms/hgx-h100.yaml" "$work/$log.log" -q -o "$work/vg.yaml" >/dev/null 2>&1 || status=$?
        check "valgrind: calibrate $log.log exits $( [ $log = ar ] && echo 0 || echo 2 ), no leak, no memory error" "$status $(wc -c < "$work/vg.log")" "^$( [ $log = ar ] && echo 0 || echo 2 ) 0\$"
        [ -s "$work/vg.log" ] && tail -20 "$work/vg.log"
    done
fi
summary
