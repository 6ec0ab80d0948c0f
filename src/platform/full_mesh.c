/* full_mesh.c — a dedicated full-duplex link between every pair of ranks
 * (explainer 02 §1.3, §4.1): diameter 1, alpha per link.  The same mesh
 * joins the GPUs of one node of a rail cluster over xGMI (superpod.c). */
#include "platform/kinds.h"

#include <stdio.h>

const char *const full_mesh_keys[] = {"ranks", "alpha", "bandwidth", "efficiency", "overhead", "inc", NULL};

#define FULL_MESH_MAX_RANKS 512 /* N(N-1)/2 links, and as many SimGrid routes */

/* Link of pair (i, j), i < j, is numbered row by row; UP goes i -> j. */
static int pair_link(int ranks, int i, int j)
{
    return i * (2 * ranks - i - 1) / 2 + (j - i - 1);
}

int full_mesh_add_links(topology *t, int first_rank, int ranks, const topo_tier *tier)
{
    int first = t->link_count;
    char name[48];
    for (int i = first_rank; i < first_rank + ranks; i++)
        for (int j = i + 1; j < first_rank + ranks; j++) {
            topology_format_name(name, sizeof name, "r%d_r%d", i, j);
            topology_set_link_ends(t, topology_add_link(t, name, tier->bandwidth_Bps * tier->efficiency, tier->alpha_s, 0),
                                   i, j);
        }
    return first;
}

void full_mesh_push_hop(const topology *t, int first_link, int ranks, int from, int to, route_hop *hops, int *count)
{
    if (from < to) route_push(t, hops, count, first_link + pair_link(ranks, from, to), false);
    else route_push(t, hops, count, first_link + pair_link(ranks, to, from), true);
}

static int full_mesh_route(const topology *t, int src, int dst, route_hop *hops)
{
    int n = 0;
    full_mesh_push_hop(t, 0, t->ranks, src, dst, hops, &n);
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
    full_mesh_add_links(t, 0, ranks, &tier);
    t->mesh_ranks = ranks;
    t->route = full_mesh_route;
    t->diameter_links = 1;
    t->route_hops_max = 1;
    int half = t->ranks / 2;
    t->bisection_Bps = (double)half * (t->ranks - half) * tier.bandwidth_Bps;
    snprintf(t->bisection_cut, sizeof t->bisection_cut, "%d x %d pair links between the halves", half, t->ranks - half);
    return true;
}
