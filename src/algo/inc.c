/* inc.c — in-network collectives (explainer 04 §1): the switches of the
 * group's aggregation tree (algo_params.inc, from the platform) run as
 * actors.  One "flow" moves a chunk range through the tree in P segments:
 *   up:   every contributing rank pushes segment s to its switch; a switch
 *         receives (reducing) segment s from each contributing child, then
 *         forwards it to its parent — or, at the root, starts it down;
 *   down: a switch receives segment s from its parent and multicasts it to
 *         every child whose subtree has a receiving rank.
 *   AR     all push, all receive (switch ALU + multicast, §1.1 + §1.2);
 *   Reduce all but the root push, the root receive-reduces the sum (§1.1);
 *   BC     the root pushes, all others receive (§1.2);
 *   AG / RS  N concurrent BC / Reduce flows, one per slice, each with its
 *          own switch actors (the seed: "N concurrent broadcasts");
 *   A2A    hardware scatter-gather (§1.3): all N-1 blocks submitted at once
 *          and routed by the crossbar, no per-destination rounds.
 * On a star (tree depth 1, each leg α_switch) every flow is a two-stage
 * pipeline: t = (P+1)(α_switch + M/(P·BW)) for AR / BC / Reduce (01 App. C.3
 * with L = 2), whose P -> ∞ limit is 04 §2.1's 2α_switch + M/BW. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/pipeline.h"

typedef enum { FLOW_ALLREDUCE, FLOW_REDUCE, FLOW_BCAST } flow_kind;

typedef struct flow {
    flow_kind kind;
    int root;            /* Reduce / BC root rank */
    int base;            /* first switch actor of the flow (index among switch actors) */
    int first, segments; /* chunks first .. first+segments-1, one per segment */
} flow;

static bool pushes(const flow *f, int rank)
{
    return f->kind == FLOW_ALLREDUCE || (f->kind == FLOW_REDUCE) == (rank != f->root);
}

static bool receives(const flow *f, int rank)
{
    return f->kind == FLOW_ALLREDUCE || (f->kind == FLOW_REDUCE) == (rank == f->root);
}

static void add_deps(schedule *s, int actor, int op, const int *deps, int count)
{
    for (int i = 0; i < count; i++) sched_add_dep(s, actor, op, deps[i]);
}

/* Emit one flow.  UP[k] / DOWN[k]: switch k's subtree has a pushing /
 * receiving rank (scratch arrays of tree->switches). */
static void emit_flow(schedule *s, const inc_tree *tree, const flow *f, bool *up, bool *down, int *scratch)
{
    int n = tree->ranks, k_count = tree->switches;
    bool reduce = f->kind != FLOW_BCAST;
    for (int k = 0; k < k_count; k++) up[k] = down[k] = false;
    for (int r = 0; r < n; r++)
        for (int k = tree->rank_parent[r]; k >= 0; k = tree->switch_parent[k]) {
            up[k] |= pushes(f, r);
            down[k] |= receives(f, r);
        }
#define SWITCH_ACTOR(k) (n + f->base + (k))
    for (int r = 0; r < n; r++) {
        int parent = SWITCH_ACTOR(tree->rank_parent[r]);
        for (int seg = 0; seg < f->segments && pushes(f, r); seg++)
            sched_send(s, r, parent, f->first + seg, 1, SCHED_NO_DEP, SCHED_NO_DEP);
        for (int seg = 0; seg < f->segments && receives(f, r); seg++)
            sched_recv(s, r, parent, f->first + seg, 1, f->kind == FLOW_REDUCE, SCHED_NO_DEP, SCHED_NO_DEP);
    }
    for (int k = 0; k < k_count; k++) {
        int self = SWITCH_ACTOR(k), parent = tree->switch_parent[k];
        for (int seg = 0; seg < f->segments && up[k]; seg++) {
            int chunk = f->first + seg, arrived = 0;
            for (int r = 0; r < n; r++)
                if (tree->rank_parent[r] == k && pushes(f, r))
                    scratch[arrived++] = sched_recv(s, self, r, chunk, 1, reduce, SCHED_NO_DEP, SCHED_NO_DEP);
            for (int c = 0; c < k_count; c++)
                if (tree->switch_parent[c] == k && up[c])
                    scratch[arrived++] = sched_recv(s, self, SWITCH_ACTOR(c), chunk, 1, reduce, SCHED_NO_DEP, SCHED_NO_DEP);
            if (parent >= 0) {
                add_deps(s, self, sched_send(s, self, SWITCH_ACTOR(parent), chunk, 1, SCHED_NO_DEP, SCHED_NO_DEP), scratch,
                         arrived);
                continue;
            }
            for (int r = 0; r < n; r++) /* the root turns the segment around */
                if (tree->rank_parent[r] == k && receives(f, r))
                    add_deps(s, self, sched_send(s, self, r, chunk, 1, SCHED_NO_DEP, SCHED_NO_DEP), scratch, arrived);
            for (int c = 0; c < k_count; c++)
                if (tree->switch_parent[c] == k && down[c])
                    add_deps(s, self, sched_send(s, self, SWITCH_ACTOR(c), chunk, 1, SCHED_NO_DEP, SCHED_NO_DEP), scratch,
                             arrived);
        }
        for (int seg = 0; seg < f->segments && parent >= 0 && down[k]; seg++) {
            int chunk = f->first + seg;
            int got = sched_recv(s, self, SWITCH_ACTOR(parent), chunk, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
            for (int r = 0; r < n; r++)
                if (tree->rank_parent[r] == k && receives(f, r)) sched_send(s, self, r, chunk, 1, got, SCHED_NO_DEP);
            for (int c = 0; c < k_count; c++)
                if (tree->switch_parent[c] == k && down[c]) sched_send(s, self, SWITCH_ACTOR(c), chunk, 1, got, SCHED_NO_DEP);
        }
    }
#undef SWITCH_ACTOR
}

static bool usable_tree(const algo_params *p, const char *what, char *why, int why_size)
{
    if (!p->inc) {
        snprintf(why, (size_t)why_size, "in-network %s needs INC-capable switches above the group (a platform with "
                 "'inc' on its switches)", what);
        return false;
    }
    if (p->inc->ranks != p->ranks || p->ranks < 2) {
        snprintf(why, (size_t)why_size, "in-network %s: the tree covers %d ranks, the group has %d", what, p->inc->ranks,
                 p->ranks);
        return false;
    }
    return true;
}

int inc_segments(primitive prim, const algo_params *p, int depth)
{
    algo_params q = *p;
    bool per_slice = prim == PRIM_ALLGATHER || prim == PRIM_REDUCESCATTER;
    if (q.segments == 0) q.segments = per_slice ? 1 : SEGMENTS_AUTO; /* default: P* for the size, 01 App. C.3 */
    return pipeline_segments(&q, 2 * depth, 1);
}

int inc_flow_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    if (prim == PRIM_ALLTOALL) return usable_tree(p, "all-to-all", why, why_size) ? 1 : 0;
    bool per_slice = prim == PRIM_ALLGATHER || prim == PRIM_REDUCESCATTER;
    int root = prim == PRIM_ALLREDUCE ? 0 : p->root; /* the all-reduce's flow turns at rank 0's side */
    if (!usable_tree(p, primitive_name(prim), why, why_size)) return 0;
    if (!per_slice && (root < 0 || root >= p->ranks)) {
        snprintf(why, (size_t)why_size, "in-network %s: root %d is not a rank of the group (0..%d)", primitive_name(prim),
                 root, p->ranks - 1);
        return 0;
    }
    return inc_segments(prim, p, p->inc->depth);
}

/* FLOWS flows (one per slice when PER_SLICE) of P segments each. */
static schedule *inc_schedule(primitive prim, flow_kind kind, bool per_slice, const algo_params *p, char *why,
                              int why_size)
{
    int segments = inc_flow_segments(prim, p, why, why_size);
    if (!segments) return NULL;
    const inc_tree *tree = p->inc;
    int n = p->ranks, flows = per_slice ? n : 1;
    schedule *s = schedule_create(prim, n, flows * tree->switches, flows * segments);
    s->segments = segments;
    s->root = per_slice ? 0 : p->root;
    s->switch_node = malloc(sizeof(int) * (size_t)(flows * tree->switches));
    bool *up = malloc(sizeof(bool) * 2 * (size_t)tree->switches), *down = up + tree->switches;
    int *scratch = malloc(sizeof(int) * (size_t)(n + tree->switches));
    for (int j = 0; j < flows; j++) {
        flow f = {kind, per_slice ? j : p->root, j * tree->switches, j * segments, segments};
        for (int k = 0; k < tree->switches; k++) s->switch_node[f.base + k] = tree->switch_node[k];
        emit_flow(s, tree, &f, up, down, scratch);
    }
    free(up);
    free(scratch);
    return s;
}

schedule *allreduce_inc(const algo_params *p, char *why, int why_size)
{
    algo_params q = *p;
    q.root = 0;
    return inc_schedule(PRIM_ALLREDUCE, FLOW_ALLREDUCE, false, &q, why, why_size);
}

schedule *bcast_inc(const algo_params *p, char *why, int why_size)
{
    return inc_schedule(PRIM_BCAST, FLOW_BCAST, false, p, why, why_size);
}

schedule *reduce_inc(const algo_params *p, char *why, int why_size)
{
    return inc_schedule(PRIM_REDUCE, FLOW_REDUCE, false, p, why, why_size);
}

schedule *allgather_inc(const algo_params *p, char *why, int why_size)
{
    return inc_schedule(PRIM_ALLGATHER, FLOW_BCAST, true, p, why, why_size);
}

schedule *reducescatter_inc(const algo_params *p, char *why, int why_size)
{
    return inc_schedule(PRIM_REDUCESCATTER, FLOW_REDUCE, true, p, why, why_size);
}

/* 04 §1.3: one submission per rank; the crossbar delivers every block at
 * once, so no send waits for another (n_α = 1 path, n_β = (N-1)/N). */
schedule *alltoall_inc(const algo_params *p, char *why, int why_size)
{
    if (!inc_flow_segments(PRIM_ALLTOALL, p, why, why_size)) return NULL;
    int n = p->ranks;
    schedule *s = schedule_create(PRIM_ALLTOALL, n, 0, n * n);
    for (int i = 0; i < n; i++)
        for (int k = 1; k < n; k++) {
            int to = (i + k) % n, from = (i - k + n) % n;
            sched_send(s, i, to, sched_block_first(s, i, to), 1, SCHED_NO_DEP, SCHED_NO_DEP);
            sched_recv(s, i, from, sched_block_first(s, from, i), 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
        }
    return s;
}
