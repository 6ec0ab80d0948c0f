#!/bin/sh
# `collsim run --format csv` (docs/output.md): standard output (or
# -o FILE) is ONE table, one row per (case, algorithm, size), that a plain CSV
# reader takes without options; with -o FILE.csv the eta, terms and crossover
# tables go to FILE.eta.csv, FILE.terms.csv and FILE.crossovers.csv.  The
# results carry the same fields as the JSON's results.  Every table's header
# is the column list docs/output.md gives it (itself checked against the JSON
# schema's fields), column by column, and every row is as wide as its header.
# Checked with Python's csv module, and with pandas.read_csv where pandas is
# installed.
. "${top_srcdir:-.}/tests/cli_common.sh"
scenario="$top_srcdir/tests/data/ring-star8.yaml"
python=/usr/bin/python3
[ -x "$python" ] || python=python3

# The columns of every table, as docs/output.md ("CSV") lists them, each list
# checked against the fields docs/collsim-output.schema.json gives the JSON:
# one line "columns TABLE NAME,NAME,..." per table, and a line per disagreement
"$python" - "$top_srcdir/docs/output.md" "$top_srcdir/docs/collsim-output.schema.json" > "$work/columns" 2>&1 <<'EOF_PY'
import json, re, sys
section = open(sys.argv[1]).read().split("\n## CSV\n", 1)[1].split("\n## ", 1)[0]
fields = {name: list(d.get("properties", {})) for name, d in json.load(open(sys.argv[2]))["$defs"].items()}
def listed(after):  # the first column list in backquotes after AFTER; its count said "(N columns"
    start = section.index(after)
    columns = re.search(r"`(\w+(?:,\w+)+)`", section[start:]).group(1).split(",")
    said = re.search(r"\((\d+) columns", section[start:])
    if said is None or int(said.group(1)) != len(columns):
        print(f"docs/output.md: {after} lists {len(columns)} columns, says {said and said.group(1)}")
    return columns
tables = {"out.csv": listed("Results ("), "out.eta.csv": listed("FILE.eta.csv"),
          "out.terms.csv": listed("FILE.terms.csv"), "out.crossovers.csv": listed("FILE.crossovers.csv"),
          "out.hot_links.csv": listed("FILE.hot_links.csv")}
# the results: the JSON result's fields but its lists and --measured's three
results = set(fields["result"]) - {"terms", "hot_links", "links", "flows", "measured_s", "sim_error", "pred_error"}
if set(tables["out.csv"]) != results:
    print(f"out.csv: docs/output.md only {set(tables['out.csv']) - results}, schema only {results - set(tables['out.csv'])}")
# the others: the schema's fields of an eta row, a crossover, a term or a
# link, the last two after columns of the result they belong to
for name, definition, lead in (("out.eta.csv", "eta", 0), ("out.crossovers.csv", "crossover", 0),
                               ("out.terms.csv", "term", 4), ("out.hot_links.csv", "link", 5)):
    columns = tables[name]
    if columns[lead:] != fields[definition] or not set(columns[:lead]) <= set(fields["result"]) | {"rank"}:
        print(f"{name}: docs/output.md {','.join(columns)}, schema {definition} {','.join(fields[definition])}")
for name, columns in tables.items():
    print("columns", name, ",".join(columns))
EOF_PY
check "docs/output.md's CSV columns agree with the JSON schema (lines of disagreement)" \
    "$(grep -vc '^columns ' "$work/columns"; grep -v '^columns ' "$work/columns")" '^0$'
columns() { sed -n "s/^columns $1 //p" "$work/columns"; }
width() { columns "$1" | tr ',' '\n' | wc -l | tr -d ' '; }
# FILE's header is TABLE's documented columns, one by one; every row as wide
check_table() { # file, table
    out=$("$python" - "$1" "$(columns "$2")" <<'EOF_PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
expected = sys.argv[2].split(",")
header = rows[0] if rows else []
wrong = [f"column {i + 1} is {header[i] if i < len(header) else '(none)'}, docs/output.md says {expected[i] if i < len(expected) else '(none)'}"
         for i in range(max(len(header), len(expected))) if header[i:i + 1] != expected[i:i + 1]]
wrong += [f"line {n} has {len(row)} fields, the header {len(header)}" for n, row in enumerate(rows[1:], 2) if len(row) != len(header)]
print("; ".join(wrong) if wrong else f"{len(rows) - 1} rows of {len(header)} columns")
EOF_PY
    )
    check "$2: each header column as docs/output.md lists it, each row as wide as the header" "$out" \
        "^[0-9]+ rows of $(width "$2") columns\$"
}

"$collsim" run "$scenario" --format csv > "$work/stdout.csv" 2> "$work/err"
check "csv to stdout exits 0" "$? $(cat "$work/err")" '^0 $'
check_table "$work/stdout.csv" out.csv
check "stdout: header + 3 rows, nothing else" "$(wc -l < "$work/stdout.csv")" '^ *4$'
check "no blank line on stdout (one table)" "$(grep -c '^$' "$work/stdout.csv")" '^0$'

"$collsim" run "$scenario" --format csv -o "$work/out.csv" 2> "$work/err"
check "csv -o exits 0" "$? $(cat "$work/err")" '^0 $'
check "-o writes the results and four tables beside them" "$(cd "$work" && ls out*.csv | tr '\n' ' ')" \
    '^out.crossovers.csv out.csv out.eta.csv out.hot_links.csv out.terms.csv $'
for table in out.csv out.eta.csv out.terms.csv out.crossovers.csv out.hot_links.csv; do
    check_table "$work/$table" $table
done
check "hot links: ten per result on a star of 8 (16 link directions carry bytes)" "$(wc -l < "$work/out.hot_links.csv")" '^ *31$'
check "-o FILE holds what stdout holds" "$(cmp "$work/out.csv" "$work/stdout.csv" && echo same)" '^same$'
check "one eta row over 3 sizes, a result (no note)" "$(sed -n 2p "$work/out.eta.csv")" '^0,allreduce,ring,0,,,3,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,$'
check "one term per result" "$(wc -l < "$work/out.terms.csv")" '^ *4$'
check "crossovers: a header and no row (one algorithm)" "$(wc -l < "$work/out.crossovers.csv")" '^ *1$'

# the results carry the JSON result's keys as their columns
"$collsim" run "$scenario" --format json -o "$work/out.json" 2>/dev/null
out=$("$python" - "$work" <<'EOF'
import csv, json, sys
work = sys.argv[1]
header = next(csv.reader(open(f"{work}/out.csv", newline="")))
keys = set(json.load(open(f"{work}/out.json"))["results"][0]) - {"terms", "hot_links"}
# a traffic row's own fields (docs/output.md): a collective's JSON row leaves them out, its CSV row empty
keys |= {"traffic", "offered_load", "delivered_load", "delivered_Bps", "latency_min_s", "latency_mean_s"}
print("same fields as JSON" if set(header) == keys else f"fields differ: csv-only {set(header) - keys} json-only {keys - set(header)}")
EOF
)
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
    check "pandas reads the results: 3 x $(width out.csv), sizes in order, times numeric" "$out" \
        "^results \\(3, $(width out.csv)\\) \\[1000, 1000000, 16000000\\] float64\$"
    check "pandas reads the eta table: 1 x $(width out.eta.csv), numeric eta" "$out" "^eta \\(1, $(width out.eta.csv)\\) \\[3\\] float64\$"
    check "pandas reads the terms table: 3 x $(width out.terms.csv)" "$out" "^terms \\(3, $(width out.terms.csv)\\)\$"
else
    echo "note: pandas not installed (scripts/setup installs python3-pandas): pandas.read_csv not checked"
fi

# -o - is standard output; a FIFO is written into (not replaced) and gets only the results table
"$collsim" run "$scenario" --format csv -o - > "$work/dash.csv" 2>/dev/null
check "-o - is standard output" "$(cmp "$work/dash.csv" "$work/stdout.csv" && echo same)" '^same$'
summary
