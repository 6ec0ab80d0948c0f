#!/bin/sh
# The outputs hold every field whole at any size, and the table reads as
# docs/output.md says: every line but a result row starts with '#', a
# column that says nothing in a case is left out, the busiest link of each
# algorithm in one line per case unless --links lists them all.
. "${top_srcdir:-.}/tests/cli_common.sh"
need python3

# 1,024 cases simulated together: each row's concurrent_with names the 1,023 others, in every format
python3 - > "$work/concurrent.yaml" <<'EOF_PY'
print("name: concurrent-1024")
print("platform: {name: star-2048, kind: star, ranks: 2048, alpha: 0.5us, bandwidth: 900GBps}")
print("cases:")
print("  - concurrent:")
for i in range(1024):
    print(f"      - {{primitive: sendrecv, algorithms: [direct], sizes: [1MB], groups: [[{2 * i}, {2 * i + 1}]]}}")
EOF_PY
"$collsim" run "$work/concurrent.yaml" -q --format json -o "$work/c.json"
check "1,024 concurrent cases: json exits 0" "$?" '^0$'
"$collsim" run "$work/concurrent.yaml" -q -o "$work/c.csv"
check "1,024 concurrent cases: csv exits 0" "$?" '^0$'
"$collsim" run "$work/concurrent.yaml" -q --format table -o "$work/c.txt"
check "1,024 concurrent cases: table exits 0" "$?" '^0$'
out=$(python3 - "$work" <<'EOF_PY'
import csv, json, sys
work = sys.argv[1]
d = json.load(open(f"{work}/c.json"))
rows = d["results"]
ok = len(rows) == 1024 and all(sorted(r["concurrent_with"]) == [c for c in range(1024) if c != r["case"]] for r in rows)
print("json", "whole" if ok else "CUT")
with open(f"{work}/c.csv", newline="") as f:
    table = list(csv.reader(f))
header, body = table[0], table[1:]
column = header.index("concurrent_with")
ok = len(body) == 1024 and all(len(r) == len(header) for r in body) and all(
    sorted(map(int, r[column].split())) == [c for c in range(1024) if c != int(r[0])] for r in body)
print("csv", "whole" if ok else "CUT")
lines = [l for l in open(f"{work}/c.txt") if l.startswith("# case ")]
ok = len(lines) == 1024 and all(l.rstrip().endswith(", 1023") or l.rstrip().endswith(", 1022") for l in lines)
ok = ok and all(len(l.split(",")) >= 1024 for l in lines)
print("table", "whole" if ok else "CUT")
EOF_PY
)
check "1,024 concurrent cases: the JSON parses and lists every other case" "$out" '^json whole$'
check "1,024 concurrent cases: every CSV row as wide as the header, every other case listed" "$out" '^csv whole$'
check "1,024 concurrent cases: every table case line lists every other case" "$out" '^table whole$'

# every line that is not a result row starts with '#'
result_row='^ +[0-9]+ '
"$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" -q > "$work/star8.txt"
"$collsim" run "$top_srcdir/tests/data/ring-star8.yaml" -q --links > "$work/star8-links.txt"
"$collsim" predict "$top_srcdir/scenarios/real-systems.yaml" -q > "$work/real.txt"
"$collsim" predict "$top_srcdir/scenarios/superpod-hierarchical-allreduce.yaml" -q > "$work/superpod.txt"
for f in star8 star8-links real superpod; do
    check "$f: every line but a result row starts with #" "$(grep -v '^#' "$work/$f.txt" | grep -vE "$result_row")" '^$'
    check "$f: it has result rows" "$(grep -cE "$result_row" "$work/$f.txt")" '^[1-9][0-9]*$'
done
check "the hierarchical rows' terms are # lines" "$(grep -c '^#   term ' "$work/superpod.txt")" '^[1-9][0-9]*$'

# links: one summary line per algorithm, every link only with --links
check "without --links, no link lines" "$(grep -c '^#   link' "$work/star8.txt")" '^0$'
check "without --links, the busiest link of ring at its largest size" \
    "$(grep '^# busiest link' "$work/star8.txt")" '^# busiest link, ring at 16 MB: r[0-7]_switch (up|down) \(switch\).*utilization 0\.8163'
check "with --links, the 16 link directions of a star of 8 under each of 3 rows" "$(grep -c '^#   link' "$work/star8-links.txt")" '^48$'
check "with --links, no summary line" "$(grep -c '^# busiest link' "$work/star8-links.txt")" '^0$'

# columns that say nothing are left out: no P, proto or ch on an unpipelined seed-model ring
check "no P, proto or ch column on a plain ring" "$(grep 'size(B)' "$work/star8.txt")" '^#  +size\(B\)  algorithm +time\(us\)'
check "proto and ch columns where the case runs NCCL protocols" "$(grep 'size(B)' "$work/real.txt" | grep -c 'proto  *ch')" '^[1-9][0-9]*$'
# readable widths: a plain run well under the 200 columns of a wide terminal
check "ring-star8: at most 150 columns" "$(awk '{ if (length > m) m = length } END { print m }' "$work/star8.txt")" '^1[0-4][0-9]$|^150$|^[0-9][0-9]$'
summary
