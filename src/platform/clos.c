/* clos.c — leaf-spine Clos with oversubscription s and an optional
 * super-spine tier (explainer 03 §1).  Ranks attach to leaves; a leaf's
 * uplink capacity is ranks_per_leaf * BW / s, spread over its spines.
 *
 * Latencies: a same-leaf hop (2 links) takes alpha_leaf, a cross-leaf hop
 * (4 links) alpha_spine, a cross-pod hop (6 links) alpha_super; the builder
 * solves the per-link latencies from these.  Routing: `ecmp` hashes each flow
 * onto one spine (and one super-spine of that spine's plane); `spread` models
 * ideal balance by replacing a leaf's (pod's) parallel uplinks with one link
 * of their summed capacity, which is what an even split of every flow over
 * equal parallel links amounts to in a fluid model. */
#include "platform/kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const clos_keys[] = {"ranks", "leaves", "ranks_per_leaf", "spines", "oversubscription",
                                 "alpha_leaf", "alpha_spine", "bandwidth", "alpha_switch", "inc",
                                 "efficiency", "overhead", "super_spine", NULL};

typedef struct clos {
    clos_shape shape;
    int access0;     /* link of rank i: access0 + i */
    int leaf_up0;    /* ecmp: leaf l to spine j: leaf_up0 + l*spines + j; spread: leaf_up0 + l */
    int spine_up0;   /* ecmp: global spine g to plane super i: spine_up0 + g*per_plane + i; spread: spine_up0 + pod */
    int leaf_switch0, spine_switch0, super_switch0;
    int per_plane;   /* super-spines per plane */
} clos;

static int leaf_of(const clos *c, int rank) { return rank / c->shape.ranks_per_leaf; }
static int pod_of_leaf(const clos *c, int leaf) { return leaf / c->shape.leaves; }

static int xbar(const topology *t, int switch_index) { return t->switches[switch_index].xbar_link; }
/* The latency-only link at switch SWITCH_INDEX's end of an in-network leg (topology.h). */
static int switch_port_link(const topology *t, int switch_index) { return t->switches[switch_index].port_link; }

static int leaf_spine_link(const topology *t, const clos *c, int leaf, int spine_in_pod)
{
    return t->routing == ROUTING_SPREAD ? c->leaf_up0 + leaf : c->leaf_up0 + leaf * c->shape.spines + spine_in_pod;
}

static int spine_super_link(const topology *t, const clos *c, int pod, int spine_in_pod, int in_plane)
{
    if (t->routing == ROUTING_SPREAD) return c->spine_up0 + pod;
    return c->spine_up0 + (pod * c->shape.spines + spine_in_pod) * c->per_plane + in_plane;
}

/* Rank A to rank B: up to the lowest common tier and down.  The leaf picks a
 * spine, the spine (three tiers) a super-spine of its plane: forks of RC,
 * ECMP-hashed per flow unless RC chooses (spread has one fat uplink: no fork). */
static int rank_to_rank(const topology *t, const clos *c, int a, int b, route_choices *rc, route_hop *h)
{
    int n = 0, la = leaf_of(c, a), lb = leaf_of(c, b);
    bool spread = t->routing == ROUTING_SPREAD;
    route_push(t, h, &n, c->access0 + a, false);
    route_push(t, h, &n, xbar(t, c->leaf_switch0 + la), false);
    if (la != lb) {
        int pa = pod_of_leaf(c, la), pb = pod_of_leaf(c, lb);
        int j = spread ? 0 : route_fork_pick(rc, n, t->ranks + c->leaf_switch0 + la, c->shape.spines, ecmp_hash(a, b, 1));
        int spine_a = c->spine_switch0 + pa * c->shape.spines + j;
        route_push(t, h, &n, leaf_spine_link(t, c, la, j), false);
        route_push(t, h, &n, xbar(t, spine_a), false);
        if (pa != pb) {
            int i = spread ? 0 : route_fork_pick(rc, n, t->ranks + spine_a, c->per_plane, ecmp_hash(a, b, 2));
            route_push(t, h, &n, spine_super_link(t, c, pa, j, i), false);
            route_push(t, h, &n, xbar(t, c->super_switch0 + j * c->per_plane + i), false);
            route_push(t, h, &n, spine_super_link(t, c, pb, j, i), true);
            route_push(t, h, &n, xbar(t, c->spine_switch0 + pb * c->shape.spines + j), false);
        }
        route_push(t, h, &n, leaf_spine_link(t, c, lb, j), true);
        route_push(t, h, &n, xbar(t, c->leaf_switch0 + lb), false);
    }
    route_push(t, h, &n, c->access0 + b, true);
    return n;
}

/* In-network legs: rank <-> its leaf, leaf <-> a spine of its pod, spine <-> a
 * super-spine of its plane.  Other pairs have no direct leg. */
static int switch_leg(const topology *t, const clos *c, int lower, int upper, bool downward, route_hop *h)
{
    int s = upper - t->ranks;
    int leaves_total = c->shape.pods * c->shape.leaves, spines_total = c->shape.pods * c->shape.spines;
    if (lower < t->ranks && s == c->leaf_switch0 + leaf_of(c, lower)) {
        return route_switch_leg(t, h, c->access0 + lower, switch_port_link(t, s), downward);
    }
    int ls = lower - t->ranks;
    if (lower >= t->ranks && ls < leaves_total && s >= c->spine_switch0 && s < c->spine_switch0 + spines_total) {
        int pod = pod_of_leaf(c, ls), spine = s - c->spine_switch0;
        if (spine / c->shape.spines != pod) return -1;
        return route_switch_leg(t, h, leaf_spine_link(t, c, ls, spine % c->shape.spines), switch_port_link(t, s),
                                downward);
    }
    if (c->shape.super_spines && ls >= c->spine_switch0 && ls < c->spine_switch0 + spines_total && s >= c->super_switch0) {
        int spine = ls - c->spine_switch0, super = s - c->super_switch0;
        int j = spine % c->shape.spines;
        if (super / c->per_plane != j) return -1;
        return route_switch_leg(t, h, spine_super_link(t, c, spine / c->shape.spines, j, super % c->per_plane),
                                switch_port_link(t, s), downward);
    }
    return -1;
}

static int clos_multipath(const topology *t, int src, int dst, route_choices *rc, route_hop *hops)
{
    const clos *c = t->kind_data;
    if (src < t->ranks && dst < t->ranks) return rank_to_rank(t, c, src, dst, rc, hops);
    return src < dst ? switch_leg(t, c, src, dst, false, hops) : switch_leg(t, c, dst, src, true, hops);
}

static int clos_route(const topology *t, int src, int dst, route_hop *hops)
{
    return clos_multipath(t, src, dst, NULL, hops);
}

/* Aggregation tree: rank -> its leaf -> spine 0 of the pod -> super-spine 0
 * of plane 0: the legs switch_leg routes. */
static int clos_inc_parent(const topology *t, int node, int plane)
{
    (void)plane;
    const clos *c = t->kind_data;
    int s = node - t->ranks, leaves_total = c->shape.pods * c->shape.leaves;
    if (node < t->ranks) return t->ranks + c->leaf_switch0 + leaf_of(c, node);
    if (s >= c->leaf_switch0 && s < c->leaf_switch0 + leaves_total)
        return t->ranks + c->spine_switch0 + pod_of_leaf(c, s - c->leaf_switch0) * c->shape.spines;
    if (c->shape.super_spines && s >= c->spine_switch0 && s < c->spine_switch0 + c->shape.pods * c->shape.spines &&
        (s - c->spine_switch0) % c->shape.spines == 0)
        return t->ranks + c->super_switch0;
    return -1;
}

/* Which nodes each link joins (spread routing's aggregated uplinks reach a
 * whole tier: -1). */
static void set_link_ends(topology *t, const clos *c)
{
    const clos_shape *shape = &c->shape;
    int leaves_total = shape->pods * shape->leaves, spines_total = shape->pods * shape->spines;
    bool spread = t->routing == ROUTING_SPREAD;
    for (int i = 0; i < t->ranks; i++) topology_set_link_ends(t, c->access0 + i, i, t->ranks + c->leaf_switch0 + leaf_of(c, i));
    for (int l = 0; l < leaves_total; l++)
        for (int j = 0; j < (spread ? 1 : shape->spines); j++)
            topology_set_link_ends(t, leaf_spine_link(t, c, l, j), t->ranks + c->leaf_switch0 + l,
                                   spread ? -1 : t->ranks + c->spine_switch0 + pod_of_leaf(c, l) * shape->spines + j);
    for (int g = 0; shape->super_spines && g < spines_total; g++)
        for (int i = 0; i < (spread ? 1 : c->per_plane); i++) {
            if (spread && g % shape->spines) continue;
            topology_set_link_ends(t, spine_super_link(t, c, g / shape->spines, g % shape->spines, i),
                                   spread ? -1 : t->ranks + c->spine_switch0 + g,
                                   spread ? -1 : t->ranks + c->super_switch0 + (g % shape->spines) * c->per_plane + i);
        }
}

bool clos_construct(platform_reader *r, topology *t, const clos_shape *shape)
{
    const topo_tier *leaf = &shape->tiers[0], *spine = &shape->tiers[1], *super = &shape->tiers[2];
    int tiers = shape->super_spines ? 3 : 2;
    if (spine->inc && !leaf->inc)
        return platform_error_at(r, r->root, "inc", "in-network collectives on spines need them on leaves too: "
                                 "the aggregation tree must be INC-capable throughout (explainer 04 §4)");
    double ranks = (double)shape->pods * shape->leaves * shape->ranks_per_leaf;
    double leaves = (double)shape->pods * shape->leaves, spines = (double)shape->pods * shape->spines;
    double switches = leaves + spines + shape->super_spines;
    double uplinks = t->routing == ROUTING_SPREAD ? leaves + (tiers == 3 ? shape->pods : 0)
                                                  : leaves * shape->spines + (tiers == 3 ? spines * shape->super_spines / shape->spines : 0);
    if (!platform_size_allowed(r, ranks, switches, ranks + uplinks + 2 * switches)) return false;
    topology_reserve_links(t, ranks + uplinks + 2 * switches);
    if (ranks < 2) return platform_error_at(r, r->root, NULL, "this Clos has 1 rank: a fabric needs at least 2");
    t->ranks = (int)ranks;
    clos *c = calloc(1, sizeof *c);
    t->kind_data = c;
    c->shape = *shape;
    c->per_plane = shape->super_spines ? shape->super_spines / shape->spines : 0;

    switch_split leaf_split = split_switched_hop(leaf->alpha_s, leaf->alpha_switch_s, leaf->inc != 0);
    double spine_link_s = 0, super_link_s = 0;
    switch_split spine_split = {0}, super_split = {0};
    if (!split_uplink(r, leaf, spine, leaf->alpha_s + leaf_split.xbar_s, &spine_link_s, &spine_split)) return false;
    if (tiers == 3 && !split_uplink(r, spine, super, spine->alpha_s + spine_split.xbar_s, &super_link_s, &super_split))
        return false;
    for (int k = 0; k < tiers; k++) t->tiers[topology_add_tier(t, &shape->tiers[k])].network = true; /* NIC fabrics */
    snprintf(t->tiers[0].split, sizeof t->tiers[0].split, "2 access links x %.6g us%s", leaf_split.access_s * 1e6,
             leaf_split.xbar_s > 0 ? " + leaf crossbar" : "");
    snprintf(t->tiers[1].split, sizeof t->tiers[1].split, "2 access x %.6g us + 2 %s-%s x %.6g us%s",
             leaf_split.access_s * 1e6, leaf->name, spine->name, spine_link_s * 1e6, spine_split.xbar_s > 0 ? " + crossbars" : "");
    if (tiers == 3)
        snprintf(t->tiers[2].split, sizeof t->tiers[2].split, "tier-2 path + 2 %s-%s x %.6g us", spine->name,
                 super->name, super_link_s * 1e6);

    const double eff = leaf->efficiency;
    char name[48];
    c->access0 = t->link_count;
    for (int i = 0; i < t->ranks; i++) {
        topology_format_name(name, sizeof name, "r%d_%s", i, leaf->name);
        topology_add_link(t, name, leaf->bandwidth_Bps * eff, leaf_split.access_s, 0);
    }
    int leaves_total = shape->pods * shape->leaves, spines_total = shape->pods * shape->spines;
    double leaf_up_Bps = shape->ranks_per_leaf * leaf->bandwidth_Bps / shape->oversubscription;
    c->leaf_up0 = t->link_count;
    for (int l = 0; l < leaves_total; l++) {
        if (t->routing == ROUTING_SPREAD) {
            topology_format_name(name, sizeof name, "%s%d_up", leaf->name, l);
            topology_add_link(t, name, leaf_up_Bps * eff, spine_link_s, 1);
            continue;
        }
        for (int j = 0; j < shape->spines; j++) {
            topology_format_name(name, sizeof name, "%s%d_%s%d", leaf->name, l, spine->name, pod_of_leaf(c, l) * shape->spines + j);
            topology_add_link(t, name, leaf_up_Bps / shape->spines * eff, spine_link_s, 1);
        }
    }
    c->spine_up0 = t->link_count;
    if (tiers == 3) {
        double spine_up_Bps = shape->leaves * (leaf_up_Bps / shape->spines) / shape->oversubscription_super;
        for (int g = 0; g < spines_total; g++) {
            if (t->routing == ROUTING_SPREAD) {
                if (g % shape->spines) continue;
                topology_format_name(name, sizeof name, "pod%d_up", g / shape->spines);
                topology_add_link(t, name, spine_up_Bps * shape->spines * eff, super_link_s, 2);
                continue;
            }
            for (int i = 0; i < c->per_plane; i++) {
                topology_format_name(name, sizeof name, "%s%d_%s%d", spine->name, g, super->name, (g % shape->spines) * c->per_plane + i);
                topology_add_link(t, name, spine_up_Bps / c->per_plane * eff, super_link_s, 2);
            }
        }
    }
    c->leaf_switch0 = t->switch_count;
    for (int l = 0; l < leaves_total; l++) {
        topology_format_name(name, sizeof name, "%s%d", leaf->name, l);
        switch_attach_delays(t, topology_add_switch(t, name, 0, leaf->inc), &leaf_split);
    }
    c->spine_switch0 = t->switch_count;
    for (int g = 0; g < spines_total; g++) {
        topology_format_name(name, sizeof name, "%s%d", spine->name, g);
        switch_attach_delays(t, topology_add_switch(t, name, 1, spine->inc), &spine_split);
    }
    c->super_switch0 = t->switch_count;
    for (int k = 0; k < shape->super_spines; k++) {
        topology_format_name(name, sizeof name, "%s%d", super->name, k);
        switch_attach_delays(t, topology_add_switch(t, name, 2, super->inc), &super_split);
    }
    set_link_ends(t, c);
    t->route = clos_route;
    t->multipath = clos_multipath;
    t->inc_parent = clos_inc_parent;
    t->oversubscription = shape->oversubscription;
    t->domain_ranks = shape->ranks_per_leaf;
    t->diameter_links = leaves_total == 1 ? 2 : shape->pods == 1 ? 4 : 6;
    t->route_hops_max = 11; /* 6 links and 5 switch crossbars (rank_to_rank) */
    if (leaves_total == 1) {
        t->bisection_Bps = (double)(t->ranks / 2) * leaf->bandwidth_Bps;
        snprintf(t->bisection_cut, sizeof t->bisection_cut, "one leaf: %d rank links", t->ranks / 2);
    } else if (shape->pods == 1) {
        t->bisection_Bps = (double)(leaves_total / 2) * leaf_up_Bps;
        snprintf(t->bisection_cut, sizeof t->bisection_cut, "uplinks of %d of %d leaves (N*BW/(2s))", leaves_total / 2, leaves_total);
    } else {
        t->bisection_Bps = (double)(shape->pods / 2) * shape->leaves * leaf_up_Bps / shape->oversubscription_super;
        snprintf(t->bisection_cut, sizeof t->bisection_cut, "uplinks of %d of %d pods", shape->pods / 2, shape->pods);
    }
    if (tiers == 3)
        snprintf(t->notes, sizeof t->notes, "oversubscription spine->super-spine: %g; %d super-spine planes of %d",
                 shape->oversubscription_super, shape->spines, c->per_plane);
    return true;
}

static bool read_super_spine(platform_reader *r, ynode *node, clos_shape *shape)
{
    static const char *const keys[] = {"pods", "spines", "alpha", "oversubscription", NULL};
    if (!yaml_expect_mapping(r->tree, node, "'super_spine'", r->d) || !yaml_map_check_keys(r->tree, node, keys, r->d))
        return false;
    int pods, supers;
    if (!read_count(r, node, "pods", 1, TOPO_MAX_RANKS, &pods) || !read_count(r, node, "spines", 1, TOPO_MAX_SWITCHES, &supers))
        return false;
    ynode *alpha = yaml_map_require(r->tree, node, "alpha", r->d);
    if (!alpha || !yaml_read_quantity(r->tree, alpha, "alpha", UNIT_TIME, false, &shape->tiers[2].alpha_s, r->d))
        return false;
    shape->oversubscription_super = 1;
    ynode *s = yaml_map_get(r->tree, node, "oversubscription");
    if (s && !yaml_read_positive_number(r->tree, s, "oversubscription", &shape->oversubscription_super, r->d)) return false;
    if (shape->oversubscription_super < 1)
        return yaml_error(r->tree, s, r->d, "'oversubscription' must be >= 1 (explainer 03 §1)");
    if (supers % shape->spines)
        return platform_error_at(r, node, "spines", "super-spines (%d) must split evenly into %d planes, one per pod spine "
                                 "(explainer 03 App. B.2)", supers, shape->spines);
    shape->pods = pods;
    shape->super_spines = supers;
    return true;
}

bool build_clos(platform_reader *r, topology *t)
{
    clos_shape shape = {.pods = 1, .oversubscription = 1, .oversubscription_super = 1};
    int leaves, per_leaf, spines = 1;
    topo_tier *leaf = &shape.tiers[0];
    if (!read_count(r, r->root, "leaves", 1, TOPO_MAX_SWITCHES, &leaves) ||
        !read_count(r, r->root, "ranks_per_leaf", 1, TOPO_MAX_RANKS, &per_leaf))
        return false;
    if (yaml_map_get(r->tree, r->root, "spines") && !read_count(r, r->root, "spines", 1, TOPO_MAX_SWITCHES, &spines))
        return false;
    if (leaves > 1 && !yaml_map_get(r->tree, r->root, "spines"))
        return platform_error_at(r, r->root, NULL, "missing key 'spines': %d leaves need a spine tier", leaves);
    ynode *s = yaml_map_get(r->tree, r->root, "oversubscription");
    if (s && !yaml_read_positive_number(r->tree, s, "oversubscription", &shape.oversubscription, r->d)) return false;
    if (shape.oversubscription < 1) return yaml_error(r->tree, s, r->d, "'oversubscription' must be >= 1 (explainer 03 §1)");
    if (!read_tier(r, r->root, "alpha_leaf", true, leaf)) return false;
    snprintf(leaf->name, sizeof leaf->name, "leaf");
    snprintf(leaf->hop, sizeof leaf->hop, "rank -> leaf -> rank (2 links)");
    shape.tiers[1] = *leaf;
    snprintf(shape.tiers[1].name, sizeof shape.tiers[1].name, "spine");
    snprintf(shape.tiers[1].hop, sizeof shape.tiers[1].hop, "rank -> leaf -> spine -> leaf -> rank (4 links)");
    /* a single leaf without super-spines routes nothing through a spine: its alpha is not asked for */
    bool spine_used = leaves > 1 || yaml_map_get(r->tree, r->root, "super_spine");
    ynode *alpha = spine_used ? yaml_map_require(r->tree, r->root, "alpha_spine", r->d)
                              : yaml_map_get(r->tree, r->root, "alpha_spine");
    if (spine_used && !alpha) return false;
    if (alpha && !yaml_read_quantity(r->tree, alpha, "alpha_spine", UNIT_TIME, false, &shape.tiers[1].alpha_s, r->d))
        return false;
    shape.leaves = leaves;
    shape.ranks_per_leaf = per_leaf;
    shape.spines = spines;
    ynode *super = yaml_map_get(r->tree, r->root, "super_spine");
    if (super) {
        shape.tiers[2] = shape.tiers[1];
        snprintf(shape.tiers[2].name, sizeof shape.tiers[2].name, "super_spine");
        snprintf(shape.tiers[2].hop, sizeof shape.tiers[2].hop, "rank -> leaf -> spine -> super-spine -> ... -> rank (6 links)");
        if (!read_super_spine(r, super, &shape)) return false;
    }
    ynode *ranks = yaml_map_get(r->tree, r->root, "ranks");
    if (ranks) {
        int n;
        double expected = (double)shape.pods * leaves * per_leaf;
        if (!yaml_read_int(r->tree, ranks, "ranks", 1, TOPO_MAX_RANKS, &n, r->d)) return false;
        if (n != expected)
            return yaml_error(r->tree, ranks, r->d, "'ranks' is %d but the Clos holds %.0f (pods x leaves x ranks_per_leaf)", n, expected);
    }
    return clos_construct(r, t, &shape);
}
