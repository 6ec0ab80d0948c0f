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
 * On a star (one access link per rank) a slot lasts alpha + K m/BW, K the
 * most sends (or receives) one rank has in it, m = M/(2P), so n_alpha =
 * 2D+P-1 and n_beta = (sum of K)/(2P).  At N = 4:
 * (P+3) alpha + (3P+2) M/(2P BW); at N = 2^D >= 8 with P >= 2D-2:
 * (2D+P-1) alpha + (4P+4D-8) M/(2P BW), i.e. 2 M/BW at large P (a rank
 * interior in one tree sends 4 segments per slot: 00 §4's 2 M/BW). */
#include <stddef.h>

#include "algo/double_tree.h"
#include "algo/group_check.h"
#include "algo/pipeline.h"

/* One rank's ops of one slot, and of its previous non-empty slot: in each
 * of the two trees a receive and a send per child, one up, one down. */
typedef struct slot_ops {
    int ops[2 * (2 * DOUBLE_TREE_MAX_CHILDREN + 2)], count;
} slot_ops;

typedef struct slot_context {
    schedule *s;
    int rank, slot, first_chunk; /* first chunk of the tree's half */
    const slot_ops *previous;
    slot_ops *current;
} slot_context;

/* The op of a role that acts in STEP, on segment slot - STEP if that is a
 * segment; it waits for every op of the rank's previous slot. */
static void act(slot_context *c, op_kind kind, int peer, int step)
{
    int segment = c->slot - step;
    if (segment < 0 || segment >= c->s->segments) return;
    int chunk = c->first_chunk + segment;
    int op = kind == OP_SEND ? sched_send(c->s, c->rank, peer, chunk, 1, SCHED_NO_DEP, SCHED_NO_DEP)
                             : sched_recv(c->s, c->rank, peer, chunk, 1, kind == OP_RECV_REDUCE, SCHED_NO_DEP,
                                          SCHED_NO_DEP);
    for (int k = 0; k < c->previous->count; k++) sched_add_dep(c->s, c->rank, op, c->previous->ops[k]);
    c->current->ops[c->current->count++] = op;
}

/* The rank's roles in TREE: receive-reduce from each child in the child's
 * step (its height + 1), send up in its own, receive the result from its
 * parent in broadcast step D + depth, send it down one step later. */
static void act_in_tree(slot_context *c, const double_tree *t, int tree)
{
    int children[DOUBLE_TREE_MAX_CHILDREN], child_count = double_tree_children(t, tree, c->rank, children);
    int parent = double_tree_parent(t, tree, c->rank), down = t->depth + double_tree_depth(t, tree, c->rank);
    c->first_chunk = tree * c->s->segments;
    for (int k = 0; k < child_count; k++)
        act(c, OP_RECV_REDUCE, children[k], double_tree_height(t, tree, children[k]) + 1);
    if (parent >= 0) {
        act(c, OP_SEND, parent, double_tree_height(t, tree, c->rank) + 1);
        act(c, OP_RECV, parent, down);
    }
    for (int k = 0; k < child_count; k++) act(c, OP_SEND, children[k], down + 1);
}

schedule *double_tree_schedule(const double_tree *t, const algo_params *p)
{
    int n = t->ranks;
    int segments = pipeline_segments(p, 2 * t->depth, 2 * t->depth); /* L = 2D, 01 App. C.3; default P = L */
    schedule *s = schedule_create(PRIM_ALLREDUCE, n, 0, 2 * segments);
    s->segments = segments;
    for (int rank = 0; rank < n; rank++) {
        slot_ops previous = {.count = 0};
        for (int slot = 1; slot < 2 * t->depth + segments; slot++) {
            slot_ops current = {.count = 0};
            slot_context c = {s, rank, slot, 0, &previous, &current};
            for (int tree = 0; tree < 2; tree++) act_in_tree(&c, t, tree);
            if (current.count > 0) previous = current;
        }
    }
    return s;
}

int double_tree_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    if (!group_accepted(p, "double binary tree all-reduce", NULL, why, why_size)) return 0;
    int depth = double_tree_levels(p->ranks, 1);
    return pipeline_segments(p, 2 * depth, 2 * depth); /* as double_tree_schedule's */
}

schedule *allreduce_dbt(const algo_params *p, char *why, int why_size)
{
    if (!double_tree_segments(PRIM_ALLREDUCE, p, why, why_size)) return NULL;
    double_tree t;
    double_tree_init(&t, p->ranks);
    schedule *s = double_tree_schedule(&t, p);
    double_tree_free(&t);
    return s;
}
