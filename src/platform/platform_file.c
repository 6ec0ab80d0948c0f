/* platform_file.c — the platform YAML reader: common keys, tier parameters,
 * dispatch to the kind builders, and the kind registry. */
#include "platform/platform.h"
#include "platform/kinds.h"
#include "platform/library.h"
#include "sched/schedule.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const platform_kind kinds[] = {
    {"star", "N ranks around one switch; any-to-any in one hop (alpha = rank->switch->rank)",
     "explainer 02 §1.1, §2", star_keys, build_star},
    {"torus", "k-D lattice with wraparound (dims: [8, 8, 8]); alpha per neighbour link",
     "explainer 02 §1.2, §3; torus A2A note", lattice_keys, build_torus},
    {"mesh", "k-D lattice without wraparound (dims: [4, 4]); alpha per neighbour link",
     "explainer 02 §1.3, §4.2", lattice_keys, build_mesh},
    {"full_mesh", "a direct link between every pair of ranks; alpha per link",
     "explainer 02 §1.3, §4.1", full_mesh_keys, build_full_mesh},
    {"clos", "leaf-spine Clos with oversubscription s, optional super-spine tier",
     "explainer 03 §1", clos_keys, build_clos},
    {"fat_tree", "Al-Fares k-ary fat-tree: k pods, (k/2)^2 cores, k^3/4 ranks, s = 1",
     "explainer 03 App. B", fat_tree_keys, build_fat_tree},
    {"nvl72_superpod", "NVL72 pods on NVLink, rail-optimized IB leaf-spine per rail, NVLink rail bridge",
     "explainer 03 §1.1, §1.2, App. A", superpod_keys, build_superpod},
    {"rail_cluster", "GPU nodes (an NVSwitch, or an xGMI full mesh, inside), one NIC per GPU, a leaf per rail per unit, shared spines",
     "explainer 03 §1.1 (rail-optimized), App. A", rail_cluster_keys, build_rail_cluster},
};

const platform_kind *platform_kinds(int *count)
{
    *count = (int)(sizeof kinds / sizeof kinds[0]);
    return kinds;
}

bool platform_error_at(platform_reader *r, ynode *map, const char *key, const char *fmt, ...)
{
    char message[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    ynode *node = key ? yaml_map_get(r->tree, map, key) : NULL;
    return yaml_error(r->tree, node ? node : map, r->d, "%s", message);
}

bool read_count(platform_reader *r, ynode *map, const char *key, long min, long max, int *out)
{
    ynode *node = yaml_map_require(r->tree, map, key, r->d);
    return node && yaml_read_int(r->tree, node, key, min, max, out, r->d);
}

bool platform_size_allowed(platform_reader *r, double ranks, double switches, double links)
{
    const char *what = NULL;
    double count = 0, limit = 0;
    if (ranks > TOPO_MAX_RANKS) what = "ranks", count = ranks, limit = TOPO_MAX_RANKS;
    else if (switches > TOPO_MAX_SWITCHES) what = "switches", count = switches, limit = TOPO_MAX_SWITCHES;
    else if (links > TOPO_MAX_LINKS) what = "links", count = links, limit = TOPO_MAX_LINKS;
    if (!what) return true;
    return platform_error_at(r, r->root, NULL, "this platform would have %.0f %s; collsim builds at most %.0f "
                             "(docs/reliability.md): make it smaller", count, what, limit);
}

bool read_inc_list(platform_reader *r, ynode *node, unsigned *mask)
{
    int n = yaml_read_list(r->tree, node, "inc", "[reduce, multicast] (drawn from reduce, multicast, a2a)", r->d);
    if (n < 0) return false;
    *mask = 0;
    for (int i = 0; i < n; i++) {
        ynode *item = yaml_sequence_item(r->tree, node, i);
        const char *text = NULL;
        if (!yaml_read_string(r->tree, item, "inc", &text, r->d)) return false;
        if (strcmp(text, "reduce") == 0) *mask |= INC_REDUCE;
        else if (strcmp(text, "multicast") == 0) *mask |= INC_MULTICAST;
        else if (strcmp(text, "a2a") == 0) *mask |= INC_A2A;
        else return yaml_error(r->tree, item, r->d, "unknown inc capability '%s': expected reduce, multicast or a2a", text);
    }
    return true;
}

bool read_tier(platform_reader *r, ynode *map, const char *alpha_key, bool inc_allowed, topo_tier *tier)
{
    yaml_tree *tr = r->tree;
    ynode *node;
    if (!(node = yaml_map_require(tr, map, alpha_key, r->d))) return false;
    if (!yaml_read_quantity(tr, node, alpha_key, UNIT_TIME, false, &tier->alpha_s, r->d)) return false;
    if (!(node = yaml_map_require(tr, map, "bandwidth", r->d))) return false;
    if (!yaml_read_quantity(tr, node, "bandwidth", UNIT_BANDWIDTH, false, &tier->bandwidth_Bps, r->d)) return false;
    tier->efficiency = 1.0;
    if ((node = yaml_map_get(tr, map, "efficiency"))) {
        if (!yaml_read_positive_number(tr, node, "efficiency", &tier->efficiency, r->d)) return false;
        if (tier->efficiency > 1.0)
            return yaml_error(tr, node, r->d, "'efficiency' is a fraction of the link bandwidth: expected 0 < efficiency <= 1");
    }
    if ((node = yaml_map_get(tr, map, "overhead")) &&
        !yaml_read_quantity(tr, node, "overhead", UNIT_TIME, true, &tier->overhead_s, r->d))
        return false;
    if ((node = yaml_map_get(tr, map, "alpha_switch")) &&
        !yaml_read_quantity(tr, node, "alpha_switch", UNIT_TIME, false, &tier->alpha_switch_s, r->d))
        return false;
    if ((node = yaml_map_get(tr, map, "inc"))) {
        if (!inc_allowed)
            return yaml_error(tr, node, r->d,
                              "'inc' needs a switch: this fabric is direct-wired, so in-network collectives "
                              "are unavailable (explainer 02 §5.1); remove the key");
        if (!read_inc_list(r, node, &tier->inc)) return false;
        if (tier->inc && tier->alpha_switch_s == 0)
            return yaml_error(tr, node, r->d, "'inc' needs 'alpha_switch', the latency of one rank<->switch leg (explainer 04 §1.1)");
    }
    return true;
}

switch_split split_switched_hop(double alpha_s, double alpha_switch_s, bool inc)
{
    switch_split s;
    s.access_s = alpha_s / 2;
    if (inc && alpha_switch_s < s.access_s) s.access_s = alpha_switch_s;
    s.xbar_s = alpha_s - 2 * s.access_s;
    s.port_s = inc ? alpha_switch_s - s.access_s : 0;
    return s;
}

bool split_uplink(platform_reader *r, const topo_tier *lower, const topo_tier *tier, double spent_s,
                  double *link_s, switch_split *split)
{
    double natural = (tier->alpha_s - spent_s) / 2;
    if (natural < 0)
        return platform_error_at(r, r->root, NULL,
                                 "%s alpha (%.6g us) is smaller than the %s path under it (%.6g us): "
                                 "a longer route cannot be faster",
                                 tier->name, tier->alpha_s * 1e6, lower->name, spent_s * 1e6);
    *link_s = natural;
    memset(split, 0, sizeof *split);
    if (tier->inc && tier->alpha_switch_s < natural) *link_s = tier->alpha_switch_s;
    split->xbar_s = 2 * (natural - *link_s);
    split->port_s = tier->inc ? tier->alpha_switch_s - *link_s : 0;
    return true;
}

void switch_attach_delays(topology *t, int s, const switch_split *split)
{
    char name[64];
    topo_switch *sw = &t->switches[s];
    if (split->xbar_s > 0) {
        topology_format_name(name, sizeof name, "%s_xbar", sw->name);
        t->switches[s].xbar_link = topology_add_latency_link(t, name, split->xbar_s, sw->tier);
    }
    if (split->port_s > 0) {
        topology_format_name(name, sizeof name, "%s_port", t->switches[s].name);
        t->switches[s].port_link = topology_add_latency_link(t, name, split->port_s, t->switches[s].tier);
    }
}

/* One group's protocols, the keys of NODE (besides EXTRA's): simple, ll128, ll, each {from, up_to,
 * launch, overhead, efficiency}: what collsim calibrate fitted (docs/model.md); its efficiency is against
 * the tiers' rate as the links run it (their own `efficiency` applied, which calibrate leaves as it is). */
static bool read_calibrated_protocols(yaml_tree *tree, ynode *node, const char *const *allowed, calibrated_group *g,
                                      diag *d)
{
    static const char *const protocols[] = {"simple", "ll128", "ll"};
    static const char *const keys[] = {"from", "up_to", "launch", "overhead", "efficiency", "channels", NULL};
    if (!yaml_map_check_keys(tree, node, allowed, d)) return false;
    bool any = false;
    for (int p = 0; p < 3; p++) {
        ynode *entry = yaml_map_get(tree, node, protocols[p]), *v;
        if (!entry) continue;
        calibrated_protocol *c = &g->protocols[p];
        if (!yaml_expect_mapping(tree, entry, "a calibrated protocol {from, up_to, launch, overhead, efficiency}", d) ||
            !yaml_map_check_keys(tree, entry, keys, d))
            return false;
        if (!(v = yaml_map_require(tree, entry, "efficiency", d)) ||
            !yaml_read_positive_number(tree, v, "efficiency", &c->efficiency, d))
            return false;
        const struct {
            const char *key;
            unit_kind unit;
            double *value;
        } quantities[] = {{"from", UNIT_SIZE, &c->from_bytes}, {"up_to", UNIT_SIZE, &c->up_to_bytes},
                          {"launch", UNIT_TIME, &c->launch_s}, {"overhead", UNIT_TIME, &c->overhead_s}};
        for (size_t q = 0; q < sizeof quantities / sizeof *quantities; q++)
            if ((v = yaml_map_get(tree, entry, quantities[q].key)) &&
                !yaml_read_quantity(tree, v, quantities[q].key, quantities[q].unit, true, quantities[q].value, d))
                return false;
        if ((v = yaml_map_get(tree, entry, "channels")) &&
            !yaml_read_int(tree, v, "channels", 1, SCHED_MAX_CHANNELS, &c->channels, d))
            return false;
        if (c->up_to_bytes > 0 && c->from_bytes > c->up_to_bytes)
            return yaml_error(tree, entry, d, "'from' is above 'up_to': the sizes a protocol was measured at run from one to the other");
        for (int q = 0; q < p; q++) { /* two protocols measured over the same sizes: one log cannot give both */
            const calibrated_protocol *o = &g->protocols[q];
            bool overlap = o->set && (o->up_to_bytes == 0 || c->from_bytes <= o->up_to_bytes) &&
                           (c->up_to_bytes == 0 || o->from_bytes <= c->up_to_bytes) &&
                           (o->from_bytes > 0 || o->up_to_bytes > 0) && (c->from_bytes > 0 || c->up_to_bytes > 0);
            if (overlap)
                return yaml_error(tree, entry, d, "'%s' overlaps '%s' in sizes: a calibrated group's protocols were "
                                  "measured over disjoint ranges (from .. up_to); fix the ranges or calibrate again",
                                  protocols[p], protocols[q]);
        }
        c->set = any = true;
    }
    if (!any) return yaml_error(tree, node, d, "a calibrated group needs at least one of simple, ll128, ll: {from, up_to, launch, overhead, efficiency}");
    return true;
}

/* The keys of a group besides its protocols: `algorithm` (the family measured: ring, tree or nvls) and
 * `chosen` (library: the log named no algorithm). */
static bool read_calibrated_algorithm(yaml_tree *tree, ynode *item, calibrated_group *g, diag *d)
{
    ynode *v;
    const char *name = NULL;
    g->family = -1;
    if ((v = yaml_map_get(tree, item, "algorithm"))) {
        if (!yaml_read_string(tree, v, "algorithm", &name, d)) return false;
        if ((g->family = algorithm_family_from_name(name)) < 0)
            return yaml_error(tree, v, d, "unknown algorithm family '%s' in a calibrated group: expected ring, tree or nvls", name);
    }
    if ((v = yaml_map_get(tree, item, "chosen"))) {
        if (!yaml_read_string(tree, v, "chosen", &name, d)) return false;
        if (strcmp(name, "library") != 0 && strcmp(name, "named") != 0)
            return yaml_error(tree, v, d, "unknown 'chosen: %s': expected library (the log named no algorithm) or named", name);
        g->library_choice = strcmp(name, "library") == 0;
    }
    return true;
}

/* One item of the list form: {primitive, tier, algorithm, chosen, simple, ll128, ll}; PRIMITIVE
 * and TIER absent: every one. */
static bool read_calibrated_group(yaml_tree *tree, ynode *item, topology *t, calibrated_group *g, diag *d)
{
    static const char *const allowed[] = {"primitive", "tier", "algorithm", "chosen", "simple", "ll128", "ll", NULL};
    if (!yaml_expect_mapping(tree, item, "a calibrated group {primitive, tier, algorithm, simple, ll128, ll}", d)) return false;
    ynode *v;
    g->prim = g->tier = -1;
    g->line = (int)item->start_mark.line + 1;
    g->column = (int)item->start_mark.column + 1;
    if ((v = yaml_map_get(tree, item, "primitive"))) {
        const char *name = NULL;
        primitive p;
        if (!yaml_read_string(tree, v, "primitive", &name, d)) return false;
        if (!primitive_from_name(name, &p))
            return yaml_error(tree, v, d, "unknown primitive '%s' in a calibrated group: expected bcast, reduce, allreduce, "
                              "allgather, reducescatter, alltoall, sendrecv or permutation", name);
        g->prim = (int)p;
    }
    if ((v = yaml_map_get(tree, item, "tier"))) {
        if (!yaml_read_int(tree, v, "tier", 0, TOPO_MAX_TIERS, &g->tier, d)) return false;
        if (g->tier >= t->tier_count && t->tier_count == 1)
            return yaml_error(tree, v, d, "tier %d: this platform has one tier, 0 (%s)", g->tier, t->tiers[0].name);
        if (g->tier >= t->tier_count)
            return yaml_error(tree, v, d, "tier %d: this platform's tiers are 0 (%s) to %d (%s), as platform describe lists them",
                              g->tier, t->tiers[0].name, t->tier_count - 1, t->tiers[t->tier_count - 1].name);
    }
    return read_calibrated_algorithm(tree, item, g, d) && read_calibrated_protocols(tree, item, allowed, g, d);
}

/* Whether the library-chosen groups G and H (same primitive and tier) claim the same sizes: the library
 * chose one algorithm at each size, so two cannot both be its choice there. */
static bool choices_overlap(const calibrated_group *g, const calibrated_group *h)
{
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++) {
            const calibrated_protocol *a = &g->protocols[p], *b = &h->protocols[q];
            if (a->set && b->set && (a->up_to_bytes == 0 || b->from_bytes <= a->up_to_bytes) &&
                (b->up_to_bytes == 0 || a->from_bytes <= b->up_to_bytes))
                return true;
        }
    return false;
}

/* `calibrated:` either one table {simple, ll128, ll} for every collective on every tier, or a list of
 * groups, each the protocols fitted for one (primitive, tier, family) (docs/model.md, "Calibrated protocols"). */
static bool read_calibrated(yaml_tree *tree, ynode *node, topology *t, diag *d)
{
    static const char *const one_table[] = {"simple", "ll128", "ll", NULL};
    if (node->type == YAML_MAPPING_NODE) {
        t->calibrated_count = 1;
        t->calibrated[0].prim = t->calibrated[0].tier = t->calibrated[0].family = -1;
        t->calibrated[0].line = (int)node->start_mark.line + 1;
        t->calibrated[0].column = (int)node->start_mark.column + 1;
        return read_calibrated_protocols(tree, node, one_table, &t->calibrated[0], d);
    }
    int count = yaml_read_list(tree, node, "calibrated",
                               "[{primitive: allreduce, tier: 0, algorithm: ring, simple: {...}}] or {simple: {...}, ll: {...}}", d);
    if (count < 0) return false;
    if (count > TOPO_MAX_CALIBRATED)
        return yaml_error(tree, node, d, "'calibrated' lists %d groups: at most %d", count, TOPO_MAX_CALIBRATED);
    for (int i = 0; i < count; i++) {
        ynode *item = yaml_sequence_item(tree, node, i);
        calibrated_group *g = &t->calibrated[i];
        if (!read_calibrated_group(tree, item, t, g, d)) return false;
        for (int j = 0; j < i; j++) {
            const calibrated_group *h = &t->calibrated[j];
            if (h->prim != g->prim || h->tier != g->tier) continue;
            if (h->family == g->family)
                return yaml_error(tree, item, d, "a second calibrated group for the same primitive, tier and algorithm: "
                                  "merge it with the first (item %d)", j + 1);
            if (h->library_choice && g->library_choice && choices_overlap(g, h))
                return yaml_error(tree, item, d, "two algorithms are the library's choice at the same sizes (this group "
                                  "and item %d): the ranges of what the library chose cannot overlap; calibrate again", j + 1);
        }
        t->calibrated_count = i + 1;
    }
    return true;
}

static const platform_kind *find_kind(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, name) == 0) return &kinds[i];
    return NULL;
}

bool platform_build(yaml_tree *tree, ynode *map, link_naming naming, topology *t, diag *d)
{
    platform_reader reader = {tree, map, d};
    if (!yaml_expect_mapping(tree, map, "a platform", d)) return false;
    if (!yaml_map_get(tree, map, "kind") && yaml_map_get(tree, map, "cases"))
        return yaml_error(tree, map, d, "this is a scenario file, not a platform: it has 'cases' and no 'kind'; run it "
                          "with collsim run, or describe the platform file its 'platform:' names");
    ynode *kind_node = yaml_map_require(tree, map, "kind", d);
    const char *kind_name = NULL;
    if (!kind_node || !yaml_read_string(tree, kind_node, "kind", &kind_name, d)) return false;
    const platform_kind *kind = find_kind(kind_name);
    if (!kind) {
        char list[256] = "";
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
            if (list[0]) strcat(list, ", ");
            strcat(list, kinds[i].name);
        }
        return yaml_error(tree, kind_node, d, "unknown platform kind '%s': expected one of %s", kind_name, list);
    }
    const char *allowed[48];
    int n = 0;
    allowed[n++] = "name";
    allowed[n++] = "kind";
    allowed[n++] = "routing";
    allowed[n++] = "description";
    allowed[n++] = "launch";
    allowed[n++] = "calibrated";
    for (const char *const *k = library_keys; *k; k++) allowed[n++] = *k;
    allowed[n++] = "packet";
    for (const char *const *k = kind->keys; *k && n < 47; k++) allowed[n++] = *k;
    allowed[n] = NULL;
    if (!yaml_map_check_keys(tree, map, allowed, d)) return false;

    topology_init(t, kind->name);
    t->unnamed_links = naming == LINKS_UNNAMED;
    ynode *node = yaml_map_get(tree, map, "name");
    const char *name = NULL;
    if (node && !yaml_read_string(tree, node, "name", &name, d)) return false;
    if (name && strlen(name) >= sizeof t->name) /* every output names it whole */
        return yaml_error(tree, node, d, "'name' is %zu characters long; a platform's name holds at most %zu",
                          strlen(name), sizeof t->name - 1);
    snprintf(t->name, sizeof t->name, "%s", name ? name : kind->name);
    t->routing = ROUTING_ECMP;
    if ((node = yaml_map_get(tree, map, "routing"))) {
        const char *routing = NULL;
        if (!yaml_read_string(tree, node, "routing", &routing, d)) return false;
        if (strcmp(routing, "ecmp") == 0) t->routing = ROUTING_ECMP;
        else if (strcmp(routing, "spread") == 0) t->routing = ROUTING_SPREAD;
        else return yaml_error(tree, node, d, "unknown routing '%s': expected ecmp (per-flow hash) or spread (ideal balance)", routing);
    }
    if ((node = yaml_map_get(tree, map, "launch")) &&
        !yaml_read_quantity(tree, node, "launch", UNIT_TIME, true, &t->launch_s, d))
        return false;
    if (!library_read(tree, map, t, d)) return false;
    ynode *packet = yaml_map_get(tree, map, "packet");
    ynode *calibrated = yaml_map_get(tree, map, "calibrated");
    if (!kind->build(&reader, t) || (packet && !packet_params_read(tree, packet, t, d)) ||
        (calibrated && !read_calibrated(tree, calibrated, t, d))) {
        topology_free(t);
        return false;
    }
    return true;
}

bool platform_load_as(const char *path, link_naming naming, topology *t, diag *d)
{
    yaml_tree tree;
    bool ok = yaml_tree_load(&tree, path, d) && platform_build(&tree, yaml_tree_root(&tree), naming, t, d);
    yaml_tree_free(&tree);
    return ok;
}

bool platform_load(const char *path, topology *t, diag *d)
{
    return platform_load_as(path, LINKS_NAMED, t, d);
}

bool platform_load_string(const char *name, const char *text, topology *t, diag *d)
{
    yaml_tree tree;
    bool ok = yaml_tree_load_string(&tree, name, text, d) &&
              platform_build(&tree, yaml_tree_root(&tree), LINKS_NAMED, t, d);
    yaml_tree_free(&tree);
    return ok;
}
