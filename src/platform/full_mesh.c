/* full_mesh.c — a dedicated full-duplex link between every pair of ranks
 * (explainer 02 §1.3, §4.1): diameter 1, alpha per link. */
#include "platform/kinds.h"

#include <stdio.h>

const char *const full_mesh_keys[] = {"ranks", "alpha", "bandwidth", "efficiency", "overhead", "inc", NULL};

#define FULL_MESH_MAX_RANKS 512 /* N(N-1)/2 links, and as many SimGrid routes */

/* Link of pair (i, j), i < j, is numbered row by row; UP goes i -> j. */
static int pair_link(int ranks, int i, int j)
{
    return i * (2 * ranks - i - 1) / 2 + (j - i - 1);
}

static int full_mesh_route(const topology *t, int src, int dst, route_hop *hops)
{
    int n = 0;
    if (src < dst) route_push(t, hops, &n, pair_link(t->ranks, src, dst), false);
    else route_push(t, hops, &n, pair_link(t->ranks, dst, src), true);
    return n;
}

bool build_full_mesh(platform_reader *r, topology *t)
{
    int ranks;
    topo_tier tier = {.name = "link", .hop = "rank -> rank (1 dedicated link)"};
    if (!read_count(r, r->root, "ranks", 2, FULL_MESH_MAX_RANKS, &ranks) || !read_tier(r, r->root, "alpha", false, &tier))
        return false;
    snprintf(tier.split, sizeof tier.split, "1 link x %.6g us", tier.alpha_s * 1e6);
    topology_add_tier(t, &tier);
    t->ranks = ranks;
    char name[48];
    for (int i = 0; i < t->ranks; i++)
        for (int j = i + 1; j < t->ranks; j++) {
            snprintf(name, sizeof name, "r%d_r%d", i, j);
            topology_set_link_ends(t, topology_add_link(t, name, tier.bandwidth_Bps * tier.efficiency, tier.alpha_s, 0), i, j);
        }
    t->route = full_mesh_route;
    t->diameter_links = 1;
    t->route_hops_max = 1;
    int half = t->ranks / 2;
    t->bisection_Bps = (double)half * (t->ranks - half) * tier.bandwidth_Bps;
    snprintf(t->bisection_cut, sizeof t->bisection_cut, "%d x %d pair links between the halves", half, t->ranks - half);
    return true;
}
