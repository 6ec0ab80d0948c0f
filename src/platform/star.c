/* star.c — N ranks around one switch (explainer 02 §1.1, §2).
 * One hop is rank -> switch -> rank: two access links carrying alpha/2 each
 * (or alpha_switch and a crossbar delay when the switch does INC). */
#include "platform/kinds.h"

#include <stdio.h>

const char *const star_keys[] = {"ranks", "alpha", "bandwidth", "alpha_switch", "inc",
                                 "efficiency", "overhead", NULL};

/* Access link of rank i is link i; the switch is node `ranks`. */
static int star_route(const topology *t, int src, int dst, route_hop *hops)
{
    const topo_switch *sw = &t->switches[0];
    int n = 0;
    if (src < t->ranks) route_push(t, hops, &n, src, false);
    else route_push(t, hops, &n, sw->port_link, false);
    if (src < t->ranks && dst < t->ranks) route_push(t, hops, &n, sw->xbar_link, false);
    if (dst < t->ranks) route_push(t, hops, &n, dst, true);
    else route_push(t, hops, &n, sw->port_link, false);
    return n;
}

static int star_inc_parent(const topology *t, int node, int plane)
{
    (void)plane;
    return node < t->ranks ? t->ranks : -1;
}

bool build_star(platform_reader *r, topology *t)
{
    int ranks;
    topo_tier tier = {.name = "switch", .hop = "rank -> switch -> rank (2 links)"};
    if (!read_count(r, r->root, "ranks", 2, TOPO_MAX_RANKS, &ranks) || !read_tier(r, r->root, "alpha", true, &tier))
        return false;
    switch_split split = split_switched_hop(tier.alpha_s, tier.alpha_switch_s, tier.inc != 0);
    snprintf(tier.split, sizeof tier.split, "2 access links x %.6g us%s", split.access_s * 1e6,
             split.xbar_s > 0 ? " + switch crossbar" : "");
    topology_add_tier(t, &tier);
    t->ranks = ranks;
    topology_reserve_links(t, ranks + 2.0); /* an access link per rank, the switch's delays */
    char name[48];
    for (int i = 0; i < t->ranks; i++) {
        topology_format_name(name, sizeof name, "r%d_switch", i);
        topology_add_link(t, name, tier.bandwidth_Bps * tier.efficiency, split.access_s, 0);
    }
    int s = topology_add_switch(t, "switch", 0, tier.inc);
    switch_attach_delays(t, s, &split);
    for (int i = 0; i < t->ranks; i++) topology_set_link_ends(t, i, i, t->ranks + s);
    t->route = star_route;
    t->inc_parent = star_inc_parent;
    t->diameter_links = 2;
    t->route_hops_max = 3; /* access, crossbar, access */
    t->bisection_Bps = (double)(t->ranks / 2) * tier.bandwidth_Bps;
    snprintf(t->bisection_cut, sizeof t->bisection_cut, "%d rank links on one side of the switch", t->ranks / 2);
    return true;
}
