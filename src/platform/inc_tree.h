/* inc_tree.h — the in-network aggregation tree over a group of ranks
 * (explainer 04 §1, §2.2): which switch each rank pushes into, which switch
 * each switch forwards to, up to the lowest switch above the whole group.
 * The platform answers it (topology.inc_parent); INC algorithms emit their
 * switch actors from it, and the executor places them on SWITCH_NODE. */
#ifndef COLLSIM_INC_TREE_H
#define COLLSIM_INC_TREE_H

#include <stdbool.h>

typedef struct inc_tree {
    int ranks, switches;
    int *rank_parent;   /* per group rank: its switch (0..switches-1) */
    int *switch_parent; /* per switch: its parent switch, -1 at the root */
    int *switch_node;   /* per switch: the topology node it is */
    int depth;          /* legs from a rank up to the root (the deepest) */
    int root_tier;      /* the platform tier of the root switch: whose alpha_switch the tree climbs to */
    double alpha_switch_s, bandwidth_Bps; /* that tier's alpha_switch; the narrowest BW up to it (04 §1.4) */
} inc_tree;

/* One switch above N ranks (a star), placed on NODE. */
void inc_tree_single_switch(inc_tree *tree, int n, int node);
void inc_tree_free(inc_tree *tree);

struct topology;
/* The tree over MEMBERS (topology nodes of the group's ranks) whose switches
 * all offer CAPABILITIES (INC_* of topology.h); false with WHY otherwise. */
bool inc_tree_build(const struct topology *t, const int *members, int n, unsigned capabilities, inc_tree *tree,
                    char *why, int why_size);

#endif
