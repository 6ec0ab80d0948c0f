#!/bin/sh
# `collsim run --format csv` (SPEC §8, docs/output.md): standard output (or
# -o FILE) is ONE table, one row per (case, algorithm, size), that a plain CSV
# reader takes without options; with -o FILE.csv the eta, terms and crossover
# tables go to FILE.eta.csv, FILE.terms.csv and FILE.crossovers.csv.  The
# results carry the same fields as the JSON's results.  Checked with Python's
# csv module, and with pandas.read_csv where pandas is installed.
. "${top_srcdir:-.}/tests/cli_common.sh"
scenario="$top_srcdir/tests/data/ring-star8.yaml"
python=/usr/bin/python3
[ -x "$python" ] || python=python3

"$collsim" run "$scenario" --format csv > "$work/stdout.csv" 2> "$work/err"
check "csv to stdout exits 0" "$? $(cat "$work/err")" '^0 $'
check "results header: the JSON's fields, groups, layout, skew, platform, concurrent_with, model, background" \
    "$(sed -n 1p "$work/stdout.csv")" \
    '^case,primitive,algorithm,group,ranks,size_bytes,segments,time_s,predicted_s,ideal_s,ratio,n_alpha,n_beta,alpha_s,bandwidth_Bps,algbw_Bps,busbw_Bps,time_fastest_s,messages,latency_p50_s,latency_p99_s,latency_max_s,rank_spread_s,background_load,groups,layout,skew,platform,concurrent_with,model,protocol,channels,tuned,launch_s,background,inner,outer$'
check "stdout: header + 3 rows, nothing else" "$(wc -l < "$work/stdout.csv")" '^ *4$'
check "no blank line on stdout (one table)" "$(grep -c '^$' "$work/stdout.csv")" '^0$'

"$collsim" run "$scenario" --format csv -o "$work/out.csv" 2> "$work/err"
check "csv -o exits 0" "$? $(cat "$work/err")" '^0 $'
check "-o writes the results and four tables beside them" "$(cd "$work" && ls out*.csv | tr '\n' ' ')" \
    '^out.crossovers.csv out.csv out.eta.csv out.hot_links.csv out.terms.csv $'
check "hot links table header" "$(sed -n 1p "$work/out.hot_links.csv")" \
    '^case,algorithm,group,size_bytes,rank,link,direction,tier,from,to,bandwidth_Bps,bytes,utilization,peak_buffer_bytes,mean_buffer_bytes,stalled_s$'
check "hot links: ten per result on a star of 8 (16 link directions carry bytes)" "$(wc -l < "$work/out.hot_links.csv")" '^ *31$'
check "-o FILE holds what stdout holds" "$(cmp "$work/out.csv" "$work/stdout.csv" && echo same)" '^same$'
check "eta table header" "$(sed -n 1p "$work/out.eta.csv")" \
    '^case,primitive,algorithm,group,tier,label,points,eta_alpha,eta_beta,eta_beta_busbw,max_rel_residual,note$'
check "one eta row over 3 sizes, a result (no note)" "$(sed -n 2p "$work/out.eta.csv")" '^0,allreduce,ring,0,,,3,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,$'
check "terms table header" "$(sed -n 1p "$work/out.terms.csv")" \
    '^case,algorithm,group,size_bytes,tier,label,n_alpha,n_beta,alpha_s,bandwidth_Bps,predicted_s,time_s$'
check "one term per result" "$(wc -l < "$work/out.terms.csv")" '^ *4$'
check "crossovers: a header and no row (one algorithm)" "$(cat "$work/out.crossovers.csv")" '^case,a,b,size_bytes$'

# every table rectangular, with the JSON's result keys as its columns
"$collsim" run "$scenario" --format json -o "$work/out.json" 2>/dev/null
out=$("$python" - "$work" <<'EOF'
import csv, json, sys
work = sys.argv[1]
for name in ("out.csv", "out.eta.csv", "out.terms.csv", "out.crossovers.csv", "out.hot_links.csv"):
    rows = list(csv.reader(open(f"{work}/{name}", newline="")))
    widths = {len(row) for row in rows}
    print(f"{name} rectangular" if len(widths) == 1 else f"{name} ragged {sorted(widths)}")
header = next(csv.reader(open(f"{work}/out.csv", newline="")))
keys = set(json.load(open(f"{work}/out.json"))["results"][0]) - {"terms", "hot_links"}
print("same fields as JSON" if set(header) == keys else f"fields differ: csv-only {set(header) - keys} json-only {keys - set(header)}")
EOF
)
for name in out.csv out.eta.csv out.terms.csv out.crossovers.csv out.hot_links.csv; do
    check "$name rectangular" "$out" "^$name rectangular$"
done
check "results: the JSON result's fields, terms and hot links aside" "$out" '^same fields as JSON$'

if "$python" -c 'import pandas' 2>/dev/null; then
    out=$("$python" - "$work" <<'EOF'
import sys
import pandas
work = sys.argv[1]
results = pandas.read_csv(f"{work}/out.csv")
print("results", results.shape, results["size_bytes"].tolist(), results["time_s"].dtype)
eta = pandas.read_csv(f"{work}/out.eta.csv")
print("eta", eta.shape, eta["points"].tolist(), eta["eta_beta"].dtype)
print("terms", pandas.read_csv(f"{work}/out.terms.csv").shape)
EOF
    )
    check "pandas reads the results: 3 x 37, sizes in order, times numeric" "$out" \
        '^results \(3, 37\) \[1000, 1000000, 16000000\] float64$'
    check "pandas reads the eta table: 1 x 12, numeric eta" "$out" '^eta \(1, 12\) \[3\] float64$'
    check "pandas reads the terms table: 3 x 12" "$out" '^terms \(3, 12\)$'
else
    echo "note: pandas not installed (scripts/setup installs python3-pandas): pandas.read_csv not checked"
fi

# -o - is standard output; a FIFO is written into (not replaced) and gets only the results table
"$collsim" run "$scenario" --format csv -o - > "$work/dash.csv" 2>/dev/null
check "-o - is standard output" "$(cmp "$work/dash.csv" "$work/stdout.csv" && echo same)" '^same$'
summary
