/* inc_tree.c — aggregation trees from the platform's inc_parent: the first
 * plane (NVSwitch of a pod, then IB rails) with a switch above the whole
 * group whose switches all offer the capabilities. */
#include "platform/inc_tree.h"

#include <stdio.h>
#include <stdlib.h>

#include "platform/topology.h"

static void tree_alloc(inc_tree *tree, int n, int switches)
{
    tree->ranks = n;
    tree->switches = switches;
    tree->rank_parent = calloc((size_t)n, sizeof(int));
    tree->switch_parent = malloc(sizeof(int) * (size_t)switches);
    tree->switch_node = malloc(sizeof(int) * (size_t)switches);
    tree->root_tier = 0;
    tree->alpha_switch_s = tree->bandwidth_Bps = 0; /* unknown: P* falls back to the default */
}

void inc_tree_single_switch(inc_tree *tree, int n, int node)
{
    tree_alloc(tree, n, 1);
    tree->switch_parent[0] = -1;
    tree->switch_node[0] = node;
    tree->depth = 1;
    tree->root_tier = 0;
}

void inc_tree_free(inc_tree *tree)
{
    free(tree->rank_parent);
    free(tree->switch_parent);
    free(tree->switch_node);
    tree->rank_parent = tree->switch_parent = tree->switch_node = NULL;
}

static const char *capability_names(unsigned caps)
{
    return caps == INC_A2A ? "hardware all-to-all (inc: [a2a])"
           : caps == (INC_REDUCE | INC_MULTICAST) ? "reduction and multicast (inc: [reduce, multicast])"
           : caps == INC_REDUCE ? "reduction (inc: [reduce])"
                                : "multicast (inc: [multicast])";
}

/* The lowest switch of PLANE above all N MEMBERS, or -1; BELOW (one per
 * node) counts the members under each switch. */
static int common_root(const topology *t, const int *members, int n, int plane, int *below)
{
    for (int v = 0; v < topology_node_count(t); v++) below[v] = 0;
    for (int i = 0; i < n; i++)
        for (int v = t->inc_parent(t, members[i], plane); v >= 0; v = t->inc_parent(t, v, plane)) below[v]++;
    int root = t->inc_parent(t, members[0], plane);
    while (root >= 0 && below[root] < n) root = t->inc_parent(t, root, plane);
    return root;
}

/* The tree of PLANE up to ROOT; false with WHY when a switch of it lacks
 * CAPABILITIES. */
static bool build_on_plane(const topology *t, const int *members, int n, unsigned capabilities, int plane, int root,
                           const int *below, inc_tree *tree, char *why, int why_size)
{
    int nodes = topology_node_count(t), switches = 0;
    int *index = malloc(sizeof(int) * (size_t)nodes);
    for (int v = 0; v < nodes; v++) index[v] = below[v] > 0 && below[v] <= n ? -1 : -2;
    tree_alloc(tree, n, nodes);
    tree->depth = 0;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        int depth = 0, child = -1;
        for (int v = t->inc_parent(t, members[i], plane); ok; v = t->inc_parent(t, v, plane)) {
            depth++;
            if (index[v] == -1) {
                index[v] = switches;
                tree->switch_node[switches] = v;
                tree->switch_parent[switches++] = -1;
                if ((t->switches[v - t->ranks].inc & capabilities) != capabilities) {
                    snprintf(why, (size_t)why_size, "switch '%s' has no in-network %s", t->switches[v - t->ranks].name,
                             capability_names(capabilities));
                    ok = false;
                }
            }
            if (child < 0) tree->rank_parent[i] = index[v];
            else tree->switch_parent[child] = index[v];
            child = index[v];
            if (v == root) break;
        }
        if (depth > tree->depth) tree->depth = depth;
    }
    tree->switches = switches;
    tree->root_tier = t->switches[root - t->ranks].tier;
    tree->alpha_switch_s = t->tiers[tree->root_tier].alpha_switch_s;
    tree->bandwidth_Bps = t->tiers[0].bandwidth_Bps;
    for (int k = 1; k <= tree->root_tier; k++)
        if (t->tiers[k].bandwidth_Bps < tree->bandwidth_Bps) tree->bandwidth_Bps = t->tiers[k].bandwidth_Bps;
    free(index);
    if (!ok) inc_tree_free(tree);
    return ok;
}

bool inc_tree_build(const topology *t, const int *members, int n, unsigned capabilities, inc_tree *tree, char *why,
                    int why_size)
{
    if (!t->inc_parent) {
        snprintf(why, (size_t)why_size, "a %s platform has no switches to reduce or multicast in", t->kind);
        return false;
    }
    int *below = malloc(sizeof(int) * (size_t)topology_node_count(t));
    bool rooted = false, ok = false;
    for (int plane = 0; plane < (t->inc_planes > 1 ? t->inc_planes : 1) && !ok; plane++) {
        int root = common_root(t, members, n, plane, below);
        if (root < 0) continue;
        rooted = true;
        ok = build_on_plane(t, members, n, capabilities, plane, root, below, tree, why, why_size);
    }
    if (!rooted)
        snprintf(why, (size_t)why_size, "no switch of %s sits above all %d ranks of the group (on a rail-optimized "
                 "SuperPOD each pod's NVSwitch and each rail are trees of their own: use hierarchical)", t->name, n);
    free(below);
    return ok;
}
