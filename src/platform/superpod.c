/* superpod.c — the rail-optimized NVL72 SuperPOD (explainer 03 §1.1, §1.2,
 * App. A).  Every GPU has two fabrics:
 *   NVLink: GPU <-> its pod's NVSwitch (a star of gpus_per_pod; alpha = nvlink.alpha)
 *   IB:     GPU's NIC <-> the leaf of its rail (rail = slot in the tray,
 *           local index % rails); pods_per_leaf pods share one leaf per rail;
 *           each rail's leaves reach spines_per_rail spines over parallel
 *           cables (uplinks per leaf = NICs per leaf / s, split evenly).
 * A rail cluster's node may instead join its GPUs by a full mesh (`xgmi`,
 * AMD's MI300X: a link per GPU pair and direction, full_mesh.c's mesh per
 * node), where each NVLink hop below is that pair's one xGMI link (xgmi.alpha).
 * Rails are disjoint IB fabrics.  Routes:
 *   same pod                     NVLink: 2 links, nvlink.alpha
 *   other pod, same rail         IB: NIC -> leaf -> NIC (alpha_leaf) or
 *                                NIC -> leaf -> spine -> leaf -> NIC (alpha_spine)
 *   other pod, other rail        NVLink rail bridge: one NVLink hop to the GPU
 *                                of the source pod with the destination's local
 *                                index (so on the destination's rail, as NCCL's
 *                                PXN does), then that rail's IB path:
 *                                nvlink.alpha + alpha_leaf or alpha_spine. */
#include "platform/kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const superpod_keys[] = {"pods", "gpus_per_pod", "rails", "pods_per_leaf", "spines_per_rail",
                                     "nvlink", "ib", NULL};
const char *const rail_cluster_keys[] = {"nodes", "gpus_per_node", "nodes_per_leaf", "spines_per_rail", "nvlink",
                                         "xgmi", "network", NULL};

typedef struct superpod {
    int pods, gpus, rails, pods_per_leaf, spines, leaves_per_rail, uplinks, cables;
    bool mesh;                           /* a pod's GPUs on a full mesh (xGMI), not an NVSwitch */
    int nvlink0, nic0, uplink0;          /* first link of each family */
    int nvswitch0, leaf0, spine0;        /* first switch of each family */
} superpod;

static int pod_of(const superpod *p, int rank) { return rank / p->gpus; }
static int local_of(const superpod *p, int rank) { return rank % p->gpus; }
static int rail_of(const superpod *p, int rank) { return local_of(p, rank) % p->rails; }
static int leaf_switch(const superpod *p, int rail, int leaf) { return p->leaf0 + rail * p->leaves_per_rail + leaf; }

/* Uplink cable U (0..uplinks-1, reaching spine U / cables) of a rail's leaf;
 * under spread routing one aggregated link per leaf. */
static int uplink(const topology *t, const superpod *p, int rail, int leaf, int u)
{
    int leaf_index = rail * p->leaves_per_rail + leaf;
    return t->routing == ROUTING_SPREAD ? p->uplink0 + leaf_index : p->uplink0 + leaf_index * p->uplinks + u;
}

static int xbar(const topology *t, int switch_index) { return t->switches[switch_index].xbar_link; }

/* The rail leaf picks an uplink cable (so a spine), the spine one of its
 * cables down to the destination's leaf: forks of RC, ECMP-hashed per flow
 * unless RC chooses (spread has one fat uplink per leaf: no fork). */
static void push_ib_path(const topology *t, const superpod *p, int from, int to, int a, int b, route_choices *rc,
                         route_hop *h, int *n)
{
    int rail = rail_of(p, to), la = pod_of(p, from) / p->pods_per_leaf, lb = pod_of(p, to) / p->pods_per_leaf;
    bool spread = t->routing == ROUTING_SPREAD;
    route_push(t, h, n, p->nic0 + from, false);
    route_push(t, h, n, xbar(t, leaf_switch(p, rail, la)), false);
    if (la != lb) {
        int up = spread ? 0 : route_fork_pick(rc, *n, t->ranks + leaf_switch(p, rail, la), p->uplinks, ecmp_hash(a, b, 3));
        int spine = spread ? 0 : up / p->cables;
        route_push(t, h, n, uplink(t, p, rail, la, up), false);
        route_push(t, h, n, xbar(t, p->spine0 + rail * p->spines + spine), false);
        int cable = spread ? 0 : route_fork_pick(rc, *n, t->ranks + p->spine0 + rail * p->spines + spine, p->cables,
                                                 ecmp_hash(a, b, 4));
        route_push(t, h, n, uplink(t, p, rail, lb, spine * p->cables + cable), true);
        route_push(t, h, n, xbar(t, leaf_switch(p, rail, lb)), false);
    }
    route_push(t, h, n, p->nic0 + to, true);
}

/* Links of one pod's full mesh: a link per pair of its GPUs. */
static int mesh_links(const superpod *p) { return p->gpus * (p->gpus - 1) / 2; }

/* One hop inside a pod, A -> B: GPU -> NVSwitch -> GPU, or the pair's xGMI link. */
static void push_pod_hop(const topology *t, const superpod *p, int a, int b, route_hop *h, int *n)
{
    if (p->mesh) {
        full_mesh_push_hop(t, p->nvlink0 + pod_of(p, a) * mesh_links(p), p->gpus, local_of(p, a), local_of(p, b), h, n);
        return;
    }
    route_push(t, h, n, p->nvlink0 + a, false);
    route_push(t, h, n, xbar(t, p->nvswitch0 + pod_of(p, a)), false);
    route_push(t, h, n, p->nvlink0 + b, true);
}

static int rank_to_rank(const topology *t, const superpod *p, int a, int b, route_choices *rc, route_hop *h)
{
    int n = 0, pa = pod_of(p, a);
    int relay = pa == pod_of(p, b) ? b : rail_of(p, a) == rail_of(p, b) ? a : pa * p->gpus + local_of(p, b);
    if (relay != a) push_pod_hop(t, p, a, relay, h, &n);
    if (relay != b) push_ib_path(t, p, relay, b, a, b, rc, h, &n);
    return n;
}

/* In-network legs: GPU <-> its NVSwitch, GPU <-> its rail leaf, leaf <-> spine of its rail. */
static int switch_leg(const topology *t, const superpod *p, int lower, int upper, bool downward, route_hop *h)
{
    int s = upper - t->ranks;
    const topo_switch *sw = &t->switches[s];
    if (lower < t->ranks) {
        if (!p->mesh && s == p->nvswitch0 + pod_of(p, lower))
            return route_switch_leg(t, h, p->nvlink0 + lower, sw->port_link, downward);
        if (s == leaf_switch(p, rail_of(p, lower), pod_of(p, lower) / p->pods_per_leaf))
            return route_switch_leg(t, h, p->nic0 + lower, sw->port_link, downward);
        return -1;
    }
    int leaf = lower - t->ranks - p->leaf0, spine = s - p->spine0;
    if (leaf < 0 || leaf >= p->rails * p->leaves_per_rail || spine < 0 || spine >= p->rails * p->spines) return -1;
    int rail = leaf / p->leaves_per_rail;
    if (spine / p->spines != rail) return -1;
    int cable = (spine % p->spines) * p->cables + (int)(ecmp_hash(lower, upper, 5) % (unsigned)p->cables);
    return route_switch_leg(t, h, uplink(t, p, rail, leaf % p->leaves_per_rail, cable), sw->port_link, downward);
}

/* Aggregation trees, two planes: plane 0 is GPU -> its pod's NVSwitch (NVLS,
 * a group inside one pod; none on an xGMI mesh); plane 1, with more than one
 * pod, GPU -> its rail leaf -> spine 0 of the rail (IB SHARP).  Rails share
 * no switch, so a group spanning rails in several pods has no common root on
 * either plane. */
static int superpod_inc_parent(const topology *t, int node, int plane)
{
    const superpod *p = t->kind_data;
    int s = node - t->ranks;
    if (node < t->ranks && plane == 0 && p->mesh) return -1;
    if (node < t->ranks)
        return t->ranks + (plane == 0 ? p->nvswitch0 + pod_of(p, node)
                                      : leaf_switch(p, rail_of(p, node), pod_of(p, node) / p->pods_per_leaf));
    if (plane == 1 && p->leaves_per_rail > 1 && s >= p->leaf0 && s < p->leaf0 + p->rails * p->leaves_per_rail)
        return t->ranks + p->spine0 + (s - p->leaf0) / p->leaves_per_rail * p->spines;
    return -1;
}

static int superpod_multipath(const topology *t, int src, int dst, route_choices *rc, route_hop *hops)
{
    const superpod *p = t->kind_data;
    if (src < t->ranks && dst < t->ranks) return rank_to_rank(t, p, src, dst, rc, hops);
    return src < dst ? switch_leg(t, p, src, dst, false, hops) : switch_leg(t, p, dst, src, true, hops);
}

static int superpod_route(const topology *t, int src, int dst, route_hop *hops)
{
    return superpod_multipath(t, src, dst, NULL, hops);
}

/* Which nodes each link joins (spread routing's aggregated uplinks reach the
 * whole spine tier: -1). */
static void set_link_ends(topology *t, const superpod *p)
{
    bool spread = t->routing == ROUTING_SPREAD;
    for (int i = 0; i < t->ranks; i++) {
        if (!p->mesh) topology_set_link_ends(t, p->nvlink0 + i, i, t->ranks + p->nvswitch0 + pod_of(p, i));
        topology_set_link_ends(t, p->nic0 + i, i, t->ranks + leaf_switch(p, rail_of(p, i), pod_of(p, i) / p->pods_per_leaf));
    }
    for (int rail = 0; p->leaves_per_rail > 1 && rail < p->rails; rail++)
        for (int leaf = 0; leaf < p->leaves_per_rail; leaf++)
            for (int u = 0; u < (spread ? 1 : p->uplinks); u++)
                topology_set_link_ends(t, uplink(t, p, rail, leaf, u), t->ranks + leaf_switch(p, rail, leaf),
                                       spread ? -1 : t->ranks + p->spine0 + rail * p->spines + u / p->cables);
}

/* The key and tier names of one rail-optimized kind: the NVL72 SuperPOD
 * (explainer 03) or the DGX/HGX-style GPU cluster (rail_cluster.c). */
typedef struct rail_names {
    const char *pods, *gpus, *rails, *per_leaf, *spines; /* rails NULL: one rail per GPU of a node */
    const char *gpu_fabric, *mesh_fabric, *network, *leaf_tier, *spine_tier; /* mesh_fabric NULL: NVSwitch only */
    const char *pod_word;
} rail_names;

static const rail_names superpod_names = {"pods", "gpus_per_pod", "rails", "pods_per_leaf", "spines_per_rail",
                                          "nvlink", NULL, "ib", "ib_leaf", "ib_spine", "pod"};
static const rail_names cluster_names = {"nodes", "gpus_per_node", NULL, "nodes_per_leaf", "spines_per_rail",
                                         "nvlink", "xgmi", "network", "leaf", "spine", "node"};

/* The fabric inside a pod: `nvlink`, an NVSwitch star, or (where the kind
 * has one) `xgmi`, a full mesh of links of BW each; exactly one of them.
 * *MESH says which. */
static bool read_pod_fabric(platform_reader *r, const rail_names *k, topo_tier *tier, bool *mesh)
{
    static const char *const nvlink_keys[] = {"alpha", "bandwidth", "alpha_switch", "inc", "efficiency", "overhead", NULL};
    static const char *const xgmi_keys[] = {"alpha", "bandwidth", "inc", "efficiency", "overhead", NULL};
    ynode *xgmi = k->mesh_fabric ? yaml_map_get(r->tree, r->root, k->mesh_fabric) : NULL;
    ynode *nv = yaml_map_get(r->tree, r->root, k->gpu_fabric);
    if (xgmi && nv)
        return platform_error_at(r, r->root, k->mesh_fabric, "'%s' and '%s' both describe the fabric inside a %s: "
                                 "keep one ('%s': an NVSwitch, '%s': a full mesh of links)", k->gpu_fabric,
                                 k->mesh_fabric, k->pod_word, k->gpu_fabric, k->mesh_fabric);
    if (!xgmi && !nv && k->mesh_fabric)
        return platform_error_at(r, r->root, NULL, "missing key '%s' or '%s': the fabric joining a %s's GPUs "
                                 "('%s': an NVSwitch, '%s': a full mesh of links)", k->gpu_fabric, k->mesh_fabric,
                                 k->pod_word, k->gpu_fabric, k->mesh_fabric);
    *mesh = xgmi != NULL;
    ynode *map = *mesh ? xgmi : yaml_map_require(r->tree, r->root, k->gpu_fabric, r->d);
    if (!map || !yaml_expect_mapping(r->tree, map, *mesh ? "'xgmi'" : "'nvlink'", r->d) ||
        !yaml_map_check_keys(r->tree, map, *mesh ? xgmi_keys : nvlink_keys, r->d) || !read_tier(r, map, "alpha", !*mesh, tier))
        return false;
    snprintf(tier->name, sizeof tier->name, "%s", *mesh ? k->mesh_fabric : k->gpu_fabric);
    if (*mesh)
        snprintf(tier->hop, sizeof tier->hop, "GPU -> GPU over their xGMI link in one %s (1 link)", k->pod_word);
    else
        snprintf(tier->hop, sizeof tier->hop, "GPU -> NVSwitch -> GPU in one %s (2 links)", k->pod_word);
    return true;
}

/* The GPU fabric and the network's tiers; the network's mapping in *IB, and
 * whether it gives alpha_spine (needed only where a rail has spines, which
 * read_shape tells) in *SPINE_GIVEN. */
static bool read_fabrics(platform_reader *r, const rail_names *k, topo_tier *nvlink, bool *mesh, topo_tier *ib_leaf,
                         topo_tier *ib_spine, double *s, ynode **ib_node, bool *spine_given)
{
    static const char *const ib_keys[] = {"alpha_leaf", "alpha_spine", "bandwidth", "oversubscription", "alpha_switch",
                                          "inc", "efficiency", "overhead", NULL};
    if (!read_pod_fabric(r, k, nvlink, mesh)) return false;
    ynode *ib = yaml_map_require(r->tree, r->root, k->network, r->d);
    if (!ib || !yaml_expect_mapping(r->tree, ib, k->network, r->d) || !yaml_map_check_keys(r->tree, ib, ib_keys, r->d) ||
        !read_tier(r, ib, "alpha_leaf", true, ib_leaf))
        return false;
    *ib_spine = *ib_leaf;
    *ib_node = ib;
    ynode *alpha = yaml_map_get(r->tree, ib, "alpha_spine");
    *spine_given = alpha != NULL;
    if (alpha && !yaml_read_quantity(r->tree, alpha, "alpha_spine", UNIT_TIME, false, &ib_spine->alpha_s, r->d)) return false;
    *s = 1;
    ynode *os = yaml_map_get(r->tree, ib, "oversubscription");
    if (os && !yaml_read_positive_number(r->tree, os, "oversubscription", s, r->d)) return false;
    if (*s < 1) return yaml_error(r->tree, os, r->d, "'oversubscription' must be >= 1 (explainer 03 §1)");
    snprintf(ib_leaf->name, sizeof ib_leaf->name, "%s", k->leaf_tier);
    snprintf(ib_leaf->hop, sizeof ib_leaf->hop, "NIC -> rail leaf -> NIC, %ss sharing a leaf (2 links)", k->pod_word);
    snprintf(ib_spine->name, sizeof ib_spine->name, "%s", k->spine_tier);
    snprintf(ib_spine->hop, sizeof ib_spine->hop, "NIC -> leaf -> spine -> leaf -> NIC on one rail (4 links)");
    return true;
}

/* The counts of P (its pod fabric, P->mesh, already read), checked against
 * collsim's limits with S the network's oversubscription. */
static bool read_shape(platform_reader *r, const rail_names *k, superpod *p, double s)
{
    int pods, gpus, rails, per_leaf, spines = 0;
    if (!read_count(r, r->root, k->pods, 1, TOPO_MAX_RANKS, &pods) ||
        !read_count(r, r->root, k->gpus, 1, TOPO_MAX_RANKS, &gpus))
        return false;
    if (k->rails ? !read_count(r, r->root, k->rails, 1, TOPO_MAX_RANKS, &rails) : (rails = gpus, false)) return false;
    per_leaf = pods; /* default: one leaf per rail (one scalable unit) */
    if (yaml_map_get(r->tree, r->root, k->per_leaf) && !read_count(r, r->root, k->per_leaf, 1, TOPO_MAX_RANKS, &per_leaf))
        return false;
    if (yaml_map_get(r->tree, r->root, k->spines) && !read_count(r, r->root, k->spines, 1, TOPO_MAX_SWITCHES, &spines))
        return false;
    if (gpus % rails)
        return platform_error_at(r, r->root, "rails", "gpus_per_pod (%d) must split evenly over %d rails (one NIC slot per "
                                 "rail in each tray, explainer 03 App. A.1)", gpus, rails);
    if (pods % per_leaf)
        return platform_error_at(r, r->root, k->pods, "%d %ss do not fill leaves of %d %ss each: make %s a multiple of "
                                 "%s (explainer 03 App. A.2)", pods, k->pod_word, per_leaf, k->pod_word, k->pods, k->per_leaf);
    double ranks = (double)pods * gpus, leaves = (double)rails * (pods / per_leaf);
    double nics_per_leaf = (double)per_leaf * gpus / rails, uplinks = nics_per_leaf / s;
    double cables = leaves > rails ? leaves * uplinks : 0;
    double nvswitches = p->mesh ? 0 : pods, pod_links = p->mesh ? ranks * (gpus - 1) / 2 : ranks;
    if (!platform_size_allowed(r, ranks, nvswitches + leaves + (double)rails * spines,
                               pod_links + ranks + cables + 2 * (nvswitches + leaves)))
        return false;
    p->pods = pods;
    p->gpus = gpus;
    p->rails = rails;
    p->pods_per_leaf = per_leaf;
    p->spines = spines;
    p->leaves_per_rail = pods / per_leaf;
    if (p->leaves_per_rail > 1) {
        if (spines == 0)
            return platform_error_at(r, r->root, NULL, "missing key '%s': %d leaves per rail need spines", k->spines,
                                     p->leaves_per_rail);
        if (uplinks != floor(uplinks) || fmod(uplinks, spines) != 0)
            return platform_error_at(r, r->root, k->spines, "a leaf's %.6g uplinks (%.0f NICs / s) must split evenly over "
                                     "%d spines (explainer 03 App. A.3)", uplinks, nics_per_leaf, spines);
        p->uplinks = (int)uplinks;
        p->cables = (int)(uplinks / spines);
    }
    return true;
}

/* Diameter, bisection and describe's notes of the built fabric P. */
static void describe_rail_fabric(topology *t, const superpod *p, const rail_names *k, const topo_tier *pod_tier,
                                 const topo_tier *ib_leaf)
{
    bool has_spines = p->leaves_per_rail > 1;
    int ib_links = has_spines ? 4 : 2, pod_links = p->mesh ? 1 : 2, half = p->gpus / 2;
    t->diameter_links = p->pods == 1 ? pod_links : (p->rails > 1 ? pod_links : 0) + ib_links;
    t->route_hops_max = 10; /* NVLink bridge (3) and the IB path: 4 links, 3 crossbars */
    if (p->pods == 1 && p->mesh) {
        t->bisection_Bps = (double)half * (p->gpus - half) * pod_tier->bandwidth_Bps;
        snprintf(t->bisection_cut, sizeof t->bisection_cut, "one %s: %d x %d xGMI links between the halves", k->pod_word,
                 half, p->gpus - half);
    } else if (p->pods == 1) {
        t->bisection_Bps = (double)half * pod_tier->bandwidth_Bps;
        snprintf(t->bisection_cut, sizeof t->bisection_cut, "one %s: %d NVLink links", k->pod_word, half);
    } else if (has_spines) {
        t->bisection_Bps = (double)(p->leaves_per_rail / 2) * p->rails * p->uplinks * ib_leaf->bandwidth_Bps;
        snprintf(t->bisection_cut, sizeof t->bisection_cut, "leaf uplinks of half the %ss on every rail (N*BW_ib/(2s))",
                 k->pod_word);
    } else {
        t->bisection_Bps = (double)(t->ranks / 2) * ib_leaf->bandwidth_Bps;
        snprintf(t->bisection_cut, sizeof t->bisection_cut, "NICs of half the %ss (one leaf per rail)", k->pod_word);
    }
    int length = snprintf(t->notes, sizeof t->notes, "%d %ss x %d GPUs; %d rails; %d %ss per rail leaf; ", p->pods,
                          k->pod_word, p->gpus, p->rails, p->pods_per_leaf, k->pod_word);
    if (has_spines)
        snprintf(t->notes + length, sizeof t->notes - (size_t)length,
                 "%d leaves and %d spines per rail; %d uplinks per leaf (%d cables per leaf-spine pair)", p->leaves_per_rail,
                 p->spines, p->uplinks, p->cables);
    else
        snprintf(t->notes + length, sizeof t->notes - (size_t)length, "one leaf per rail: no spine tier is used");
    length = (int)strlen(t->notes);
    snprintf(t->notes + length, sizeof t->notes - (size_t)length,
             "\ncross-rail traffic: one %s hop to the source %s's GPU with the destination's local index, "
             "then the destination rail's network path (NCCL's PXN)", p->mesh ? "xGMI" : "NVLink", k->pod_word);
}

static bool build_rail_fabric(platform_reader *r, const rail_names *k, topology *t)
{
    topo_tier nvlink = {0}, ib_leaf = {0}, ib_spine = {0};
    double s;
    superpod shape = {0};
    ynode *ib = NULL;
    bool spine_given = false;
    if (!read_fabrics(r, k, &nvlink, &shape.mesh, &ib_leaf, &ib_spine, &s, &ib, &spine_given) ||
        !read_shape(r, k, &shape, s))
        return false;
    switch_split nv_split = split_switched_hop(nvlink.alpha_s, nvlink.alpha_switch_s, nvlink.inc != 0);
    switch_split leaf_split = split_switched_hop(ib_leaf.alpha_s, ib_leaf.alpha_switch_s, ib_leaf.inc != 0);
    switch_split spine_split = {0};
    double spine_link_s = 0;
    bool has_spines = shape.leaves_per_rail > 1;
    if (has_spines && !spine_given)
        return yaml_error(r->tree, ib, r->d, "missing key 'alpha_spine': %d leaves per rail reach each other through "
                          "spines (one leaf per rail needs none)", shape.leaves_per_rail);
    if (has_spines && !split_uplink(r, &ib_leaf, &ib_spine, ib_leaf.alpha_s + leaf_split.xbar_s, &spine_link_s, &spine_split))
        return false;
    if (shape.mesh)
        snprintf(nvlink.split, sizeof nvlink.split, "1 xGMI link x %.6g us", nvlink.alpha_s * 1e6);
    else
        snprintf(nvlink.split, sizeof nvlink.split, "2 NVLink links x %.6g us%s", nv_split.access_s * 1e6,
                 nv_split.xbar_s > 0 ? " + NVSwitch crossbar" : "");
    snprintf(ib_leaf.split, sizeof ib_leaf.split, "2 NIC links x %.6g us%s", leaf_split.access_s * 1e6,
             leaf_split.xbar_s > 0 ? " + leaf crossbar" : "");
    snprintf(ib_spine.split, sizeof ib_spine.split, "2 NIC links x %.6g us + 2 leaf-spine cables x %.6g us",
             leaf_split.access_s * 1e6, spine_link_s * 1e6);
    ib_leaf.network = ib_spine.network = true;
    topology_add_tier(t, &nvlink);
    topology_add_tier(t, &ib_leaf);
    if (has_spines) topology_add_tier(t, &ib_spine);

    superpod *p = malloc(sizeof *p);
    *p = shape;
    t->kind_data = p;
    t->ranks = p->pods * p->gpus;
    char name[48];
    p->nvlink0 = t->link_count;
    for (int pod = 0; p->mesh && pod < p->pods; pod++) full_mesh_add_links(t, pod * p->gpus, p->gpus, &nvlink);
    for (int i = 0; !p->mesh && i < t->ranks; i++) {
        topology_format_name(name, sizeof name, "r%d_nvlink", i);
        topology_add_link(t, name, nvlink.bandwidth_Bps * nvlink.efficiency, nv_split.access_s, 0);
    }
    p->nic0 = t->link_count;
    for (int i = 0; i < t->ranks; i++) {
        topology_format_name(name, sizeof name, "r%d_nic", i);
        topology_add_link(t, name, ib_leaf.bandwidth_Bps * ib_leaf.efficiency, leaf_split.access_s, 1);
    }
    p->uplink0 = t->link_count;
    for (int rail = 0; has_spines && rail < p->rails; rail++)
        for (int leaf = 0; leaf < p->leaves_per_rail; leaf++) {
            if (t->routing == ROUTING_SPREAD) {
                topology_format_name(name, sizeof name, "rail%d_leaf%d_up", rail, leaf);
                topology_add_link(t, name, p->uplinks * ib_leaf.bandwidth_Bps * ib_leaf.efficiency, spine_link_s, 2);
                continue;
            }
            for (int u = 0; u < p->uplinks; u++) {
                topology_format_name(name, sizeof name, "rail%d_leaf%d_spine%d_c%d", rail, leaf, u / p->cables, u % p->cables);
                topology_add_link(t, name, ib_leaf.bandwidth_Bps * ib_leaf.efficiency, spine_link_s, 2);
            }
        }
    p->nvswitch0 = t->switch_count;
    for (int pod = 0; !p->mesh && pod < p->pods; pod++) {
        topology_format_name(name, sizeof name, "nvswitch%d", pod);
        switch_attach_delays(t, topology_add_switch(t, name, 0, nvlink.inc), &nv_split);
    }
    p->leaf0 = t->switch_count;
    for (int rail = 0; rail < p->rails; rail++)
        for (int leaf = 0; leaf < p->leaves_per_rail; leaf++) {
            topology_format_name(name, sizeof name, "rail%d_leaf%d", rail, leaf);
            switch_attach_delays(t, topology_add_switch(t, name, 1, ib_leaf.inc), &leaf_split);
        }
    p->spine0 = t->switch_count;
    for (int rail = 0; has_spines && rail < p->rails; rail++)
        for (int j = 0; j < p->spines; j++) {
            topology_format_name(name, sizeof name, "rail%d_spine%d", rail, j);
            switch_attach_delays(t, topology_add_switch(t, name, 2, ib_spine.inc), &spine_split);
        }
    set_link_ends(t, p);
    t->route = superpod_route;
    t->multipath = superpod_multipath;
    t->inc_parent = superpod_inc_parent;
    t->inc_planes = p->pods > 1 ? 2 : 1;
    t->oversubscription = s;
    t->domain_ranks = p->gpus;
    t->rails = p->rails;
    t->mesh_ranks = p->mesh ? p->gpus : 0;
    describe_rail_fabric(t, p, k, &nvlink, &ib_leaf);
    return true;
}

bool build_superpod(platform_reader *r, topology *t)
{
    return build_rail_fabric(r, &superpod_names, t);
}

/* The DGX/HGX-style cluster: nodes of gpus_per_node GPUs on one NVSwitch
 * (`nvlink`) or, as AMD's MI300X platform, on a full mesh of xGMI links
 * (`xgmi`), one NIC per GPU on the rail of its local index, one leaf per rail per
 * scalable unit of nodes_per_leaf nodes, spines_per_rail spines per rail
 * shared by the units (NVIDIA DGX SuperPOD reference architecture).  The
 * same fabric as the SuperPOD with a pod of one node and a rail per GPU. */
bool build_rail_cluster(platform_reader *r, topology *t)
{
    return build_rail_fabric(r, &cluster_names, t);
}
