#!/bin/sh
# η calibration end to end (docs/model.md, "How η is fitted"): on every
# exact case of docs/algorithms.md (tests/data/eta-exact.yaml: uncontended schedules whose seed
# formula the simulation equals) `collsim run --format json` must fit
# eta_alpha = eta_beta = 1 within 1e-6, for the whole collective and for each
# tier of the hierarchical one; and a platform whose links run at 80 % of the
# formula's BW (`efficiency: 0.8`, explainer 05 §2.1) must show eta_beta = 0.8.
. "${top_srcdir:-.}/tests/cli_common.sh"

"$collsim" run "$top_srcdir/tests/data/eta-exact.yaml" --format json -o "$work/exact.json"
check "the exact cases run: exit 0" "$?" '^0$'
out=$(python3 - "$work/exact.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
etas = doc["eta"]
cases = {(r["case"], r["algorithm"]) for r in doc["results"]}
whole = {(e["case"], e["algorithm"]) for e in etas if e["tier"] is None}
bad = 0
if cases != whole:
    print("FAIL: cases without an eta row:", sorted(cases - whole)); bad += 1
tiers = [e for e in etas if e["tier"] is not None]
if len(tiers) != 3:
    print("FAIL: the hierarchical case should have 3 per-tier eta rows, has", len(tiers)); bad += 1
for e in etas:
    for key in ("eta_alpha", "eta_beta"):
        if e[key] is None or abs(e[key] - 1) > 1e-6:
            print("FAIL: case %d %s %s %s = %s" % (e["case"], e["algorithm"], e["tier"] or "", key, e[key])); bad += 1
print("eta on %d exact fits (%d per tier): %s" % (len(etas), len(tiers), "ok" if not bad else "FAILED"))
PY
)
check "eta_alpha = eta_beta = 1 within 1e-6 on every exact case and tier" "$out" '^eta on [0-9]+ exact fits \(3 per tier\): ok$'

# the seed's form predicts at the tiers' stated BW: the eta fit finds the efficiency the links run at;
# the default form predicts at the links' rate (BW x efficiency), so its eta_beta is 1
cat > "$work/slow.yaml" <<'YAML'
name: efficiency
platform: {name: star-8-eff, kind: star, ranks: 8, alpha: 1us, bandwidth: 100GBps, efficiency: 0.8}
cases:
  - primitive: allreduce
    algorithms: [ring]
    form: seed
    sizes: [1KB, 1MB, 100MB]
  - primitive: allreduce
    algorithms: [ring]
    sizes: [1KB, 1MB, 100MB]
YAML
"$collsim" run "$work/slow.yaml" --format json -o "$work/slow.json"
check "efficiency 0.8: exit 0" "$?" '^0$'
# within 1e-6: relative 1e-6 of eta_alpha = 1, 1.25e-6 of eta_beta = 0.8
check_close "efficiency 0.8: eta_alpha" "$(json_field "$work/slow.json" eta/0/eta_alpha)" 1 1e-6
check_close "efficiency 0.8: eta_beta" "$(json_field "$work/slow.json" eta/0/eta_beta)" 0.8 1.25e-6
check_close "efficiency 0.8, default form: eta_beta" "$(json_field "$work/slow.json" eta/1/eta_beta)" 1 1e-6
summary
