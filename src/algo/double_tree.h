/* double_tree.h — the two complementary binary trees of DBT all-reduce
 * (explainer 01 §5.2).  Both are heap-shaped over N positions (position p
 * has children 2p+1 and 2p+2): T1 puts rank p at position p, the §5.2 tree
 * R0(R1(R3), R2) at N = 4; T2 puts T1's leaves, highest rank first, at its
 * interior positions and T1's interior ranks at its leaf positions, so each
 * rank is interior in one tree and a leaf in the other (for odd N, rank
 * floor(N/2) is a leaf in both).  T2's leaf positions are filled in order,
 * each with the highest unused T1-interior rank that is not the T1 parent of
 * its T2 parent, so the trees share no edge (every N >= 4 but 5, 6, 9):
 * R3(R2(R1), R0) at N = 4, as in §5.2. */
#ifndef COLLSIM_DOUBLE_TREE_H
#define COLLSIM_DOUBLE_TREE_H

typedef struct double_tree {
    int ranks;
    int depth;           /* heap depth, floor(log2 N): both trees */
    int *rank_at[2];     /* [tree][position] */
    int *position_of[2]; /* [tree][rank] */
} double_tree;

void double_tree_init(double_tree *t, int ranks);
void double_tree_free(double_tree *t);

/* Parent rank of RANK in TREE (0 or 1), or -1 at the root. */
int double_tree_parent(const double_tree *t, int tree, int rank);
/* Children ranks of RANK in TREE (0, 1 or 2), left first; returns the count. */
int double_tree_children(const double_tree *t, int tree, int rank, int children[2]);
/* Depth of RANK in TREE, and its height (edges down to its deepest leaf). */
int double_tree_depth(const double_tree *t, int tree, int rank);
int double_tree_height(const double_tree *t, int tree, int rank);

#endif
