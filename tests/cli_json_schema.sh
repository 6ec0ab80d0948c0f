#!/bin/sh
# `collsim run --format json` against docs/collsim-output.schema.json (docs/output.md):
# the run's file validates, the same document reshaped as `collsim predict`
# writes it validates, and deliberately broken copies do not (so this test
# can fail).  Needs python3 with jsonschema (Debian: python3-jsonschema,
# installed by scripts/setup); skipped (exit 77) without it.
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "SKIP: python3 with jsonschema not found (install python3-jsonschema; scripts/setup does)"
    exit 77
fi
. "${top_srcdir:-.}/tests/cli_common.sh"
schema="$top_srcdir/docs/collsim-output.schema.json"
# a run, and predictions of the same scenario and of every exact case (terms,
# crossovers, per-case platforms)
"$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" --format json -o "$work/run.json" &&
    "$collsim" predict "$top_srcdir/tests/data/ring-star8.yaml" --format json -o "$work/predict.json" &&
    "$collsim" predict "$top_srcdir/tests/data/eta-exact.yaml" --format json -o "$work/predict-exact.json" || {
    echo "FAIL collsim exited $?"
    exit 1
}
# validate SCHEMA RUN.json PREDICT.json...: they and the predict shape of the
# run must pass, every broken copy must fail
python3 - "$schema" "$work/run.json" "$work/predict.json" "$work/predict-exact.json" <<'PYTHON'
import copy, json, sys
import jsonschema

schema = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
predictions = [(path, json.load(open(path))) for path in sys.argv[3:]]
validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
validator = validator_class(schema)
failures = 0

def expect(document, valid, what):
    global failures
    errors = sorted(validator.iter_errors(document), key=str)
    if bool(errors) == valid:
        failures += 1
        print("FAIL %s: expected %s, got %s" % (what, "valid" if valid else "invalid",
                                               errors[0].message if errors else "valid"))
    else:
        print("ok   %s" % what)

def changed(edit):
    document = copy.deepcopy(run)
    edit(document)
    return document

expect(run, True, "run output validates")
if len(run["results"]) != 3 or len(run["eta"]) != 1 or run["simulated"] is not True:
    failures += 1
    print("FAIL run output: expected 3 results and 1 eta row of a simulated run")
for path, prediction in predictions:
    expect(prediction, True, "collsim predict output validates (%s)" % path.rsplit("/", 1)[-1])
    if prediction["simulated"] is not False or not prediction["results"]:
        failures += 1
        print("FAIL %s: expected results of a prediction" % path)

RUN_ONLY = ("time_s", "ratio", "messages", "latency_p50_s", "latency_p99_s", "latency_max_s", "rank_spread_s",
            "contended", "hot_links", "links")

def as_prediction(document):
    document["simulated"] = False
    document["eta"] = []
    for result in document["results"]:
        for key in RUN_ONLY:
            result.pop(key, None)

expect(changed(as_prediction), True, "predict shape (no time_s, no ratio) validates")
expect(changed(lambda d: d["results"].append(dict(d["results"][0], terms=[
    {"tier": "nvlink", "label": "inner RS", "n_alpha": 7, "n_beta": 0.875, "alpha_s": 5e-7,
     "bandwidth_Bps": 9e11, "predicted_s": 1e-5, "time_s": None}]))), True, "a result with an untimed term validates")

def remove(path):
    def edit(document):
        *parents, key = path
        for p in parents:
            document = document[p]
        del document[key]
    return edit

def put(path, value):
    def edit(document):
        *parents, key = path
        for p in parents:
            document = document[p]
        document[key] = value
    return edit

broken = [
    ("top-level key 'model' removed", remove(["model"])),
    ("top-level key 'simulated' removed", remove(["simulated"])),
    ("platform ranks a string", put(["platform", "ranks"], "8")),
    ("result time_s removed from a run", remove(["results", 0, "time_s"])),
    ("result size_bytes a string", put(["results", 0, "size_bytes"], "1000")),
    ("result with an unknown key", put(["results", 0, "colour"], "blue")),
    ("result with an unknown primitive", put(["results", 0, "primitive"], "allreduse")),
    ("eta row without points", remove(["eta", 0, "points"])),
    ("eta_alpha a string", put(["eta", 0, "eta_alpha"], "1.0")),
    ("crossover without b", put(["crossovers"], [{"case": 0, "a": "ring", "size_bytes": 1e5}])),
    ("result without hot_links in a run", remove(["results", 0, "hot_links"])),
    ("result without background", remove(["results", 0, "background"])),
    ("latency_p99_s a string", put(["results", 0, "latency_p99_s"], "1e-6")),
    ("a hot link going sideways", put(["results", 0, "hot_links", 0, "direction"], "sideways")),
    ("a hot link without utilization", remove(["results", 0, "hot_links", 0, "utilization"])),
    ("eleven hot links", lambda d: d["results"][0]["hot_links"].extend(d["results"][0]["hot_links"][:1] * 11)),
    ("no crossovers list", remove(["crossovers"])),
    ("unknown top-level key", put(["extra"], 1)),
]
for what, edit in broken:
    expect(changed(edit), False, what)
expect(changed(put(["crossovers"], [{"case": 0, "a": "ring", "b": "recursive_doubling", "size_bytes": 1.5e5, "basis": "predicted"}])),
       True, "a crossover validates")

def predict_with_time(document):
    as_prediction(document)
    document["results"][0]["time_s"] = 1e-6

expect(changed(predict_with_time), False, "predict shape carrying time_s")

def predict_with_links(document):
    as_prediction(document)
    document["results"][0]["links"] = []

expect(changed(predict_with_links), False, "predict shape carrying links")
expect(changed(put(["results", 0, "links"], run["results"][0]["hot_links"])), True, "a run with links (--links) validates")
sys.exit(1 if failures else 0)
PYTHON
