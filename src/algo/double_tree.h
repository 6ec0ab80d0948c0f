/* double_tree.h — the two complementary binary trees of DBT all-reduce
 * (explainer 01 §5.2).  Both are heap-shaped over N positions (position p
 * has children 2p+1 and 2p+2): T1 puts rank p at position p, the §5.2 tree
 * R0(R1(R3), R2) at N = 4; T2 puts T1's leaves, highest rank first, at its
 * interior positions and T1's interior ranks at its leaf positions, so each
 * rank is interior in one tree and a leaf in the other (for odd N, rank
 * floor(N/2) is a leaf in both).  T2's leaf positions are filled in order,
 * each with the highest unused T1-interior rank that is not the T1 parent of
 * its T2 parent, so the trees share no edge (every N >= 4 but 5, 6, 9):
 * R3(R2(R1), R0) at N = 4, as in §5.2.
 *
 * NCCL's multi-node tree (allreduce_tree.c) chains the GPUs of each node below one
 * head and joins the heads in the double binary tree over the nodes: tree 1
 * chains a node from its first GPU (the head) to its last, tree 2 from its
 * last to its first, so the two trees' heads, and their NICs, differ. */
#ifndef COLLSIM_DOUBLE_TREE_H
#define COLLSIM_DOUBLE_TREE_H

#define DOUBLE_TREE_MAX_CHILDREN 3 /* two in a binary tree, three at a chained tree's head */

typedef struct double_tree {
    int ranks;
    int depth;         /* edges from a root to the deepest rank of either tree */
    int *parent[2];    /* [tree][rank], -1 at the root */
    int *children[2];  /* [tree][rank * DOUBLE_TREE_MAX_CHILDREN + k], -1 past the last */
    int *depth_of[2];  /* [tree][rank]: edges up to the root */
    int *height_of[2]; /* [tree][rank]: edges down to its deepest descendant */
} double_tree;

void double_tree_init(double_tree *t, int ranks);
/* The depth of the trees double_tree_init_chained builds over NODES nodes of
 * PER_NODE ranks (per_node 1: double_tree_init's), without building them. */
int double_tree_levels(int nodes, int per_node);
/* NCCL's tree over NODES nodes of PER_NODE ranks; position g·PER_NODE + q is
 * GPU q of node g, group rank ORDER[position] (NULL: the position). */
void double_tree_init_chained(double_tree *t, int nodes, int per_node, const int *order);
void double_tree_free(double_tree *t);

/* Parent rank of RANK in TREE (0 or 1), or -1 at the root. */
int double_tree_parent(const double_tree *t, int tree, int rank);
/* Children ranks of RANK in TREE (up to DOUBLE_TREE_MAX_CHILDREN); returns the count. */
int double_tree_children(const double_tree *t, int tree, int rank, int children[DOUBLE_TREE_MAX_CHILDREN]);
/* Depth of RANK in TREE, and its height (edges down to its deepest leaf). */
int double_tree_depth(const double_tree *t, int tree, int rank);
int double_tree_height(const double_tree *t, int tree, int rank);

struct algo_params;
struct schedule;
/* The pipelined all-reduce over the two trees (allreduce_dbt.c): each tree
 * reduces then broadcasts half the vector in P segments (P's segments; by
 * default 2·depth). */
struct schedule *double_tree_schedule(const double_tree *t, const struct algo_params *p);

#endif
