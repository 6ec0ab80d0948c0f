#!/bin/sh
# Command-level checks of `collsim platform` and `collsim list` against the
# seed's figures (explainer 02 App. B, 03 §1, 03 App. A).
. "${top_srcdir:-.}/tests/cli_common.sh"
platforms="$top_srcdir/platforms"
# describe PLATFORM --format json into $work/NAME.json
describe() { # platform name
    "$collsim" platform describe "$platforms/$1.yaml" --format json > "$work/$1.json"
    check "describe $1 --format json: exit 0" "$?" '^0$'
}
describe torus-8x8x8
check_close "torus 8^3 diameter (02 App. B.4: 4 + 4 + 4 links)" "$(json_field "$work/torus-8x8x8.json" diameter_links)" 12 0
check_close "torus 8^3 bisection (2N/d_max)BW = 128 x 900 GB/s" "$(json_field "$work/torus-8x8x8.json" bisection_Bps)" "2 * 512 / 8 * 900e9" 1e-9
describe mesh-4x4
check_close "mesh 4x4 diameter" "$(json_field "$work/mesh-4x4.json" diameter_links)" 6 0
describe superpod-l32
out=$("$collsim" platform describe "$platforms/superpod-l32.yaml")
check_close "SuperPOD ranks" "$(json_field "$work/superpod-l32.json" ranks)" 2304 0
check_close "SuperPOD leaves" "$(json_field "$work/superpod-l32.json" tiers/name=ib_leaf/switches)" 32 0
check_close "SuperPOD spines" "$(json_field "$work/superpod-l32.json" tiers/name=ib_spine/switches)" 16 0
check "SuperPOD per-rail counts" "$out" '8 leaves and 4 spines per rail; 72 uplinks per leaf \(18 cables'
check "SuperPOD IB alpha split" "$out" 'split: 2 NIC links x 1 us \+ 2 leaf-spine cables x 3 us'
describe clos-16
check_close "Clos-16 oversubscription s = 2" "$(json_field "$work/clos-16.json" oversubscription)" 2 0
check_close "Clos-16 leaves" "$(json_field "$work/clos-16.json" tiers/name=leaf/switches)" 4 0
check_close "Clos-16 spines" "$(json_field "$work/clos-16.json" tiers/name=spine/switches)" 2 0
check_close "Clos-16 spine tier alpha 8 us" "$(json_field "$work/clos-16.json" tiers/name=spine/alpha_s)" 8e-6 1e-9
check_close "Clos-16 spine tier BW 50 GB/s" "$(json_field "$work/clos-16.json" tiers/name=spine/bandwidth_Bps)" 50e9 1e-9
describe dgx-h100-8node
out=$("$collsim" platform describe "$platforms/dgx-h100-8node.yaml")
check_close "DGX H100 cluster: ranks" "$(json_field "$work/dgx-h100-8node.json" ranks)" 64 0
check_close "DGX H100 cluster: an NVSwitch per node" "$(json_field "$work/dgx-h100-8node.json" tiers/name=nvlink/switches)" 8 0
check_close "DGX H100 cluster: a leaf per rail" "$(json_field "$work/dgx-h100-8node.json" tiers/name=leaf/switches)" 8 0
check_close "DGX H100 cluster: NIC tier alpha 2.7 us" "$(json_field "$work/dgx-h100-8node.json" tiers/name=leaf/alpha_s)" 2.7e-6 1e-9
check_close "DGX H100 cluster: NIC tier BW from the platform's 400 Gb/s" "$(json_field "$work/dgx-h100-8node.json" tiers/name=leaf/bandwidth_Bps)" "400e9 / 8" 1e-9
check "DGX H100 cluster: nodes and rails" "$out" '^8 nodes x 8 GPUs; 8 rails'
check "DGX H100 cluster: PXN relay said" "$out" 'NCCL.s PXN'
check "DGX H100 cluster: bisection by nodes" "$out" 'NICs of half the nodes'
printf 'name: launched\nkind: star\nranks: 4\nalpha: 1us\nbandwidth: 1GBps\nlaunch: 5us\n' > "$work/launched.yaml"
check "launch described" "$("$collsim" platform describe "$work/launched.yaml")" '^launch +5 us per collective$'
"$collsim" platform describe "$work/launched.yaml" --format json > "$work/launched.json"
check_close "launch in describe JSON" "$(json_field "$work/launched.json" launch_s)" 5e-6 1e-9
printf 'name: rccl\nkind: star\nranks: 4\nalpha: 1us\nbandwidth: 64GBps\nprotocols: [ll, simple]\nll_max_bw: 39GBps\n' > "$work/rccl.yaml"
out=$("$collsim" platform describe "$work/rccl.yaml")
check "protocols described, in simple ll128 ll order" "$out" '^protocols +simple ll '
check "LL cap described" "$out" '^ll +at most 39 GB/s of bus bandwidth$'
"$collsim" platform describe "$work/rccl.yaml" --format json > "$work/rccl.json"
check "protocols in describe JSON" "$(json_field "$work/rccl.json" protocols)" '^\["simple", "ll"\]$'
check_close "LL cap in describe JSON" "$(json_field "$work/rccl.json" ll_max_bw_Bps)" 39e9 1e-9
check_close "no LL128 cap in describe JSON" "$(json_field "$work/rccl.json" ll128_max_bw_Bps)" 0 0
# alpha_spine only where a spine carries traffic: one leaf per rail (the
# shipped dgx-h100-8node) describes the same without it; a single-leaf Clos
# needs none, and its farthest route is the leaf's alpha (2 links x 0.5 us)
sed 's/, alpha_spine: 3.0us//' "$top_srcdir/platforms/dgx-h100-8node.yaml" >"$work/no-spine-alpha.yaml"
check "one leaf per rail: alpha_spine removed from the file" "$(grep -v "^#" "$work/no-spine-alpha.yaml" | grep -c alpha_spine)" '^0$'
check "one leaf per rail: described the same without alpha_spine" \
    "$("$collsim" platform describe "$work/no-spine-alpha.yaml" | cmp - "$(
        "$collsim" platform describe "$top_srcdir/platforms/dgx-h100-8node.yaml" >"$work/with-spine-alpha.txt"
        echo "$work/with-spine-alpha.txt"
    )" && echo same)" '^same$'
printf 'kind: clos\nleaves: 1\nranks_per_leaf: 8\nalpha_leaf: 1us\nbandwidth: 50GBps\n' >"$work/one-leaf.yaml"
out=$("$collsim" platform route "$work/one-leaf.yaml" 0 7 2>&1)
check "a single-leaf Clos without alpha_spine: rank 0 to 7 in 2 links" "$out" '^links 2 physical; latency 1 us;'
out=$("$collsim" list platforms)
for kind in star torus mesh full_mesh clos fat_tree nvl72_superpod rail_cluster; do check "list has $kind" "$out" "^$kind "; done
out=$("$collsim" platform xml "$platforms/clos-16.yaml")
check "xml is a SimGrid platform" "$out" '<platform version="4.1">'
check "xml links are full duplex" "$out" 'sharing_policy="SPLITDUPLEX"'
check "xml lists all 240 routes of 16 ranks" "$(printf '%s\n' "$out" | grep -c '<route ')" '^240$'

# valid XML at every size (docs/platforms.md): the declaration first, every route
# between ranks (N(N-1) of them: above 64 ranks too), collsim's network
# settings in <config>, comments without "--"
printf 'name: star--100\nkind: star\nranks: 100\nalpha: 0.5us\nbandwidth: 900GBps\n' > "$work/star100.yaml"
for routes in all ring none; do
    "$collsim" platform xml "$work/star100.yaml" --routes $routes > "$work/star100-$routes.xml"
    out=$(python3 - "$work/star100-$routes.xml" <<'EOF_PY'
import sys, xml.etree.ElementTree as tree
text = open(sys.argv[1]).read()
print("declaration first" if text.startswith("<?xml") else "NOT FIRST: " + text[:40])
root = tree.parse(sys.argv[1]).getroot()
config = {p.get("id"): p.get("value") for p in root.iter("prop")}
print("config", config.get("network/model"), config.get("network/crosstraffic"), config.get("network/TCP-gamma"))
hosts = {h.get("id") for h in root.iter("host")}
ranks = {f"r{i}" for i in range(100)}
pairs = {(r.get("src"), r.get("dst")) for r in root.iter("route")}
print("routes", len(pairs), "between ranks" if all(a in ranks and b in ranks for a, b in pairs) else "NOT between ranks")
print("hosts", len(hosts & ranks))
EOF_PY
)
    check "xml --routes $routes: the XML declaration comes first" "$out" '^declaration first$'
    check "xml --routes $routes: collsim's network settings in <config>" "$out" '^config CM02 0 0$'
    check "xml --routes $routes: the 100 ranks are hosts" "$out" '^hosts 100$'
    case $routes in
    all) expected=9900 ;;
    ring) expected=200 ;;
    none) expected=0 ;;
    esac
    check "xml --routes $routes: $expected routes" "$out" "^routes $expected "
done
out=$("$collsim" platform route "$platforms/superpod-l32.yaml" 0 2303 --size 1GB)
check "route farthest SuperPOD pair is exact" "$out" 'relative difference 0$'
"$collsim" frobnicate >/dev/null 2>&1; status=$?
check "unknown command exits 2" "$status" '^2$'
"$collsim" --help >/dev/null; status=$?
check "--help exits 0" "$status" '^0$'
summary
