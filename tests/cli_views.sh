#!/bin/sh
# The per-message, per-link and trace views from the command line: --trace writes the first
# simulation as a Chrome / Perfetto trace (valid JSON, one span per
# operation, the last one ending at the row's time, queue counters under
# the packet model only, the run's numbers unchanged, written whole or not
# at all); --links lists every link direction; the rank finish spread and
# the latencies of a pipelined chain against forms derived here.
. "${top_srcdir:-.}/tests/cli_common.sh"
platforms=$(cd "$top_srcdir/platforms" && pwd)
python=/usr/bin/python3
[ -x "$python" ] || python=python3

# 4 concurrent ring groups of 4 on clos-16: 4 x 4 ranks x 2(N-1) sends and as many receives = 192 ops
cat > "$work/rings.yaml" <<YAML
name: trace-rings
platform: $platforms/clos-16.yaml
cases:
  - primitive: allreduce
    algorithms: [ring]
    sizes: [256KB, 1MB]
    groups: {count: 4, size: 4, layout: strided}
YAML

for model in cm02 packet; do
    "$collsim" run "$work/rings.yaml" --model $model --format json -o "$work/plain.json" 2>/dev/null
    "$collsim" run "$work/rings.yaml" --model $model --format json -o "$work/traced.json" --trace "$work/$model.trace.json" 2>"$work/err"
    check "$model: --trace exits 0" "$? $(cat "$work/err")" '^0 $'
    check "$model: the run's output does not change with --trace" "$(cmp "$work/plain.json" "$work/traced.json" && echo same)" '^same$'
    out=$("$python" - "$work/$model.trace.json" "$work/plain.json" <<'EOF'
import json, sys
trace = json.load(open(sys.argv[1]))
row = json.load(open(sys.argv[2]))["results"][0]
events = trace["traceEvents"]
spans = [e for e in events if e["ph"] == "X"]
counters = [e for e in events if e["ph"] == "C"]
print("spans", len(spans))
print("counters", "some" if counters else "none")
end = max(e["ts"] + e["dur"] for e in spans) * 1e-6
print("last op ends at the row's time" if abs(end / row["time_s"] - 1) < 1e-6 else f"last op {end} row {row['time_s']}")
names = {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
print("ranks named", sum("rank" in n for n in names))
# every span nests in its lane: no two spans of one lane overlap
lanes = {}
for e in spans:
    lanes.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
ok = all(a[1] <= b[0] + 1e-9 for spans_ in lanes.values() for a, b in zip(sorted(spans_), sorted(spans_)[1:]))
print("lanes nest" if ok else "lanes overlap")
sizes = sorted({e["args"]["bytes"] for e in spans})
print("message bytes", sizes)
EOF
    )
    check "$model: one span per operation (192)" "$out" '^spans 192$'
    check "$model: the last operation ends at the row's time" "$out" "^last op ends at the row's time$"
    check "$model: every rank a process (16)" "$out" '^ranks named 16$'
    check "$model: spans in a lane do not overlap" "$out" '^lanes nest$'
    check "$model: each message is M/N = 64 KB" "$out" '^message bytes \[64000(\.0)?\]$'
done
check "cm02: no queue counters (a fluid model has no queues)" "$("$python" -c "
import json; print(sum(e['ph'] == 'C' for e in json.load(open('$work/cm02.trace.json'))['traceEvents']))")" '^0$'
check "packet: queue counters" "$("$python" -c "
import json; e = json.load(open('$work/packet.trace.json'))['traceEvents']
print(len({x['name'] for x in e if x['ph'] == 'C'}), 'queues', max(x['args']['bytes'] for x in e if x['ph'] == 'C') > 0)")" '^10 queues True$'

# --trace is written whole or not at all: a directory is refused, an old file stays as it was
mkdir "$work/adir"
out=$("$collsim" run "$work/rings.yaml" --trace "$work/adir" -o /dev/null 2>&1); status=$?
check "--trace to a directory exits 2" "$status" '^2$'
check "--trace to a directory says so" "$out" 'adir'
echo "old" > "$work/old.json"
"$collsim" run "$work/rings.yaml" --trace "$work/nodir/t.json" -o /dev/null 2>/dev/null
check "--trace into a missing directory leaves nothing" "$(ls "$work" | grep -c '^nodir')" '^0$'
"$collsim" run "$work/rings.yaml" --trace "$work/old.json" -o /dev/null 2>/dev/null
check "--trace replaces a file whole" "$(head -c 17 "$work/old.json")" '^\{"displayTimeUnit'
check "--trace is refused by predict" "$("$collsim" predict "$work/rings.yaml" --trace "$work/t.json" 2>&1)" 'does not apply to predict'

# --links: every physical link direction of clos-16 (16 access + 8 leaf-spine links, 2 directions)
out=$("$collsim" run "$work/rings.yaml" --links --format json 2>/dev/null | "$python" -c "
import json, sys
for r in json.load(sys.stdin)['results']:
    print(len(r['links']), len(r['hot_links']), sum(l['bytes'] for l in r['links']) >= sum(l['bytes'] for l in r['hot_links']))")
check "--links: 48 link directions per row, the ten busiest among them" "$out" '^48 10 True$'
"$collsim" run "$work/rings.yaml" --links -o "$work/links.csv" 2>/dev/null
check "--links: FILE.links.csv, 48 per row" "$(wc -l < "$work/links.links.csv")" '^ *97$'

# the spread of rank finishes: a chain broadcast of 4 unsegmented messages on
# the star has rank k receive at k(alpha + M/BW); the root's send ends first
cat > "$work/chain.yaml" <<YAML
name: chain
platform: {name: star-8, kind: star, ranks: 8, alpha: 0.5us, bandwidth: 900GBps}
cases:
  - primitive: bcast
    algorithms: [ring]
    sizes: [9MB]
    segments: 1
YAML
out=$("$collsim" run "$work/chain.yaml" --format json 2>/dev/null | "$python" -c "
import json, sys
r = json.load(sys.stdin)['results'][0]
hop = 0.5e-6 + 9e6 / 900e9
print('spread', abs(r['rank_spread_s'] / (6 * hop) - 1) < 1e-9, 'p50', abs(r['latency_p50_s'] / hop - 1) < 1e-9,
      'messages', r['messages'])")
check "chain broadcast: ranks finish (N-2) hops apart, every message one hop" "$out" '^spread True p50 True messages 7$'
summary
