/* local_ops.c — a schedule's sends and receives with dependencies carried
 * through its local ops (local_ops.h). */
#include "sched/local_ops.h"

#include <stdlib.h>
#include <string.h>

#include "util/memory.h"

bool sched_has_local_ops(const schedule *s)
{
    for (int a = 0; a < s->actors; a++)
        for (int o = 0; o < s->actor[a].op_count; o++)
            if (sched_op_local(&s->actor[a].ops[o])) return true;
    return false;
}

/* A list of new op indices (the dependencies a local op stands for). */
typedef struct index_list {
    int *items, count, capacity;
} index_list;

/* Whether ops A and B of one actor share a connection (the later of the two waits for the earlier). */
static bool same_connection(const sched_op *a, const sched_op *b)
{
    return a->peer == b->peer && a->channel == b->channel && (a->kind == OP_SEND) == (b->kind == OP_SEND);
}

/* Add new op ITEM of VIEW's actor A to L, keeping one op per connection (the
 * latest: it waits for the others), so that lists stay short. */
static void list_add(index_list *l, const sched_actor *a, int item)
{
    for (int i = 0; i < l->count; i++)
        if (same_connection(&a->ops[l->items[i]], &a->ops[item])) {
            if (item > l->items[i]) l->items[i] = item;
            return;
        }
    l->items = grow_array(l->items, &l->capacity, l->count + 1, sizeof *l->items);
    l->items[l->count++] = item;
}

/* The new indices old op O of A stands for: itself when it stays, else its
 * dependencies' (through MAPPED and STANDS_FOR), into OUT. */
static void expand(const sched_actor *a, const sched_actor *view, const int *mapped, const index_list *stands_for, int o,
                   index_list *out)
{
    const sched_op *op = &a->ops[o];
    for (int d = 0; d < op->dep_count; d++) {
        int dep = a->deps[op->dep_first + d];
        if (mapped[dep] >= 0) list_add(out, view, mapped[dep]);
        else
            for (int i = 0; i < stands_for[dep].count; i++) list_add(out, view, stands_for[dep].items[i]);
    }
}

static void copy_shape(schedule *to, const schedule *from)
{
    to->root = from->root;
    to->peer = from->peer;
    to->segments = from->segments;
    to->channels = from->channels;
    to->slice_positions = from->slice_positions;
    to->phase_count = from->phase_count;
    memcpy(to->phase_names, from->phase_names, sizeof to->phase_names);
    if (from->slice_owner) {
        int positions = from->slice_positions > 0 ? from->slice_positions : from->ranks;
        to->slice_owner = malloc(sizeof(int) * (size_t)positions);
        memcpy(to->slice_owner, from->slice_owner, sizeof(int) * (size_t)positions);
    }
    if (from->switch_node) {
        int switches = from->actors - from->ranks;
        to->switch_node = malloc(sizeof(int) * (size_t)switches + 1);
        memcpy(to->switch_node, from->switch_node, sizeof(int) * (size_t)switches);
    }
}

schedule *sched_network_view(const schedule *s_in)
{
    schedule *s = (schedule *)s_in;
    schedule_seal(s);
    schedule *view = schedule_create(s->prim, s->ranks, s->actors - s->ranks, s->chunks);
    copy_shape(view, s);
    index_list deps = {0};
    for (int a = 0; a < s->actors; a++) {
        const sched_actor *actor = &s->actor[a];
        int *mapped = malloc(sizeof(int) * (size_t)(actor->op_count + 1));
        index_list *stands_for = calloc((size_t)actor->op_count + 1, sizeof *stands_for);
        for (int o = 0; o < actor->op_count; o++) {
            const sched_op *op = &actor->ops[o];
            mapped[o] = -1;
            if (sched_op_local(op)) {
                expand(actor, &view->actor[a], mapped, stands_for, o, &stands_for[o]);
                continue;
            }
            deps.count = 0;
            expand(actor, &view->actor[a], mapped, stands_for, o, &deps);
            sched_actor *to = &view->actor[a];
            int index = to->op_count;
            to->ops = grow_array(to->ops, &to->op_capacity, index + 1, sizeof *to->ops);
            to->ops[index] = *op;
            to->ops[index].dep_first = to->dep_count;
            to->ops[index].dep_count = deps.count;
            to->deps = grow_array(to->deps, &to->dep_capacity, to->dep_count + deps.count + 1, sizeof *to->deps);
            if (deps.count) memcpy(to->deps + to->dep_count, deps.items, sizeof(int) * (size_t)deps.count);
            to->dep_count += deps.count;
            if (op->range_count) { /* its ranges move with it */
                to->ops[index].range_first = to->range_count;
                to->ranges = grow_array(to->ranges, &to->range_capacity, to->range_count + op->range_count,
                                        sizeof *to->ranges);
                memcpy(to->ranges + to->range_count, actor->ranges + op->range_first,
                       sizeof *to->ranges * op->range_count);
                to->range_count += op->range_count;
            }
            view->messages += op->kind == OP_SEND;
            to->op_count++;
            mapped[o] = index;
        }
        for (int o = 0; o < actor->op_count; o++) free(stands_for[o].items);
        free(stands_for);
        free(mapped);
    }
    free(deps.items);
    view->sealed = true; /* the per-connection order came with the dependencies */
    return view;
}
