/* channels.h — NCCL-style channels (docs/model.md): K concurrent copies of a
 * collective, copy c moving M/K over connections of its own (channel c), and
 * the order in which copy c visits the group, chosen so that the channels
 * spread over disjoint links where the fabric has them:
 *   shared     a star or NVSwitch: every channel in rank order; the channels
 *              share each rank's one link to the switch (no bandwidth gain);
 *   rails      a rail-optimized fabric whose nodes the group fills: channel c
 *              enters every node at its GPU c, so its ring crosses nodes on
 *              GPU c's NIC (NCCL's rail-aligned rings);
 *   full mesh  a link per pair of ranks (a full mesh, or a group inside one
 *              xGMI node of a rail cluster): channel c follows its own
 *              Hamiltonian ring from Walecki's decomposition of the complete
 *              graph (each ring taken in both directions), so no two channels
 *              share a link while there are rings to go round (RCCL drives
 *              every xGMI link of an MI300X this way).
 * The analytic model reads the same layout (channel_bandwidth_gain), so the
 * prediction's channel term and the simulated orders cannot drift apart. */
#ifndef COLLSIM_CHANNELS_H
#define COLLSIM_CHANNELS_H

#include <stdbool.h>

struct topology;
struct algo_params;

typedef enum { CHANNELS_SHARED, CHANNELS_RAILS, CHANNELS_FULL_MESH } channel_layout;

/* The layout channels of a group of RANKS on T take; MEMBERS are its
 * platform ranks (NULL: the whole platform).  *RAIL_RANKS is the GPUs per
 * node under CHANNELS_RAILS, else 0. */
channel_layout channel_layout_of(const struct topology *t, const int *members, int ranks, int *rail_ranks);

/* The group ranks channel CHANNEL visits, in ring order (ORDER[position]). */
void channel_order(const struct algo_params *p, int channel, int *order);

/* Arc-disjoint directed Hamiltonian rings Walecki's construction gives on N
 * ranks: N-1 for odd N, N-2 for even N (a perfect matching is left over), 1
 * for N = 2. */
int channel_disjoint_rings(int n);

/* How many times one channel's bandwidth the K channels of a ring get on a
 * tier (network_tier: a NIC-attached tier of a rail-optimized fabric): K
 * over the channels sharing the busiest link, ceil(K / width), width being
 * the disjoint links the layout spreads them over (1 when shared). */
double channel_bandwidth_gain(channel_layout layout, int channels, int ranks, int rail_ranks, bool network_tier);

/* The channels `channels: auto` gives: one per disjoint ring of a full mesh,
 * one per rail (at most RAILS) on a rail layout, else 1; at most MAX. */
int channel_natural_count(channel_layout layout, int ranks, int rail_ranks, int rails, int max);

#endif
