/* double_tree.c — building the complementary heap trees of DBT. */
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
    for (int q = leaves; q < n; q++) {
        int avoid = (order[(q - 1) / 2] - 1) / 2, pick = -1;
        for (int x = interior - 1; x >= 0 && pick < 0; x--)
            if (!used[x] && x != avoid) pick = x;
        for (int x = interior - 1; x >= 0 && pick < 0; x--)
            if (!used[x]) pick = x; /* only the T1 parent is left: the trees share that edge */
        used[pick] = true;
        order[q] = pick;
    }
    free(used);
}

void double_tree_init(double_tree *t, int ranks)
{
    t->ranks = ranks;
    t->depth = 0;
    while ((2 << t->depth) <= ranks) t->depth++;
    for (int tree = 0; tree < 2; tree++) {
        t->rank_at[tree] = malloc(sizeof(int) * (size_t)ranks);
        t->position_of[tree] = malloc(sizeof(int) * (size_t)ranks);
    }
    for (int p = 0; p < ranks; p++) t->rank_at[0][p] = p;
    complement_order(ranks, t->rank_at[1]);
    for (int tree = 0; tree < 2; tree++)
        for (int p = 0; p < ranks; p++) t->position_of[tree][t->rank_at[tree][p]] = p;
}

void double_tree_free(double_tree *t)
{
    for (int tree = 0; tree < 2; tree++) {
        free(t->rank_at[tree]);
        free(t->position_of[tree]);
    }
}

int double_tree_parent(const double_tree *t, int tree, int rank)
{
    int p = t->position_of[tree][rank];
    return p == 0 ? -1 : t->rank_at[tree][(p - 1) / 2];
}

int double_tree_children(const double_tree *t, int tree, int rank, int children[2])
{
    int p = t->position_of[tree][rank], count = 0;
    for (int c = 2 * p + 1; c <= 2 * p + 2 && c < t->ranks; c++) children[count++] = t->rank_at[tree][c];
    return count;
}

int double_tree_depth(const double_tree *t, int tree, int rank)
{
    int depth = 0;
    for (int p = t->position_of[tree][rank]; p > 0; p = (p - 1) / 2) depth++;
    return depth;
}

int double_tree_height(const double_tree *t, int tree, int rank)
{
    int height = 0; /* the leftmost path is a heap's deepest */
    for (int c = 2 * t->position_of[tree][rank] + 1; c < t->ranks; c = 2 * c + 1) height++;
    return height;
}
