/* allreduce_dbt.c — double binary tree all-reduce (explainer 01 §5.2, App.
 * C): two complementary heap-shaped trees (double_tree.c: each rank
 * interior in one, a leaf in the other); tree T1 reduces then broadcasts the
 * first half of the vector, T2 the second, concurrently, each half cut into
 * P segments (default 2 floor(log2 N), the L of App. C.3).  With D the trees'
 * depth, 2D steps per tree: reduce step j moves a partial sum child -> parent
 * from the ranks of height j-1 (a rank sends as soon as its subtree can be
 * summed, so shallow leaves do not idle), broadcast step D+j parent -> child
 * to depth j.  Pipelined as App. C's conveyor: step j carries segment s in
 * slot s+j, 2D+P-1 slots; each rank's ops of a slot wait for all its ops of
 * its previous slot.
 * Seed: n_alpha = 2 ceil(log2 N), n_beta = ceil(log2 N) at P = 1 (§5.2 closed
 * form), M/BW at P* (§5.2, 02 §5.1) or 2 M/BW (00 §4, 04 §3.1).
 * On a star a slot lasts alpha + K m/BW, K the most sends (or receives) one
 * rank has in it, m = M/(2P): t = sum over slots.  At N = 4:
 * (P+3) alpha + (3P+2) M/(2P BW); at N = 2^D >= 8 with P >= 2D-2:
 * (2D+P-1) alpha + (4P+4D-8) M/(2P BW), i.e. 2 M/BW at large P (a rank
 * interior in one tree sends 4 segments per slot: 00 §4's 2 M/BW). */
#include <stddef.h>

#include "algo/double_tree.h"
#include "algo/group_check.h"

typedef struct slot_ops {
    int ops[16], count;
} slot_ops;

/* Emit op OP's barrier: it waits for every op of the rank's previous slot. */
static void after(schedule *s, int rank, int op, const slot_ops *previous, slot_ops *current)
{
    for (int k = 0; k < previous->count; k++) sched_add_dep(s, rank, op, previous->ops[k]);
    current->ops[current->count++] = op;
}

/* Rank RANK's ops of slot SLOT in tree TREE: each of its four roles (receive
 * from children, send up, receive from the parent, send down) acts in one
 * step, on segment SLOT - step when that is a segment. */
static void emit_tree_slot(schedule *s, const double_tree *t, int tree, int rank, int slot, const slot_ops *previous,
                           slot_ops *current)
{
    int segments = s->segments, depth = t->depth, children[2];
    int child_count = double_tree_children(t, tree, rank, children), parent = double_tree_parent(t, tree, rank);
    int first_chunk = tree * segments;
#define SEGMENT_AT(step) (slot - (step) >= 0 && slot - (step) < segments)
    for (int c = 0; c < child_count; c++) {
        int step = double_tree_height(t, tree, children[c]) + 1;
        if (SEGMENT_AT(step))
            after(s, rank, sched_recv(s, rank, children[c], first_chunk + slot - step, 1, true, SCHED_NO_DEP, SCHED_NO_DEP),
                  previous, current);
    }
    int up = double_tree_height(t, tree, rank) + 1, down = depth + double_tree_depth(t, tree, rank);
    if (parent >= 0 && SEGMENT_AT(up))
        after(s, rank, sched_send(s, rank, parent, first_chunk + slot - up, 1, SCHED_NO_DEP, SCHED_NO_DEP), previous,
              current);
    if (parent >= 0 && SEGMENT_AT(down))
        after(s, rank, sched_recv(s, rank, parent, first_chunk + slot - down, 1, false, SCHED_NO_DEP, SCHED_NO_DEP),
              previous, current);
    for (int c = 0; c < child_count; c++)
        if (SEGMENT_AT(down + 1))
            after(s, rank, sched_send(s, rank, children[c], first_chunk + slot - down - 1, 1, SCHED_NO_DEP, SCHED_NO_DEP),
                  previous, current);
#undef SEGMENT_AT
}

schedule *allreduce_dbt(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!group_accepted(p, "double binary tree all-reduce", NULL, why, why_size)) return NULL;
    double_tree t;
    double_tree_init(&t, n);
    int segments = p->segments > 0 ? p->segments : 2 * t.depth;
    schedule *s = schedule_create(PRIM_ALLREDUCE, n, 0, 2 * segments);
    s->segments = segments;
    for (int rank = 0; rank < n; rank++) {
        slot_ops previous = {.count = 0};
        for (int slot = 1; slot < 2 * t.depth + segments; slot++) {
            slot_ops current = {.count = 0};
            for (int tree = 0; tree < 2; tree++) emit_tree_slot(s, &t, tree, rank, slot, &previous, &current);
            if (current.count > 0) previous = current;
        }
    }
    double_tree_free(&t);
    return s;
}
