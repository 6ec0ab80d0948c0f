/* binomial_tree.c — the binomial tree and its pipelined BC / Reduce.
 *
 * Broadcast, per rank and segment s (the vector cut into P segments):
 * receive s from the parent, then send s to each child in step order, each
 * send waiting for the one before it (and, through the connection, for s-1
 * to the same child).  This is App. C's conveyor over the §3.2 steps: in slot
 * t the root sends segment t to its step-1 child, t-1 to its step-2 child,
 * and so on.  Reduce is the exact time reverse: per segment, receive-reduce
 * from the children in reverse step order, then send the partial sum up. */
#include "algo/binomial_tree.h"
#include "algo/pipeline.h"

#include <stdlib.h>

#include "algo/group_check.h"
#include "algo/rank_math.h"

/* ceil(log2 N): the tree depth L and the root's number of children. */
static int binomial_depth(int n)
{
    int depth = 0;
    while ((1 << depth) < n) depth++;
    return depth;
}

/* Parent of virtual rank V (V > 0): V without its highest bit. */
static int binomial_parent(int v)
{
    return v - power_of_two_floor(v);
}

/* Children of V in step order (V + 2^j for 2^j > V, below N); returns how many. */
static int binomial_children(int v, int n, int *children)
{
    int count = 0;
    int bit = v == 0 ? 1 : 2 * power_of_two_floor(v);
    for (; v + bit < n; bit *= 2) children[count++] = v + bit;
    return count;
}

/* Emit rank RANK's ops: CHILDREN (real ranks, step order), PARENT (or -1). */
static void emit_rank(schedule *s, int rank, int parent, const int *children, int child_count, bool reduce)
{
    for (int segment = 0; segment < s->segments; segment++) {
        int previous = SCHED_NO_DEP;
        if (!reduce) {
            if (parent >= 0) previous = sched_recv(s, rank, parent, segment, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
            for (int c = 0; c < child_count; c++)
                previous = sched_send(s, rank, children[c], segment, 1, previous, SCHED_NO_DEP);
        } else {
            for (int c = child_count - 1; c >= 0; c--)
                previous = sched_recv(s, rank, children[c], segment, 1, true, previous, SCHED_NO_DEP);
            if (parent >= 0) sched_send(s, rank, parent, segment, 1, previous, SCHED_NO_DEP);
        }
    }
}

int binomial_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    if (!rooted_group_accepted(p, prim == PRIM_BCAST ? "binomial broadcast" : "binomial reduce", why, why_size))
        return 0;
    return pipeline_segments(p, binomial_depth(p->ranks), 1); /* L = ⌈log2 N⌉, 01 App. C.3; default P = 1 */
}

schedule *binomial_schedule(primitive prim, const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, root = p->root, segments = binomial_segments(prim, p, why, why_size);
    if (!segments) return NULL;
    schedule *s = schedule_create(prim, n, 0, segments);
    s->root = root;
    s->segments = segments;
    int *children = malloc(sizeof(int) * (size_t)(binomial_depth(n) + 1));
    for (int v = 0; v < n; v++) {
        int count = binomial_children(v, n, children);
        for (int c = 0; c < count; c++) children[c] = rank_mod(children[c] + root, n);
        emit_rank(s, rank_mod(v + root, n), v == 0 ? -1 : rank_mod(binomial_parent(v) + root, n), children, count,
                  prim == PRIM_REDUCE);
    }
    free(children);
    return s;
}
