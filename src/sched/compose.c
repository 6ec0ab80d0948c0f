/* compose.c — embedding one schedule in another. */
#include "sched/compose.h"

#include <stdbool.h>
#include <stdlib.h>

#include "util/memory.h"

/* Whether ops X and Y of one actor use the same connection (channel, peer,
 * direction: what sealing chains in program order). */
static bool same_connection(const sched_op *x, const sched_op *y)
{
    return !sched_op_local(x) && !sched_op_local(y) && x->channel == y->channel && x->peer == y->peer &&
           (x->kind == OP_SEND) == (y->kind == OP_SEND);
}

/* Sealing chains a connection's ops in program order, each waiting for the
 * one before, so a later op on a sink's connection, or a sink waiting for
 * it, finishes no sooner: the same wait, with as many dependencies as the
 * range has connections instead of one per sink (a ring part's N - 1
 * sends). */
int sched_part_sinks(const sched_actor *a, int first, int end, int *sinks)
{
    bool *needed = calloc((size_t)(end - first) + 1, sizeof(bool));
    for (int o = first; o < end; o++)
        for (int d = 0; d < a->ops[o].dep_count; d++) {
            int dep = a->deps[a->ops[o].dep_first + d];
            if (dep >= first) needed[dep - first] = true;
        }
    /* a later op on the connection covers an earlier one: walk back, keeping the last per connection */
    int count = 0, kept_first = end - first;
    int *last = malloc(sizeof(int) * ((size_t)(end - first) + 1)); /* the latest op of each connection seen */
    int connections = 0;
    for (int o = end - 1; o >= first; o--) {
        const sched_op *op = &a->ops[o];
        bool covered = false;
        for (int c = 0; c < connections && !covered; c++) covered = same_connection(&a->ops[last[c]], op);
        if (!covered && !sched_op_local(op)) last[connections++] = o;
        if (!needed[o - first] && !covered) sinks[--kept_first] = o;
    }
    for (int k = kept_first; k < end - first; k++) sinks[count++] = sinks[k];
    free(last);
    free(needed);
    return count;
}

void sched_embed(schedule *parent, const schedule *child, const int *actor_map, int first_chunk, int width,
                 int *part_start)
{
    for (int a = 0; a < child->actors; a++) {
        const sched_actor *from = &child->actor[a];
        if (from->op_count == 0) continue;
        int to = actor_map[a], base = parent->actor[to].op_count;
        int *sinks = malloc(sizeof(int) * ((size_t)(base - part_start[to]) + 1));
        int sink_count = sched_part_sinks(&parent->actor[to], part_start[to], base, sinks);
        chunk_range *ranges = NULL;
        int range_capacity = 0;
        for (int o = 0; o < from->op_count; o++) {
            const sched_op *op = &from->ops[o];
            int peer = actor_map[op->peer], range_count = sched_op_range_count(op);
            ranges = grow_array(ranges, &range_capacity, range_count, sizeof *ranges);
            for (int i = 0; i < range_count; i++) {
                chunk_range r = sched_op_range(from, op, i);
                ranges[i] = (chunk_range){first_chunk + r.first * width, r.count * width};
            }
            int index = op->kind == OP_SEND
                            ? sched_send_ranges(parent, to, peer, ranges, range_count, SCHED_NO_DEP, SCHED_NO_DEP)
                            : sched_recv_ranges(parent, to, peer, ranges, range_count, op->kind == OP_RECV_REDUCE,
                                                SCHED_NO_DEP, SCHED_NO_DEP);
            parent->actor[to].ops[index].channel = (uint8_t)(parent->current_channel + op->channel);
            for (int d = 0; d < op->dep_count; d++) sched_add_dep(parent, to, index, base + from->deps[op->dep_first + d]);
            if (op->dep_count == 0)
                for (int k = 0; k < sink_count; k++) sched_add_dep(parent, to, index, sinks[k]);
        }
        free(ranges);
        free(sinks);
        part_start[to] = base;
    }
    if (parent->current_channel + child->channels > parent->channels)
        parent->channels = parent->current_channel + child->channels;
}

schedule *sched_channels(schedule *const *one, int channels, const int *const *order)
{
    const schedule *first = one[0];
    int n = first->ranks, switches = first->actors - first->ranks, chunks = first->chunks;
    schedule *s = schedule_create(first->prim, n, channels * switches, channels * chunks);
    s->segments = first->segments;
    s->root = order[0][first->root];
    s->peer = first->peer;
    if (switches > 0) s->switch_node = malloc(sizeof(int) * (size_t)(channels * switches));
    bool sliced = first->prim == PRIM_ALLGATHER || first->prim == PRIM_REDUCESCATTER;
    if (sliced) {
        s->slice_positions = channels * n;
        s->slice_owner = malloc(sizeof(int) * (size_t)(channels * n));
    }
    int *map = malloc(sizeof(int) * (size_t)first->actors), *part_start = malloc(sizeof(int) * (size_t)s->actors);
    for (int c = 0; c < channels; c++) {
        const schedule *copy = one[c];
        for (int a = 0; a < n; a++) map[a] = order[c][a];
        for (int k = 0; k < switches; k++) {
            map[n + k] = n + c * switches + k;
            s->switch_node[c * switches + k] = copy->switch_node[k];
        }
        for (int p = 0; sliced && p < n; p++)
            s->slice_owner[c * n + p] = order[c][copy->slice_owner ? copy->slice_owner[p] : p];
        for (int a = 0; a < s->actors; a++) part_start[a] = s->actor[a].op_count; /* channels do not wait for each other */
        sched_set_channel(s, c);
        sched_embed(s, copy, map, c * chunks, 1, part_start);
    }
    sched_set_channel(s, 0);
    free(map);
    free(part_start);
    return s;
}
