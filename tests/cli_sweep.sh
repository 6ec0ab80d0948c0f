#!/bin/sh
# cli_sweep.sh — collsim sweep and merge on one machine (docs/sweeps.md):
# bad sweep files refused at the sweep file's FILE:LINE:COL before anything
# runs or is submitted, the budget refused with its estimate (8N² schedule
# operations per ring, algorithm.c's growth class), ids that are FNV-1a of
# the point's canonical text (computed here independently), shards that
# partition the points, a merge byte-identical to the one-machine sweep and
# holding collsim run's JSON of each axis point's scenario (written by hand),
# resume after a lost or damaged point file.
. "${top_srcdir:-.}/tests/cli_common.sh"
data="$top_srcdir/tests/data"
base="$data/ring-star8.yaml"
cp "$base" "$work/base.yaml"

# ---- bad sweep files: exit 2, FILE:LINE:COL of the axis or value, nothing run or submitted ----
bad() { # name, text, expected message pattern
    printf '%s\n' "$2" > "$work/$1.yaml"
    out=$("$collsim" sweep "$work/$1.yaml" --out "$work/$1.out" 2>&1)
    check "$1 exits 2" "$? $out" "^2 "
    check "$1 says where and why" "$out" "$3"
    [ ! -e "$work/$1.out" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL $1: an output folder was made"; }
}
bad unknown-case-key "scenario: base.yaml
grid:
  cases.algoritms: [[ring]]" "unknown-case-key.yaml:3:3: unknown key 'algoritms': expected one of primitive, algorithms"
bad unknown-top-key "scenario: base.yaml
points:
  - {networks: packet}" "unknown-top-key.yaml:3:6: unknown key 'networks': expected one of name, platform, cases"
bad unknown-platform-key "scenario: base.yaml
grid:
  platform.eficiency: [0.5]" "unknown-platform-key.yaml:3:3: unknown key 'eficiency'"
bad not-an-axis "scenario: base.yaml
grid:
  'platform..efficiency': [0.5]" "not-an-axis.yaml:3:3: 'platform..efficiency' is not an axis"
bad empty-grid "scenario: base.yaml
grid: {}" "empty-grid.yaml:2:7: the grid is empty"
bad empty-axis "scenario: base.yaml
grid:
  platform.efficiency: [1, 0.5]
  cases.sizes: []" "empty-axis.yaml:4:16: axis 'cases.sizes' lists no values: the grid would be empty"
bad refused-value "scenario: base.yaml
grid:
  cases.algorithms: [[ring]]
  platform.efficiency: [1, 0.8,
                        1.5]" "refused-value.yaml:5:25: 'efficiency' is a fraction of the link bandwidth"
bad refused-elsewhere "scenario: base.yaml
grid:
  platform.efficiency: [1, 0.5]
  cases.algorithms: [[ring], [torus_dimdecomp]]" "refused-elsewhere.yaml:4:30: axis 'cases.algorithms' value \[torus_dimdecomp\]: the scenario refuses it: .*base.yaml:[0-9]+:[0-9]+: allreduce torus_dimdecomp cannot run"
bad missing-case "scenario: base.yaml
grid:
  cases[3].sizes: [[1MB]]" "missing-case.yaml:3:3: axis 'cases\[3\].sizes': names a case the scenario does not have: 'cases\[3\] \(it has 1\)'"
bad twice "scenario: base.yaml
points:
  - {platform.efficiency: 0.5}
  - {platform.efficiency: 0.5}" "twice.yaml:4:5: axis point platform.efficiency = 0.5 is given twice"
# slurm-sweep submits nothing for a refused sweep: a fake sbatch records any call
mkdir "$work/bin"
printf '#!/bin/sh\necho called >> "%s/sbatch-calls"\necho 1\n' "$work" > "$work/bin/sbatch"
chmod +x "$work/bin/sbatch"
out=$(PATH="$work/bin:$PATH" "$top_srcdir/scripts/slurm-sweep" --collsim "$collsim" "$work/refused-value.yaml" 2>&1)
check "slurm-sweep refuses a bad sweep with exit 2" "$? $out" "^2 .*refused-value.yaml:5:25:"
[ ! -e "$work/sbatch-calls" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL slurm-sweep called sbatch for a bad sweep"; }

# ---- a budget below the estimate: refused, with the estimate (6 ring points of 8·8² operations) ----
cat > "$work/eff.yaml" <<'S'
name: eff
scenario: base.yaml
grid:
  platform.efficiency: [1, 0.5]
S
out=$("$collsim" sweep "$work/eff.yaml" --budget 3000 2>&1)
check "a budget below the estimate is refused" "$? $out" "^2 .*estimated cost of the sweep, $((6 * 8 * 8 * 8)) schedule operations .*exceeds --budget 3000"
out=$("$collsim" sweep "$work/eff.yaml" --plan --budget 3072)
check "a budget at the estimate passes" "$? $out" "^0 sweep eff .* 2 axis points, 6 simulations"
out=$(PATH="$work/bin:$PATH" "$top_srcdir/scripts/slurm-sweep" --collsim "$collsim" --budget 1s --out "$work/s" "$work/eff.yaml" 2>&1)
check "slurm-sweep passes the budget on" "$? $(printf '%s\n' "$out" | tail -1)" "^0 array 1 \(6 tasks, at most 6 at once\) .* merge 1 writes"
out=$(PATH="$work/bin:$PATH" "$top_srcdir/scripts/slurm-sweep" --collsim "$collsim" --budget 1000 "$work/eff.yaml" 2>&1)
check "slurm-sweep refuses an over-budget sweep" "$? $out" "^2 .*exceeds --budget 1000"

# ---- ids: FNV-1a 64 of the canonical text, the same whatever the axes' order ----
fnv() { python3 -c 'import sys
h = 0xcbf29ce484222325
for b in sys.argv[1].encode(): h = ((h ^ b) * 0x100000001b3) % 2**64
print("%016x" % h)' "$1"; }
cat > "$work/grid.yaml" <<'S'
name: grid
scenario: base.yaml
grid:
  platform.efficiency: [1, 0.5]
  cases.algorithms: [[ring], [dbt]]
S
cat > "$work/swapped.yaml" <<'S'
name: grid
scenario: base.yaml
grid:
  cases.algorithms: [[dbt], [ring]]
  platform.efficiency: [0.5, 1]
S
list=$("$collsim" sweep "$work/grid.yaml" --list)
check "12 points" "$(printf '%s\n' "$list" | wc -l)" '^12$'
text='cases.algorithms=[dbt]
platform.efficiency=0.5
case=0
algorithm=0 dbt
size=2 16000000
'
id=$(fnv "$text")
check "an id is FNV-1a of the point's canonical text" "$list" "^$id  axis point 4: platform.efficiency = 0.5, cases.algorithms = \[dbt\]  case 0 allreduce dbt 16 MB$"
[ "$(printf '%s\n' "$list" | cut -d' ' -f1 | sort)" = "$("$collsim" sweep "$work/swapped.yaml" --list | cut -d' ' -f1 | sort)" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL reordered axes give other ids"; }
shards=$(for k in 0 1 2; do "$collsim" sweep "$work/grid.yaml" --list --shard $k/3 | cut -d' ' -f1; done | sort)
[ "$shards" = "$(printf '%s\n' "$list" | cut -d' ' -f1 | sort)" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL the shards are not a partition of the points"; }
out=$("$collsim" sweep "$work/grid.yaml" --shard 0/3 2>&1)
check "a shard needs --out" "$? $out" "^2 collsim sweep: --shard runs a share of the sweep: give --out DIR"
out=$("$collsim" sweep "$work/grid.yaml" --shard 0/3 --out "$work/x" -o "$work/x.json" 2>&1)
check "a shard makes no report" "$? $out" "^2 .*makes no report"
out=$("$collsim" sweep "$work/grid.yaml" --shard 3/3 --out "$work/x" 2>&1)
check "--shard K/N wants K < N" "$? $out" "^2 collsim sweep: --shard takes K/N"

# ---- shards merged: byte-identical to the one-machine sweep, each axis point collsim run's JSON ----
"$collsim" sweep "$work/grid.yaml" -q -o "$work/one.json"
"$collsim" sweep "$work/grid.yaml" -q -o "$work/one.csv"
for k in 0 1 2; do "$collsim" sweep "$work/grid.yaml" -q --shard $k/3 --out "$work/out"; done
check "one file per point and the manifest" "$(ls "$work/out" | wc -l)" '^13$'
"$collsim" merge "$work/out" -o "$work/merged.json"
cmp "$work/one.json" "$work/merged.json" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL merged JSON differs from the one-machine sweep"; }
"$collsim" merge "$work/out" -o "$work/merged.csv"
for f in "" .eta .terms .crossovers .hot_links; do
    cmp "$work/one$f.csv" "$work/merged$f.csv" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL merged$f.csv differs"; }
done
check "CSV: the axes first, then run's columns" "$(head -1 "$work/merged.csv")" '^platform.efficiency,cases.algorithms,case,primitive,algorithm,'
check "CSV: a row per result" "$(python3 -c 'import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' "$work/merged.csv")" '^12$'
check "the table: every axis point under its values" "$("$collsim" merge "$work/out")" '# axis point 4 of 4: platform.efficiency = 0.5, cases.algorithms = \[dbt\]'
# --format nccl-tests: each axis point's rows an nccl-tests log (its header and average line), as run writes them
out=$("$collsim" merge "$work/out" --format nccl-tests)
check "nccl-tests: four axis points, each a log with its header and average" "$(printf '%s\n' "$out" | grep -c '^# collsim sweep .*, axis point \|^# nThread 1 \|^# Avg bus bandwidth')" '^12$'
out=$("$collsim" merge "$work/out" --format yaml 2>&1); status=$?
check "an unknown format: exit 2, the four named" "$status $out" "^2 collsim merge: --format takes table, csv, json or nccl-tests, not 'yaml'$"
for eff in 1 0.5; do
    for alg in ring dbt; do
        sed "s/  kind: star/  kind: star\n  efficiency: $eff/; s/algorithms: \[ring\]/algorithms: [$alg]/" "$base" > "$work/point.yaml"
        "$collsim" run "$work/point.yaml" --format json -o "$work/point.json" -q
        python3 -c 'import sys; sys.exit(open(sys.argv[2]).read() not in open(sys.argv[1]).read())' "$work/merged.json" "$work/point.json" &&
            pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL efficiency $eff, $alg: collsim run's JSON is not in the merge"; }
    done
done
if command -v gnuplot >/dev/null 2>&1; then
    "$collsim" merge "$work/out" -o /dev/null --plot "$work/sweep.svg"
    check "the plot titles panels with their axis values" "$(cat "$work/sweep.svg")" 'platform.efficiency = 0.5, cases.algorithms = \[dbt\]'
fi

# ---- resume: a lost point and a damaged one are simulated again, nothing else ----
lost=$(printf '%s\n' "$list" | sed -n 1p | cut -d' ' -f1)
damaged=$(printf '%s\n' "$list" | sed -n 2p | cut -d' ' -f1)
rm "$work/out/$lost.json"
head -c 300 "$work/out/$damaged.json" > "$work/cut" && cat "$work/cut" > "$work/out/$damaged.json"
out=$("$collsim" merge "$work/out" -o "$work/m.json" 2>&1)
check "merge names the lost point" "$? $out" "^1 collsim merge: point $lost of axis point 1 .* is missing"
check "merge names the damaged point" "$out" "point $damaged of axis point 1 .* incomplete or altered"
[ ! -e "$work/m.json" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL merge wrote a report with points missing"; }
touch "$work/stamp"
sleep 1
out=$("$collsim" sweep "$work/grid.yaml" --out "$work/out" -o "$work/resumed.json" 2>&1)
check "the rerun runs the two missing points" "$out" "10 of 12 points already complete in .*; running 2"
check "only those were written" "$(find "$work/out" -name '*.json' -newer "$work/stamp" | sed 's|.*/||' | sort | tr '\n' ' ')" "^$(printf '%s.json\n%s.json\n%s\n' "$lost" "$damaged" sweep.json | sort | tr '\n' ' ')$"
cmp "$work/one.json" "$work/resumed.json" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL the resumed sweep's report differs"; }

# ---- folders of different sweeps are not merged ----
"$collsim" sweep "$work/eff.yaml" -q --out "$work/other" -o /dev/null
out=$("$collsim" merge "$work/out" "$work/other" 2>&1)
check "merge refuses folders of different sweeps" "$? $out" "^2 collsim merge: .* hold different sweeps"
summary
