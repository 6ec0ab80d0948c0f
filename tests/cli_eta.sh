#!/bin/sh
# η calibration end to end (SPEC §6, issue 4): on every exact case of the
# schedules issue (tests/data/eta-exact.yaml: uncontended schedules whose seed
# formula the simulation equals) `collsim run --format json` must fit
# eta_alpha = eta_beta = 1 within 1e-6, for the whole collective and for each
# tier of the hierarchical one; and a platform whose links run at 80 % of the
# formula's BW (`efficiency: 0.8`, explainer 05 §2.1) must show eta_beta = 0.8.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
collsim="$top_builddir/collsim"
work=$(mktemp -d /tmp/collsim-cli-eta-XXXXXX)
trap 'rm -rf "$work"' EXIT
status=0

"$collsim" run "$top_srcdir/tests/data/eta-exact.yaml" --format json -o "$work/exact.json" || exit 1
python3 - "$work/exact.json" <<'PY' || status=1
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
sys.exit(1 if bad else 0)
PY

cat > "$work/slow.yaml" <<'YAML'
name: efficiency
platform: {name: star-8-eff, kind: star, ranks: 8, alpha: 1us, bandwidth: 100GBps, efficiency: 0.8}
cases:
  - primitive: allreduce
    algorithms: [ring]
    sizes: [1KB, 1MB, 100MB]
YAML
"$collsim" run "$work/slow.yaml" --format json -o "$work/slow.json" || exit 1
python3 - "$work/slow.json" <<'PY' || status=1
import json, sys
e = json.load(open(sys.argv[1]))["eta"][0]
ok = abs(e["eta_beta"] - 0.8) < 1e-6 and abs(e["eta_alpha"] - 1) < 1e-6
print("efficiency 0.8 -> eta_alpha %.9f eta_beta %.9f: %s" % (e["eta_alpha"], e["eta_beta"], "ok" if ok else "FAILED"))
sys.exit(0 if ok else 1)
PY
exit $status
