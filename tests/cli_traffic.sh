#!/bin/sh
# Traffic cases through the command line (docs/scenarios.md, "Traffic";
# docs/output.md): their rows in the table, CSV and JSON, the JSON against
# docs/collsim-output.schema.json, the flows' completion times against
# alpha + M/BW (alpha 0.5 us, BW 900 GB/s: each flow alone on its route),
# a bad line of a matrix refused at the matrix's own FILE:LINE:COL, and
# synthetic traffic refused under the fluid model (exit 2).
. "${top_srcdir:-.}/tests/cli_common.sh"
scenario="$top_srcdir/tests/data/traffic-star8.yaml"

table=$("$collsim" run "$scenario" 2>&1)
check "table: the matrix case's header" "$table" "^# case 0: traffic over 8 ranks of star-8, matrix traffic-star8.rows"
check "table: the matrix row (2 flows, 1,004,096 B)" "$table" "^ +1004096 +matrix +[0-9.]+ +2 "
check "table: the synthetic case's columns" "$table" "offered +delivered +GB/s/port"
check "table: no alpha-BW line for traffic" "$(printf '%s\n' "$table" | grep -c '^# alpha')" "^0$"

"$collsim" run "$scenario" --format json -o "$work/run.json" 2>"$work/err" || echo "FAIL json run: $(cat "$work/err")"
one_s="0.5e-6 + 1e6 / 900e9"
other_s="0.5e-6 + 4096 / 900e9"
check_close "flow 0's completion" "$(json_field "$work/run.json" results/0/flows/0/completion_s)" "$one_s" 1e-9
check_close "flow 1 finishes at its start + alpha + M/BW" "$(json_field "$work/run.json" results/0/flows/1/finish_s)" \
    "1e-6 + $other_s" 1e-9
check_close "p50: the first of two (nearest rank)" "$(json_field "$work/run.json" results/0/latency_p50_s)" "$other_s" 1e-9
check_close "max" "$(json_field "$work/run.json" results/0/latency_max_s)" "$one_s" 1e-9
check "no prediction for traffic" "$(json_field "$work/run.json" results/0/predicted_s)" "^null$"
check "primitive" "$(json_field "$work/run.json" results/1/primitive)" "^traffic$"
check "synthetic: offered about the load" "$(json_field "$work/run.json" results/1/offered_load)" "^0\.(4[6-9]|5[0-4])"

if python3 -c 'import jsonschema' 2>/dev/null; then
    verdict=$(python3 - "$top_srcdir/docs/collsim-output.schema.json" "$work/run.json" <<'PYTHON'
import copy, json, sys
import jsonschema
schema, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
validator = jsonschema.validators.validator_for(schema)(schema)
broken = copy.deepcopy(run)
del broken["results"][0]["flows"][0]["finish_s"]
print("valid" if validator.is_valid(run) else "invalid", "broken-" + ("valid" if validator.is_valid(broken) else "invalid"))
PYTHON
)
    check "the traffic JSON validates, a flow without finish_s does not" "$verdict" "^valid broken-invalid$"
fi

csv=$("$collsim" run "$scenario" --format csv 2>/dev/null)
check "csv: the traffic columns" "$csv" "traffic,offered_load,delivered_load,delivered_Bps,latency_min_s,latency_mean_s"
check_close "csv: the makespan, flow 0's finish" "$(printf '%s\n' "$csv" | csv_field - time_s case=0)" "$one_s" 1e-9

# a bad line of the matrix: its own position
mkdir "$work/bad"
printf '0 1 1MB\n0 9 1MB\n' > "$work/bad/m.rows"
printf 'platform: {name: star-8, kind: star, ranks: 8, alpha: 0.5us, bandwidth: 900GBps}\ncases:\n  - traffic: {matrix: m.rows}\n' \
    > "$work/bad/s.yaml"
err=$("$collsim" run "$work/bad/s.yaml" 2>&1 >/dev/null)
status=$?
check "a rank outside the platform, at the matrix's line and column (exit $status)" "$status $err" \
    "^2 $work/bad/m.rows:2:3: '9' is not a rank of this platform"

# synthetic traffic under a fluid model
err=$("$collsim" run "$scenario" --model cm02 2>&1 >/dev/null)
status=$?
check "synthetic traffic under cm02 (exit $status)" "$status $err" \
    "^2 .*traffic-star8.yaml:10:14: synthetic traffic .* runs on the packet model only"
summary
