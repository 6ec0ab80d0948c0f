/* double_tree.c — building the complementary heap trees of DBT, and NCCL's
 * chained trees over nodes (double_tree.h). */
#include "algo/double_tree.h"

#include <stdbool.h>
#include <stdlib.h>

/* T2's order: T1's leaves (ranks N-1 down to floor(N/2)) at positions
 * 0..ceil(N/2)-1, then T1's interior ranks at the leaf positions, avoiding
 * the T1 edge to the position's T2 parent where possible. */
static void complement_order(int n, int *order)
{
    int interior = n / 2, leaves = n - interior;
    bool *used = calloc((size_t)interior + 1, sizeof(bool));
    for (int p = 0; p < leaves; p++) order[p] = n - 1 - p;
    int top = interior - 1; /* every rank above it is used: the picks come from the top */
    for (int q = leaves; q < n; q++) {
        int avoid = (order[(q - 1) / 2] - 1) / 2, pick;
        while (top >= 0 && used[top]) top--;
        pick = top; /* the highest unused rank other than AVOID, else AVOID: the trees share that edge */
        if (pick == avoid) {
            int below = top - 1;
            while (below >= 0 && used[below]) below--;
            if (below >= 0) pick = below;
        }
        used[pick] = true;
        order[q] = pick;
    }
    free(used);
}

/* The heap order of each tree over N positions: AT[tree][position] is the
 * position's element (T1 the identity, T2 the complement). */
static void heap_orders(int n, int *at[2])
{
    for (int p = 0; p < n; p++) at[0][p] = p;
    complement_order(n, at[1]);
}

static void allocate(double_tree *t, int ranks)
{
    t->ranks = ranks;
    for (int tree = 0; tree < 2; tree++) {
        t->parent[tree] = malloc(sizeof(int) * (size_t)ranks);
        t->children[tree] = malloc(sizeof(int) * (size_t)ranks * DOUBLE_TREE_MAX_CHILDREN);
        t->depth_of[tree] = malloc(sizeof(int) * (size_t)ranks);
        t->height_of[tree] = calloc((size_t)ranks, sizeof(int));
        for (int i = 0; i < ranks * DOUBLE_TREE_MAX_CHILDREN; i++) t->children[tree][i] = -1;
    }
}

static void attach(double_tree *t, int tree, int child, int parent)
{
    t->parent[tree][child] = parent;
    if (parent < 0) return;
    int *slot = &t->children[tree][parent * DOUBLE_TREE_MAX_CHILDREN];
    while (*slot >= 0) slot++;
    *slot = child;
}

/* Depths from the parents, heights from the depths (deepest first), and the
 * trees' depth. */
static void measure(double_tree *t)
{
    t->depth = 0;
    for (int tree = 0; tree < 2; tree++) {
        for (int r = 0; r < t->ranks; r++) {
            int depth = 0;
            for (int v = t->parent[tree][r]; v >= 0; v = t->parent[tree][v]) depth++;
            t->depth_of[tree][r] = depth;
            if (depth > t->depth) t->depth = depth;
        }
        for (int depth = t->depth; depth > 0; depth--)
            for (int r = 0; r < t->ranks; r++) {
                int up = t->parent[tree][r];
                if (t->depth_of[tree][r] == depth && t->height_of[tree][up] < t->height_of[tree][r] + 1)
                    t->height_of[tree][up] = t->height_of[tree][r] + 1;
            }
    }
}

int double_tree_levels(int nodes, int per_node)
{
    int heap = 0; /* the deepest heap position, N - 1, sits floor(log2 N) below the root */
    while ((2L << heap) <= nodes) heap++;
    return heap + per_node - 1;
}

void double_tree_init(double_tree *t, int ranks)
{
    allocate(t, ranks);
    int *at[2] = {malloc(sizeof(int) * (size_t)ranks), malloc(sizeof(int) * (size_t)ranks)};
    heap_orders(ranks, at);
    for (int tree = 0; tree < 2; tree++)
        for (int p = 0; p < ranks; p++) attach(t, tree, at[tree][p], p == 0 ? -1 : at[tree][(p - 1) / 2]);
    free(at[0]);
    free(at[1]);
    measure(t);
}

void double_tree_init_chained(double_tree *t, int nodes, int per_node, const int *order)
{
    allocate(t, nodes * per_node);
    int *at[2] = {malloc(sizeof(int) * (size_t)nodes), malloc(sizeof(int) * (size_t)nodes)};
    heap_orders(nodes, at);
#define RANK(node, q) (order ? order[(node) * per_node + (q)] : (node) * per_node + (q))
    for (int tree = 0; tree < 2; tree++) {
        int head = tree == 0 ? 0 : per_node - 1, step = tree == 0 ? 1 : -1;
        for (int p = 0; p < nodes; p++) {
            int node = at[tree][p];
            attach(t, tree, RANK(node, head), p == 0 ? -1 : RANK(at[tree][(p - 1) / 2], head));
            for (int k = 1; k < per_node; k++) attach(t, tree, RANK(node, head + k * step), RANK(node, head + (k - 1) * step));
        }
    }
#undef RANK
    free(at[0]);
    free(at[1]);
    measure(t);
}

void double_tree_free(double_tree *t)
{
    for (int tree = 0; tree < 2; tree++) {
        free(t->parent[tree]);
        free(t->children[tree]);
        free(t->depth_of[tree]);
        free(t->height_of[tree]);
    }
}

int double_tree_parent(const double_tree *t, int tree, int rank)
{
    return t->parent[tree][rank];
}

int double_tree_children(const double_tree *t, int tree, int rank, int children[DOUBLE_TREE_MAX_CHILDREN])
{
    int count = 0;
    for (int k = 0; k < DOUBLE_TREE_MAX_CHILDREN && t->children[tree][rank * DOUBLE_TREE_MAX_CHILDREN + k] >= 0; k++)
        children[count++] = t->children[tree][rank * DOUBLE_TREE_MAX_CHILDREN + k];
    return count;
}

int double_tree_depth(const double_tree *t, int tree, int rank)
{
    return t->depth_of[tree][rank];
}

int double_tree_height(const double_tree *t, int tree, int rank)
{
    return t->height_of[tree][rank];
}
