/* schedule.c — building and sealing schedules; primitive names. */
#include "sched/schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"

schedule *schedule_create(primitive prim, int ranks, int switch_actors, int chunks)
{
    schedule *s = calloc(1, sizeof *s);
    s->prim = prim;
    s->ranks = ranks;
    s->actors = ranks + switch_actors;
    s->chunks = chunks;
    s->segments = 1;
    s->channels = 1;
    s->phase_count = 1;
    snprintf(s->phase_names[0], sizeof s->phase_names[0], "all");
    s->actor = calloc((size_t)s->actors, sizeof *s->actor);
    return s;
}

void schedule_free(schedule *s)
{
    if (!s) return;
    for (int a = 0; a < s->actors; a++) {
        free(s->actor[a].ops);
        free(s->actor[a].deps);
        free(s->actor[a].ranges);
    }
    free(s->actor);
    free(s->slice_owner);
    free(s->switch_node);
    free(s->input_slot);
    free(s->output_slot);
    if (s->generator && s->generator->release) s->generator->release(s->generator_state);
    free(s);
}

static int current_phase(const schedule *s)
{
    return s->phase_count - 1;
}

static int emit(schedule *s, int actor, op_kind kind, int peer, int chunk, int count, int dep_a, int dep_b)
{
    sched_actor *a = &s->actor[actor];
    a->ops = grow_array(a->ops, &a->op_capacity, a->op_count + 1, sizeof *a->ops);
    sched_op *op = &a->ops[a->op_count];
    op->kind = (uint8_t)kind;
    op->phase = (uint8_t)current_phase(s);
    op->channel = (uint8_t)s->current_channel;
    op->peer = peer;
    op->chunk = chunk;
    op->count = count;
    op->dep_first = a->dep_count;
    op->dep_count = 0;
    op->range_count = 0;
    op->range_first = 0;
    int index = a->op_count++;
    if (dep_a != SCHED_NO_DEP) sched_add_dep(s, actor, index, dep_a);
    if (dep_b != SCHED_NO_DEP) sched_add_dep(s, actor, index, dep_b);
    return index;
}

int sched_send(schedule *s, int actor, int peer, int chunk, int count, int dep_a, int dep_b)
{
    return emit(s, actor, OP_SEND, peer, chunk, count, dep_a, dep_b);
}

int sched_recv(schedule *s, int actor, int peer, int chunk, int count, bool reduce, int dep_a, int dep_b)
{
    return emit(s, actor, reduce ? OP_RECV_REDUCE : OP_RECV, peer, chunk, count, dep_a, dep_b);
}

int sched_local(schedule *s, int actor, bool reduce, int source, int destination, int count, int dep_a, int dep_b)
{
    int index = emit(s, actor, reduce ? OP_REDUCE : OP_COPY, actor, destination, count, dep_a, dep_b);
    s->actor[actor].ops[index].range_first = source;
    return index;
}

/* Emit one op moving RANGES: adjacent ranges merge; several remaining ones
 * are stored in the actor's ranges[] and the op counts their total. */
static int emit_ranges(schedule *s, int actor, op_kind kind, int peer, const chunk_range *ranges, int range_count,
                       int dep_a, int dep_b)
{
    sched_actor *a = &s->actor[actor];
    int first = a->range_count, total = 0;
    for (int i = 0; i < range_count; i++) {
        chunk_range *last = a->range_count > first ? &a->ranges[a->range_count - 1] : NULL;
        total += ranges[i].count;
        if (last && last->first + last->count == ranges[i].first) {
            last->count += ranges[i].count;
            continue;
        }
        a->ranges = grow_array(a->ranges, &a->range_capacity, a->range_count + 1, sizeof *a->ranges);
        a->ranges[a->range_count++] = ranges[i];
    }
    int stored = a->range_count - first;
    if (stored > UINT16_MAX) {
        fprintf(stderr, "collsim: internal error: one message of more than %d chunk ranges\n", (int)UINT16_MAX);
        abort();
    }
    int index = emit(s, actor, kind, peer, a->ranges[first].first, total, dep_a, dep_b);
    if (stored == 1) {
        a->range_count = first; /* one contiguous range: a plain op */
    } else {
        a->ops[index].range_count = (uint16_t)stored;
        a->ops[index].range_first = first;
    }
    return index;
}

int sched_send_ranges(schedule *s, int actor, int peer, const chunk_range *ranges, int range_count, int dep_a,
                      int dep_b)
{
    return emit_ranges(s, actor, OP_SEND, peer, ranges, range_count, dep_a, dep_b);
}

int sched_recv_ranges(schedule *s, int actor, int peer, const chunk_range *ranges, int range_count, bool reduce,
                      int dep_a, int dep_b)
{
    return emit_ranges(s, actor, reduce ? OP_RECV_REDUCE : OP_RECV, peer, ranges, range_count, dep_a, dep_b);
}

int sched_op_range_count(const sched_op *op)
{
    return op->range_count ? op->range_count : 1;
}

chunk_range sched_op_range(const sched_actor *a, const sched_op *op, int i)
{
    if (!op->range_count) return (chunk_range){op->chunk, op->count};
    return a->ranges[op->range_first + i];
}

/* Dependencies of one op are contiguous in deps[]: ops are emitted in order and
 * extra dependencies are only added to the most recent op, or by sealing,
 * which rebuilds the arrays. */
void sched_add_dep(schedule *s, int actor, int op, int dep)
{
    sched_actor *a = &s->actor[actor];
    if (dep == SCHED_NO_DEP || dep == op) return;
    if (op != a->op_count - 1) {
        fprintf(stderr, "collsim: internal error: dependency added to an earlier op\n");
        abort();
    }
    a->deps = grow_array(a->deps, &a->dep_capacity, a->dep_count + 1, sizeof *a->deps);
    a->deps[a->dep_count++] = dep;
    a->ops[op].dep_count++;
}

void sched_set_phase(schedule *s, int phase, const char *name)
{
    if (phase >= SCHED_MAX_PHASES) phase = SCHED_MAX_PHASES - 1;
    snprintf(s->phase_names[phase], sizeof s->phase_names[phase], "%s", name);
    if (phase + 1 > s->phase_count) s->phase_count = phase + 1;
}

void sched_set_channel(schedule *s, int channel)
{
    s->current_channel = channel;
    if (channel + 1 > s->channels) s->channels = channel + 1;
}

/* Each op also waits for the previous op of the same direction on the same
 * connection (peer and channel): sends to one peer leave one at a time, in
 * program order, and receives from one peer match in program order.  Each
 * channel has its own connections (NCCL's per-channel buffers). */
void schedule_seal(schedule *s)
{
    if (s->sealed) return;
    size_t slots = 2 * (size_t)s->actors * (size_t)s->channels;
    int *last = malloc(sizeof(int) * slots);
    for (size_t i = 0; i < slots; i++) last[i] = SCHED_NO_DEP;
    for (int a = 0; a < s->actors; a++) {
        sched_actor *actor = &s->actor[a];
        int32_t *deps = malloc(sizeof(int32_t) * (size_t)(actor->dep_count + actor->op_count + 1));
        int count = 0;
        for (int o = 0; o < actor->op_count; o++) {
            sched_op *op = &actor->ops[o];
            int first = count;
            for (int d = 0; d < op->dep_count; d++) deps[count++] = actor->deps[op->dep_first + d];
            op->dep_first = first;
            op->dep_count = count - first;
            if (sched_op_local(op)) continue; /* on no connection */
            size_t slot = ((size_t)op->channel * (size_t)s->actors + (size_t)op->peer) * 2 + (op->kind != OP_SEND);
            if (last[slot] != SCHED_NO_DEP) {
                bool present = false;
                for (int d = first; d < count; d++) present |= deps[d] == last[slot];
                if (!present) deps[count++] = last[slot];
            }
            last[slot] = o;
            s->messages += op->kind == OP_SEND;
            op->dep_first = first;
            op->dep_count = count - first;
        }
        for (int o = 0; o < actor->op_count; o++) { /* reset only what this actor touched */
            const sched_op *op = &actor->ops[o];
            if (sched_op_local(op)) continue;
            last[((size_t)op->channel * (size_t)s->actors + (size_t)op->peer) * 2 + (op->kind != OP_SEND)] = SCHED_NO_DEP;
        }
        free(actor->deps);
        actor->deps = deps;
        actor->dep_count = count;
        actor->dep_capacity = count;
    }
    free(last);
    s->sealed = true;
}

void sched_op_graph(const schedule *s, int actor, op_graph *g)
{
    int ops = s->actor[actor].op_count;
    long deps = 0;
    for (int o = 0; o < ops; o++) deps += sched_op_at(s, actor, o).dep_count;
    g->offset = calloc((size_t)(ops + 1 + deps + 1), sizeof(int));
    g->list = g->offset + ops + 1;
    g->remaining = calloc((size_t)ops + 1, sizeof(int));
    for (int o = 0; o < ops; o++) {
        sched_op op = sched_op_at(s, actor, o);
        for (int d = 0; d < op.dep_count; d++) g->offset[sched_op_dep(s, actor, o, &op, d) + 1]++;
    }
    for (int o = 0; o < ops; o++) g->offset[o + 1] += g->offset[o];
    int *fill = calloc((size_t)ops + 1, sizeof(int));
    for (int o = 0; o < ops; o++) {
        sched_op op = sched_op_at(s, actor, o);
        g->remaining[o] = op.dep_count;
        for (int d = 0; d < op.dep_count; d++) {
            int dep = sched_op_dep(s, actor, o, &op, d);
            g->list[g->offset[dep] + fill[dep]++] = o;
        }
    }
    free(fill);
}

void op_graph_free(op_graph *g)
{
    free(g->offset);
    free(g->remaining);
    g->offset = g->list = g->remaining = NULL;
}

int sched_slice_count(const schedule *s)
{
    return s->chunks / (s->slice_positions > 0 ? s->slice_positions : s->ranks);
}

int sched_slice_first(const schedule *s, int rank)
{
    return rank * sched_slice_count(s);
}

int sched_slice_owner(const schedule *s, int chunk)
{
    int position = chunk / sched_slice_count(s);
    return s->slice_owner ? s->slice_owner[position] : position;
}

int sched_block_first(const schedule *s, int src, int dst)
{
    int per_block = s->chunks / (s->ranks * s->ranks);
    return (src * s->ranks + dst) * per_block;
}

static const char *const names[PRIM_COUNT] = {"bcast", "reduce", "allreduce", "allgather", "reducescatter", "alltoall",
                                              "sendrecv", "permutation", "traffic"};

const char *primitive_name(primitive p)
{
    return p < PRIM_COUNT ? names[p] : "?";
}

bool primitive_from_name(const char *name, primitive *p)
{
    for (int i = 0; i < PRIM_COUNT; i++)
        if (strcmp(names[i], name) == 0) {
            *p = (primitive)i;
            return true;
        }
    return false;
}

double primitive_busbw_factor(primitive p, int ranks)
{
    double n = ranks;
    switch (p) {
    case PRIM_ALLREDUCE: return 2 * (n - 1) / n;  /* 01 App. D */
    case PRIM_ALLGATHER:
    case PRIM_REDUCESCATTER:
    case PRIM_ALLTOALL: return (n - 1) / n;
    default: return 1;
    }
}

void sched_cursor_fill(sched_cursor *c, int o)
{
    int ops = c->s->actor[c->actor].op_count;
    if (o >= c->first) c->first = o; /* moving forward: O and the ops after it */
    else c->first = o >= SCHED_CURSOR_BLOCK - 1 ? o - (SCHED_CURSOR_BLOCK - 1) : 0; /* backward: the ops before it */
    c->count = ops - c->first < SCHED_CURSOR_BLOCK ? ops - c->first : SCHED_CURSOR_BLOCK;
    const sched_generator *g = c->s->generator;
    if (g->ops) {
        g->ops(c->s, c->actor, c->first, c->count, c->block);
        return;
    }
    for (int i = 0; i < c->count; i++) c->block[i] = g->op(c->s, c->actor, c->first + i);
}

int sched_send_peers(const schedule *s, int a, int *count, int *peers)
{
    int distinct = 0;
    sched_cursor cursor;
    sched_cursor_init(&cursor, s, a);
    for (int o = 0; o < s->actor[a].op_count; o++) {
        sched_op op = sched_cursor_op(&cursor, o);
        if (op.kind == OP_SEND && count[op.peer]++ == 0) peers[distinct++] = op.peer;
    }
    return distinct;
}

long sched_messages(const schedule *s)
{
    if (s->sealed) return s->messages;
    long n = 0;
    for (int a = 0; a < s->actors; a++)
        for (int o = 0; o < s->actor[a].op_count; o++) n += s->actor[a].ops[o].kind == OP_SEND;
    return n;
}
