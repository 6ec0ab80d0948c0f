#!/bin/sh
# Regression baselines (docs/output.md, "Regression"): `collsim run --write-baseline` records the
# run's JSON, `--baseline` compares a later run with it, exits 1 naming every
# drifted row (a time past --rtol, a row on one side only) and 2 when the
# baseline cannot be read.  On tests/data/ring-star8.yaml: ring all-reduce on
# an inline 8-rank star, 3 sizes, so 3 simulated rows.
. "${top_srcdir:-.}/tests/cli_common.sh"
cp "$top_srcdir/tests/data/ring-star8.yaml" "$work/ring.yaml"
cd "$work" || exit 1

out=$("$collsim" run ring.yaml --write-baseline base.json --format json -o run1.json 2>&1); status=$?
check "writing a baseline exits 0" "$status" '^0$'
check "the baseline is the run's JSON" "$(cmp base.json run1.json && echo same)" '^same$'
check "the baseline holds 3 simulated rows" "$(grep -c '"size_bytes".*"time_s": [0-9]' base.json)" '^3$'

out=$("$collsim" run ring.yaml --baseline base.json --format json -o run2.json 2>&1); status=$?
check "an unchanged run matches its baseline: exit 0" "$status" '^0$'
check "an unchanged run: 0 drifted" "$out" 'base.json: 3 rows \(3 in the baseline\), 0 drifted past rtol 1e-09, largest relative drift 0$'
check "simulation is deterministic: byte-identical JSON" "$(cmp run1.json run2.json && echo same)" '^same$'

# one platform parameter moved: BW 900 -> 901 GB/s changes every time by < 0.2%
sed 's/900GBps/901GBps/' ring.yaml > faster.yaml
out=$("$collsim" run faster.yaml --baseline base.json --format json -o faster.json 2>&1); status=$?
check "a moved bandwidth drifts: exit 1" "$status" '^1$'
check "a moved bandwidth: every row drifted" "$out" '3 rows \(3 in the baseline\), 3 drifted past rtol 1e-09'
check "a moved bandwidth: the drift table has 3 rows" "$(printf '%s\n' "$out" | grep -c '^ *0 *allreduce *ring *0 *star-8 ')" '^3$'
check "a moved bandwidth: the 16 MB row, both times, its drift" "$out" \
    'allreduce +ring +0 +star-8 +16000000 +38\.111111111 +38\.076581576 +-9\.060e-04$'
check "the normal output is still written on drift" "$(grep -c '"time_s"' faster.json)" '^[1-9]'
out=$("$collsim" run faster.yaml --baseline base.json --rtol 0.01 -o faster.txt 2>&1); status=$?
check "within --rtol 0.01 the same change passes" "$status" '^0$'
check "within --rtol 0.01: 0 drifted" "$out" '0 drifted past rtol 0.01'

# rows present on one side only
grep -v '"size_bytes": 1000000,' base.json > short.json
out=$("$collsim" run ring.yaml --baseline short.json -o short.txt 2>&1); status=$?
check "a row the baseline lacks: exit 1" "$status" '^1$'
check "a row the baseline lacks is named, as missing from it" "$out" \
    'ring +0 +star-8 +1000000 +missing +8\.9444444444 +new'
check "a row the baseline lacks: 1 drifted" "$out" '3 rows \(2 in the baseline\), 1 drifted'
sed 's/sizes: \[1KB, 1MB, 16MB\]/sizes: [1KB, 16MB]/' ring.yaml > fewer.yaml
out=$("$collsim" run fewer.yaml --baseline base.json -o fewer.txt 2>&1); status=$?
check "a baseline row this run lacks: exit 1" "$status" '^1$'
check "a baseline row this run lacks is named, as missing now" "$out" \
    'ring +0 +star-8 +1000000 +8\.9444444444 +missing +gone'

out=$("$collsim" run ring.yaml --baseline base.json --model lv08 -o lv08.txt 2>&1)
check "a baseline of another network model is said so" "$out" 'simulated with network model cm02, this run with lv08'

# an unreadable baseline, a bad --rtol, no simulation: exit 2
printf 'not json {\n' > garbage.json
out=$("$collsim" run ring.yaml --baseline garbage.json -o garbage.txt 2>&1); status=$?
check "a garbage baseline exits 2" "$status" '^2$'
check "a garbage baseline is named" "$out" '^garbage\.json:1:[0-9]+: not collsim JSON output'
printf '{"results": []}\n' > other.json
out=$("$collsim" run ring.yaml --baseline other.json -o other.txt 2>&1); status=$?
check "JSON that is not collsim's exits 2" "$status" '^2$'
check "JSON that is not collsim's is named" "$out" '^other\.json: not collsim JSON output'
out=$("$collsim" run ring.yaml --baseline absent.json -o absent.txt 2>&1); status=$?
check "a missing baseline exits 2 naming it" "$status $out" '^2 absent\.json: cannot read the baseline'
"$collsim" predict ring.yaml --format json -o predicted.json
out=$("$collsim" run ring.yaml --baseline predicted.json -o predicted.txt 2>&1); status=$?
check "a predict output as baseline exits 2" "$status $out" '^2 predicted\.json: holds collsim predict output'
out=$("$collsim" run ring.yaml --baseline base.json --rtol -1 2>&1); status=$?
check "--rtol -1 exits 2" "$status" '^2$'
check "--rtol -1 says what it takes" "$out" '--rtol takes a number >= 0'
out=$("$collsim" run ring.yaml --baseline base.json --rtol 1e-3x 2>&1); status=$?
check "--rtol 1e-3x exits 2" "$status" '^2$'
out=$("$collsim" predict ring.yaml --baseline base.json 2>&1); status=$?
check "predict --baseline exits 2: nothing simulated" "$status $out" '^2 collsim predict: .*simulates nothing'
out=$("$collsim" run ring.yaml --write-baseline no-such-dir/base.json -o nodir.txt 2>&1); status=$?
check "a baseline that cannot be written exits 2" "$status $out" '^2 collsim: cannot write no-such-dir/base\.json'
check "nothing half-written is left behind" "$(find . -name '*.tmp-*' | wc -l)" '^ *0$'
summary
