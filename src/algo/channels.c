/* channels.c — channel layouts, ring orders and the bandwidth they spread
 * over (channels.h). */
#include "algo/channels.h"

#include "algo/algorithm.h"
#include "platform/topology.h"

/* Whether the group lies in one block of pairwise-linked ranks (a full
 * mesh, or one xGMI node): MEMBERS NULL is ranks 0..RANKS-1. */
static bool group_in_one_mesh(const topology *t, const int *members, int ranks)
{
    if (t->mesh_ranks < 2) return false;
    if (!members) return ranks <= t->mesh_ranks;
    for (int i = 1; i < ranks; i++)
        if (members[i] / t->mesh_ranks != members[0] / t->mesh_ranks) return false;
    return true;
}

channel_layout channel_layout_of(const topology *t, const int *members, int ranks, int *rail_ranks)
{
    *rail_ranks = 0;
    if (group_in_one_mesh(t, members, ranks)) return CHANNELS_FULL_MESH;
    int g = t->domain_ranks;
    if (!members && t->rails > 1 && g > 1 && ranks > g && ranks % g == 0) {
        *rail_ranks = g;
        return CHANNELS_RAILS;
    }
    return CHANNELS_SHARED;
}

int channel_disjoint_rings(int n)
{
    return n <= 2 ? 1 : n % 2 ? n - 1 : n - 2;
}

/* Walecki's Hamiltonian cycle CYCLE of the complete graph on N vertices.
 * Odd N = 2k+1: vertex 2k (the hub) then the zigzag j, j+1, j-1, j+2, j-2,
 * ..., j+k on Z_2k, for j = 0..k-1: the k cycles share no edge.  Even N:
 * the construction on N-1 vertices, vertex N-1 inserted in cycle j between
 * zigzag steps k-1 and k (the edge of difference k, a diameter of Z_2k); the
 * removed diameters and (hub, N-1) are the perfect matching left over. */
static void walecki_cycle(int n, int cycle, int *order)
{
    int k = (n % 2 ? n - 1 : n - 2) / 2, ring = 2 * k, length = 0;
    order[length++] = ring;
    for (int i = 0; i < ring; i++) {
        int zigzag = i % 2 ? (i + 1) / 2 : -(i / 2);
        order[length++] = ((cycle + zigzag) % ring + ring) % ring;
        if (n % 2 == 0 && i == k - 1) order[length++] = n - 1;
    }
}

void channel_order(const algo_params *p, int channel, int *order)
{
    int n = p->ranks, g = p->rail_ranks;
    if (p->layout == CHANNELS_FULL_MESH && n > 2) {
        int rings = channel_disjoint_rings(n), ring = channel % rings;
        walecki_cycle(n, ring / 2, order);
        if (ring % 2) /* the same cycle the other way round: the opposite direction of each link */
            for (int i = 0, j = n - 1; i < j; i++, j--) {
                int swap = order[i];
                order[i] = order[j];
                order[j] = swap;
            }
        return;
    }
    bool rails = p->layout == CHANNELS_RAILS && g > 1 && n > g && n % g == 0;
    for (int i = 0; i < n; i++) order[i] = rails ? i / g * g + (channel + i % g) % g : i;
}

double channel_bandwidth_gain(channel_layout layout, int channels, int ranks, int rail_ranks, bool network_tier)
{
    int k = channels > 1 ? channels : 1, width = 1;
    if (layout == CHANNELS_FULL_MESH) width = channel_disjoint_rings(ranks);
    else if (layout == CHANNELS_RAILS && network_tier) width = rail_ranks;
    int busiest = (k + width - 1) / width;
    return (double)k / busiest;
}

int channel_natural_count(channel_layout layout, int ranks, int rail_ranks, int rails, int max)
{
    int k = 1;
    if (layout == CHANNELS_FULL_MESH) k = channel_disjoint_rings(ranks);
    if (layout == CHANNELS_RAILS) k = rails < rail_ranks ? rails : rail_ranks;
    return k < max ? k : max;
}
