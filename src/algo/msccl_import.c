/* msccl_import.c — an MSCCL program (msccl_program.h) as a collsim
 * schedule (docs/schedules.md, "From MSCCL to collsim").
 *
 * Invariants:
 *   1. Every rank holds MSCCL's three buffers as slots of its own (input,
 *      output, scratch; aliased as MSCCL aliases them in place), and the
 *      schedule's input and output maps say where each chunk of the
 *      collective starts and must end, so the verifier checks the
 *      collective's postcondition on the output buffer.
 *   2. A threadblock is a lane: each step waits for the step before it in
 *      its threadblock, for its cross-threadblock dependency and for those
 *      of the nops just before it; a threadblock's channel is its ops'
 *      channel, so its messages keep their order on their connection.
 *   3. A step that receives is a receive into staging slots of its own,
 *      posted once the step's cross-threadblock dependencies are met (not
 *      the step before it: MSCCL's connection FIFO takes the message before
 *      the step runs, so two threadblocks that each send, then receive,
 *      from one another do not deadlock), then the step itself: a local
 *      copy or reduction (no time) out of the staging slots, after the step
 *      before it; a fused step then sends the result (rrs: the sum, kept in
 *      the staging slots only).
 *   4. A rank's ops are emitted in a fixed order that every dependency
 *      respects: among the threadblocks whose next step can run, the one
 *      with the lowest step number, then the lowest id; or, when every step
 *      of the rank carries collsim's `order` attribute (written by
 *      msccl_xml.c, ignored by MSCCL), the lowest order: the program order
 *      the file was written from, so a schedule read back posts its
 *      simultaneous ops in the same order (the packet model's ties).  A rank whose
 *      threadblocks wait for one another in a cycle is refused, and so is
 *      a schedule in which some step never runs (critical_path.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/msccl_program.h"
#include "sched/critical_path.h"
#include "util/memory.h"

/* Where rank r's buffers start among its slots. */
typedef struct layout {
    int grid;                 /* chunks of the collective's grid */
    int factor;               /* chunks per rank's share (AG / RS / A2A), else nchunksperloop */
    int size[MSCCL_BUFFERS];  /* each buffer's chunks as the file declares them */
    int *base;                /* ranks x MSCCL_BUFFERS */
    int *temporary;           /* per rank: the next free slot for receives' staging */
    int slots;
} layout;

static bool fail_step(diag *d, const msccl_program *p, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static bool fail_step(diag *d, const msccl_program *p, int line, const char *fmt, ...)
{
    char message[900];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    return diag_at(d, p->path, line, 0, "%s", message);
}

/* The chunks of input and output the collective needs per rank (grid G, N ranks). */
static void needed(primitive prim, int loop, int n, int *input, int *output)
{
    *input = *output = loop;
    if (prim == PRIM_ALLGATHER) *input = loop / n;
    if (prim == PRIM_REDUCESCATTER) *output = loop / n;
}

static bool plan_layout(const msccl_program *p, int n, layout *l, diag *d)
{
    int loop = p->nchunksperloop;
    bool shares = p->prim == PRIM_ALLGATHER || p->prim == PRIM_REDUCESCATTER || p->prim == PRIM_ALLTOALL;
    if (shares && loop % n != 0)
        return fail_step(d, p, p->line, "nchunksperloop %d is not a multiple of ngpus %d: a %s gives every rank the same "
                         "share", loop, n, p->coll);
    l->factor = shares ? loop / n : loop;
    l->grid = p->prim == PRIM_ALLTOALL ? loop * n : loop;
    int input, output;
    needed(p->prim, loop, n, &input, &output);
    l->base = malloc(sizeof(int) * (size_t)n * MSCCL_BUFFERS);
    l->temporary = malloc(sizeof(int) * (size_t)n);
    l->slots = 0;
    for (int r = 0; r < n; r++) {
        const msccl_gpu *g = &p->gpus[r];
        int in = g->chunks[MSCCL_INPUT] > input ? g->chunks[MSCCL_INPUT] : input;
        int out = g->chunks[MSCCL_OUTPUT] > output ? g->chunks[MSCCL_OUTPUT] : output;
        int *base = &l->base[r * MSCCL_BUFFERS], end;
        if (!p->inplace) {
            base[MSCCL_INPUT] = 0, base[MSCCL_OUTPUT] = in, end = in + out;
        } else if (p->prim == PRIM_ALLGATHER) { /* the input is rank r's share of the output */
            base[MSCCL_OUTPUT] = 0, base[MSCCL_INPUT] = r * l->factor;
            end = out > base[MSCCL_INPUT] + in ? out : base[MSCCL_INPUT] + in;
        } else if (p->prim == PRIM_REDUCESCATTER) { /* the output is rank r's share of the input */
            base[MSCCL_INPUT] = 0, base[MSCCL_OUTPUT] = r * l->factor;
            end = in > base[MSCCL_OUTPUT] + out ? in : base[MSCCL_OUTPUT] + out;
        } else {
            base[MSCCL_INPUT] = base[MSCCL_OUTPUT] = 0, end = in > out ? in : out;
        }
        base[MSCCL_SCRATCH] = end;
        l->temporary[r] = end + g->chunks[MSCCL_SCRATCH];
    }
    return true;
}

/* Input and output maps of the collective's grid (schedule.h's slots). */
static void fill_maps(const msccl_program *p, schedule *s, const layout *l, int root)
{
    int n = s->ranks, f = l->factor;
    s->input_slot = malloc(sizeof(int) * (size_t)n * (size_t)l->grid);
    s->output_slot = malloc(sizeof(int) * (size_t)n * (size_t)l->grid);
    for (int r = 0; r < n; r++) {
        const int *base = &l->base[r * MSCCL_BUFFERS];
        for (int c = 0; c < l->grid; c++) {
            int in = base[MSCCL_INPUT] + c, out = base[MSCCL_OUTPUT] + c;
            switch (p->prim) {
            case PRIM_BCAST: in = r == root ? in : -1; break;
            case PRIM_ALLGATHER: in = c / f == r ? base[MSCCL_INPUT] + c % f : -1; break;
            case PRIM_REDUCESCATTER: out = c / f == r ? base[MSCCL_OUTPUT] + c % f : -1; break;
            case PRIM_ALLTOALL: { /* grid chunk c: block (src, dst), piece k */
                int src = c / (n * f), dst = c / f % n, k = c % f;
                in = src == r ? base[MSCCL_INPUT] + dst * f + k : -1;
                out = dst == r ? base[MSCCL_OUTPUT] + src * f + k : -1;
                break;
            }
            default: break;
            }
            s->input_slot[(size_t)r * (size_t)l->grid + (size_t)c] = in;
            s->output_slot[(size_t)r * (size_t)l->grid + (size_t)c] = out;
        }
    }
}

/* Whether step S reads its source, writes its destination, sends, receives. */
static bool reads(msccl_step_type t)
{
    return t == MSCCL_SEND || t == MSCCL_RECV_REDUCE_SEND || t == MSCCL_RECV_REDUCE_COPY ||
           t == MSCCL_RECV_REDUCE_COPY_SEND || t == MSCCL_COPY || t == MSCCL_REDUCE;
}
static bool writes(msccl_step_type t)
{
    return t == MSCCL_RECV || t == MSCCL_RECV_COPY_SEND || t == MSCCL_RECV_REDUCE_COPY ||
           t == MSCCL_RECV_REDUCE_COPY_SEND || t == MSCCL_COPY || t == MSCCL_REDUCE;
}
static bool sends(msccl_step_type t)
{
    return t == MSCCL_SEND || t == MSCCL_RECV_COPY_SEND || t == MSCCL_RECV_REDUCE_SEND || t == MSCCL_RECV_REDUCE_COPY_SEND;
}
static bool receives(msccl_step_type t)
{
    return t != MSCCL_SEND && t != MSCCL_COPY && t != MSCCL_REDUCE && t != MSCCL_NOP;
}

static const char *const buffer_names[MSCCL_BUFFERS] = {"input", "output", "scratch"};

/* The rules of one GPU's threadblocks and steps that need the whole GPU. */
static bool check_gpu(const msccl_program *p, const msccl_gpu *g, diag *d)
{
    for (int i = 0; i < g->tb_count; i++) {
        const msccl_tb *tb = &p->tbs[g->tb_first + i];
        if (tb->send == g->id || tb->recv == g->id || tb->send >= p->ngpus || tb->recv >= p->ngpus)
            return fail_step(d, p, tb->line, "threadblock %d of GPU %d names peer send=%d recv=%d: a peer is another of "
                             "the %d GPUs, or -1 for none", tb->id, g->id, tb->send, tb->recv, p->ngpus);
        if (tb->channel >= p->nchannels)
            return fail_step(d, p, tb->line, "threadblock %d runs on channel %d, but nchannels is %d: raise nchannels or "
                             "use channels 0 to %d", tb->id, tb->channel, p->nchannels, p->nchannels - 1);
        for (int j = 0; j < i; j++) {
            const msccl_tb *other = &p->tbs[g->tb_first + j];
            bool send = tb->send >= 0 && tb->send == other->send, recv = tb->recv >= 0 && tb->recv == other->recv;
            if (tb->channel == other->channel && (send || recv))
                return fail_step(d, p, tb->line, "threadblocks %d and %d of GPU %d both %s GPU %d on channel %d: a channel "
                                 "has one connection per peer and direction; move one to another channel", other->id,
                                 tb->id, g->id, send ? "send to" : "receive from", send ? tb->send : tb->recv, tb->channel);
        }
        for (int k = 0; k < tb->step_count; k++) {
            const msccl_step *s = &p->steps[tb->step_first + k];
            if (sends(s->type) && tb->send < 0)
                return fail_step(d, p, s->line, "a %s step sends, but its threadblock has no send peer (send=\"-1\")",
                                 msccl_step_name(s->type));
            if (receives(s->type) && tb->recv < 0)
                return fail_step(d, p, s->line, "a %s step receives, but its threadblock has no receive peer (recv=\"-1\")",
                                 msccl_step_name(s->type));
            int ends[2][2] = {{s->src_buffer, s->src_offset}, {s->dst_buffer, s->dst_offset}};
            bool used[2] = {reads(s->type), writes(s->type)};
            for (int e = 0; e < 2; e++)
                if (used[e] && (ends[e][1] < 0 || ends[e][1] + s->count > g->chunks[ends[e][0]]))
                    return fail_step(d, p, s->line, "%s chunks %d..%d are outside GPU %d's %s buffer of %d chunks: fix "
                                     "%s / cnt or the gpu's %c_chunks", e ? "dstoff" : "srcoff", ends[e][1],
                                     ends[e][1] + s->count - 1, g->id, buffer_names[ends[e][0]], g->chunks[ends[e][0]],
                                     e ? "dstoff" : "srcoff", "ios"[ends[e][0]]);
            if (s->dep_tb < 0) {
                if (s->type == MSCCL_NOP) return fail_step(d, p, s->line, "a nop without a dependency does nothing: remove it");
                if (k > 0 && p->steps[tb->step_first + k - 1].type == MSCCL_NOP)
                    return fail_step(d, p, s->line, "this step follows a nop but has no dependency of its own: MSCCL's "
                                     "runtime refuses the file (a nop's dependency joins the next step's own); give it one");
                continue;
            }
            if (s->dep_tb >= g->tb_count)
                return fail_step(d, p, s->line, "depid %d names no threadblock of GPU %d (it has %d)", s->dep_tb, g->id,
                                 g->tb_count);
            const msccl_tb *target = &p->tbs[g->tb_first + s->dep_tb];
            if (s->dep_step >= target->step_count)
                return fail_step(d, p, s->line, "deps %d names no step of threadblock %d (it has %d)", s->dep_step,
                                 s->dep_tb, target->step_count);
            if (target == tb && s->dep_step >= k)
                return fail_step(d, p, s->line, "this step waits for step %d of its own threadblock, which runs after it: a "
                                 "deadlock", s->dep_step);
            const msccl_step *on = &p->steps[target->step_first + s->dep_step];
            if (on->type == MSCCL_NOP || !on->has_dep)
                return fail_step(d, p, s->line, "this step waits for step %d of threadblock %d (line %d), which never "
                                 "signals (%s): MSCCL would wait for a later step of it, or forever; set hasdep=\"1\" there",
                                 s->dep_step, s->dep_tb, on->line, on->type == MSCCL_NOP ? "a nop" : "hasdep=\"0\"");
        }
    }
    return true;
}

/* The ops of one rank as they are emitted: the op that completes each step. */
typedef struct rank_emit {
    schedule *s;
    const msccl_program *p;
    const msccl_gpu *g;
    layout *l;
    int rank;
    int *done_op;     /* per step of the gpu (index from the gpu's first step): its completing op, -1 not yet */
    int **line_of_op; /* per actor: the line of each op (for errors) */
    int *line_capacity;
} rank_emit;

static int slot(const rank_emit *e, msccl_buffer b, int offset)
{
    return e->l->base[e->rank * MSCCL_BUFFERS + b] + offset;
}

static void note_line(rank_emit *e, int op, int line)
{
    int **lines = &e->line_of_op[e->rank];
    *lines = grow_array(*lines, &e->line_capacity[e->rank], op + 1, sizeof **lines);
    (*lines)[op] = line;
}

/* Emit one op with the dependencies DEPS (COUNT of them). */
static int with_deps(rank_emit *e, int op, const int *deps, int count, int line)
{
    for (int i = 0; i < count; i++) sched_add_dep(e->s, e->rank, op, deps[i]);
    note_line(e, op, line);
    return op;
}

/* COUNT fresh slots of rank R (a receive's staging, the FIFO of its connection). */
static int fresh_slots(rank_emit *e, int count)
{
    int first = e->l->temporary[e->rank];
    e->l->temporary[e->rank] += count;
    return first;
}

/* A local op after AFTER (SCHED_NO_DEP: none) and PREVIOUS (the step before it in its threadblock). */
static int local(rank_emit *e, bool reduce, int source, int destination, int count, int after, int previous, int line)
{
    int op = sched_local(e->s, e->rank, reduce, source, destination, count, after, previous);
    note_line(e, op, line);
    return op;
}

/* The ops of step ST, returning the op that completes it: PREVIOUS is the
 * step before it in its threadblock (SCHED_NO_DEP: none), CROSS its
 * cross-threadblock dependencies (its own and its nops').  A receive is
 * posted once its cross dependencies are met, into staging slots of its own
 * (MSCCL's connection FIFO takes a message before the step runs); the step
 * itself, a local copy or reduction out of the staging slots, waits for the
 * step before it (invariant 3). */
static int emit_step(rank_emit *e, const msccl_tb *tb, const msccl_step *st, int previous, const int *cross, int count)
{
    schedule *s = e->s;
    int r = e->rank, n = st->count, line = st->line;
    int src = slot(e, st->src_buffer, st->src_offset), dst = slot(e, st->dst_buffer, st->dst_offset);
    sched_set_channel(s, tb->channel);
    if (st->type == MSCCL_SEND || st->type == MSCCL_COPY || st->type == MSCCL_REDUCE) {
        int op = st->type == MSCCL_SEND ? sched_send(s, r, tb->send, src, n, previous, SCHED_NO_DEP)
                                        : sched_local(s, r, st->type == MSCCL_REDUCE, src, dst, n, previous, SCHED_NO_DEP);
        return with_deps(e, op, cross, count, line);
    }
    int staging = fresh_slots(e, n);
    int recv = with_deps(e, sched_recv(s, r, tb->recv, staging, n, false, SCHED_NO_DEP, SCHED_NO_DEP), cross, count, line);
    int done, result = dst;
    switch (st->type) {
    case MSCCL_RECV:
    case MSCCL_RECV_COPY_SEND: done = local(e, false, staging, dst, n, recv, previous, line); break;
    case MSCCL_RECV_REDUCE_SEND: /* the sum is sent, not kept: it stays in the staging slots */
        done = local(e, true, src, staging, n, recv, previous, line);
        result = staging;
        break;
    default: /* rrc, rrcs: the destination gets the local source plus what came */
        done = src == dst ? recv : local(e, false, src, dst, n, recv, previous, line);
        done = local(e, true, staging, dst, n, done, src == dst ? previous : SCHED_NO_DEP, line);
        break;
    }
    if (st->type == MSCCL_RECV || st->type == MSCCL_RECV_REDUCE_COPY) return done;
    int send = sched_send(s, r, tb->send, result, n, done, SCHED_NO_DEP);
    note_line(e, send, line);
    return send;
}

/* A binary heap of threadblocks keyed by (step number, id). */
typedef struct tb_heap {
    long *keys;
    int size;
} tb_heap;

static void heap_push(tb_heap *h, long key)
{
    int i = h->size++;
    while (i > 0 && h->keys[(i - 1) / 2] > key) {
        h->keys[i] = h->keys[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->keys[i] = key;
}

static long heap_pop(tb_heap *h)
{
    long top = h->keys[0], last = h->keys[--h->size];
    int i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= h->size) break;
        if (child + 1 < h->size && h->keys[child + 1] < h->keys[child]) child++;
        if (h->keys[child] >= last) break;
        h->keys[i] = h->keys[child];
        i = child;
    }
    if (h->size > 0) h->keys[i] = last;
    return top;
}

/* The steps of the group starting at step K of TB (its nops, then one step):
 * the first dependency not yet emitted, as a gpu step index, or -1. */
static int waiting_for(const rank_emit *e, const msccl_tb *tb, int k)
{
    for (; k < tb->step_count; k++) {
        const msccl_step *st = &e->p->steps[tb->step_first + k];
        if (st->dep_tb >= 0) {
            const msccl_tb *on = &e->p->tbs[e->g->tb_first + st->dep_tb];
            int index = on->step_first - e->p->tbs[e->g->tb_first].step_first + st->dep_step;
            if (e->done_op[index] < 0) return index;
        }
        if (st->type != MSCCL_NOP) break;
    }
    return -1;
}

/* The key of TB's group at step K: its real step's order (ORDERED), else K; then the threadblock. */
static long group_key(const rank_emit *e, const msccl_tb *tb, int k, bool ordered)
{
    int position = k;
    while (position < tb->step_count - 1 && e->p->steps[tb->step_first + position].type == MSCCL_NOP) position++;
    long first = ordered ? e->p->steps[tb->step_first + position].order : k;
    return first * MSCCL_MAX_THREADBLOCKS + (tb - (e->p->tbs + e->g->tb_first));
}

/* Emit the group at step *K of TB; *K moves past it. */
static void emit_group(rank_emit *e, const msccl_tb *tb, int *k, int previous)
{
    int count = 0, gpu_first = e->p->tbs[e->g->tb_first].step_first;
    int *deps = malloc(sizeof(int) * (size_t)(tb->step_count - *k + 2));
    for (; *k < tb->step_count; ++*k) {
        const msccl_step *st = &e->p->steps[tb->step_first + *k];
        if (st->dep_tb >= 0) {
            const msccl_tb *on = &e->p->tbs[e->g->tb_first + st->dep_tb];
            deps[count++] = e->done_op[on->step_first - gpu_first + st->dep_step];
        }
        if (st->type != MSCCL_NOP) {
            e->done_op[tb->step_first - gpu_first + *k] = emit_step(e, tb, st, previous, deps, count);
            ++*k;
            break;
        }
    }
    free(deps);
}

static bool emit_rank(rank_emit *e, diag *d)
{
    const msccl_gpu *g = e->g;
    const msccl_program *p = e->p;
    int steps = 0;
    for (int i = 0; i < g->tb_count; i++) steps += p->tbs[g->tb_first + i].step_count;
    e->done_op = malloc(sizeof(int) * (size_t)(steps + 1));
    for (int i = 0; i < steps; i++) e->done_op[i] = -1;
    int *next = calloc((size_t)g->tb_count + 1, sizeof(int)), *last = malloc(sizeof(int) * (size_t)(g->tb_count + 1));
    int *waits_on = malloc(sizeof(int) * (size_t)(g->tb_count + 1)); /* gpu step index a blocked tb waits for, or -1 */
    tb_heap heap = {malloc(sizeof(long) * (size_t)(g->tb_count + 1)), 0};
    int gpu_first = g->tb_count ? p->tbs[g->tb_first].step_first : 0;
    for (int i = 0; i < g->tb_count; i++) {
        last[i] = -1;
        waits_on[i] = -1;
        if (p->tbs[g->tb_first + i].step_count > 0) heap_push(&heap, (long)i); /* step 0 first, by id */
    }
    int finished = 0;
    bool ordered = true;
    for (int i = 0; i < g->tb_count; i++) {
        const msccl_tb *tb = &p->tbs[g->tb_first + i];
        finished += tb->step_count == 0;
        for (int k = 0; k < tb->step_count; k++)
            ordered &= p->steps[tb->step_first + k].type == MSCCL_NOP || p->steps[tb->step_first + k].order >= 0;
    }
    heap.size = 0;
    for (int i = 0; i < g->tb_count; i++)
        if (p->tbs[g->tb_first + i].step_count > 0) heap_push(&heap, group_key(e, &p->tbs[g->tb_first + i], 0, ordered));
    while (heap.size > 0) {
        long key = heap_pop(&heap);
        int i = (int)(key % MSCCL_MAX_THREADBLOCKS);
        const msccl_tb *tb = &p->tbs[g->tb_first + i];
        int blocked = waiting_for(e, tb, next[i]);
        if (blocked >= 0) {
            waits_on[i] = blocked;
            continue;
        }
        emit_group(e, tb, &next[i], last[i]);
        last[i] = e->done_op[tb->step_first - gpu_first + next[i] - 1];
        if (next[i] < tb->step_count) heap_push(&heap, group_key(e, tb, next[i], ordered));
        else finished++;
        for (int j = 0; j < g->tb_count; j++) /* whoever waited for what was just emitted */
            if (waits_on[j] >= 0 && e->done_op[waits_on[j]] >= 0) {
                waits_on[j] = -1;
                heap_push(&heap, group_key(e, &p->tbs[g->tb_first + j], next[j], ordered));
            }
    }
    bool ok = finished == g->tb_count;
    for (int i = 0; !ok && i < g->tb_count; i++)
        if (waits_on[i] >= 0) {
            const msccl_tb *tb = &p->tbs[g->tb_first + i];
            fail_step(d, p, p->steps[tb->step_first + next[i]].line, "GPU %d's threadblocks wait for one another in a "
                      "cycle: this step (threadblock %d) can never start; break the cycle of depid / deps", g->id, tb->id);
            break;
        }
    free(next);
    free(last);
    free(waits_on);
    free(heap.keys);
    free(e->done_op);
    return ok;
}

static double unit_cost(void *context, int from, int to, int chunks)
{
    (void)context, (void)from, (void)to, (void)chunks;
    return 1;
}

schedule *msccl_schedule(const msccl_program *p, primitive prim, int ranks, int root, diag *d)
{
    if (prim != p->prim) {
        fail_step(d, p, p->line, "coll \"%s\" is a %s, but the case runs %s: import it in a %s case", p->coll,
                  primitive_name(p->prim), primitive_name(prim), primitive_name(p->prim));
        return NULL;
    }
    if (ranks != p->ngpus) {
        fail_step(d, p, p->line, "ngpus is %d, but the case's groups have %d ranks: an MSCCL algorithm runs on the ranks "
                  "it was written for", p->ngpus, ranks);
        return NULL;
    }
    for (int r = 0; r < ranks; r++)
        if (!check_gpu(p, &p->gpus[r], d)) return NULL;
    layout l = {0};
    if (!plan_layout(p, ranks, &l, d)) return NULL;
    schedule *s = schedule_create(prim, ranks, 0, l.grid);
    s->root = root;
    size_t rank_count = ranks > 0 ? (size_t)ranks : 1;
    int **lines = calloc(rank_count, sizeof *lines), *line_capacity = calloc(rank_count, sizeof(int));
    bool ok = true;
    for (int r = 0; r < ranks && ok; r++) {
        rank_emit e = {.s = s, .p = p, .g = &p->gpus[r], .l = &l, .rank = r, .line_of_op = lines,
                       .line_capacity = line_capacity};
        ok = emit_rank(&e, d);
    }
    for (int r = 0; r < ranks; r++)
        if (l.temporary[r] > l.slots) l.slots = l.temporary[r];
    s->slots = l.slots > 0 ? l.slots : 1;
    fill_maps(p, s, &l, root);
    sched_path path;
    if (ok && !sched_critical_path(s, unit_cost, NULL, &path)) {
        int a = path.stuck_actor, o = path.stuck_op;
        sched_op op = s->actor[a].ops[o];
        ok = fail_step(d, p, lines[a][o], "GPU %d's %s %s GPU %d here never completes: no matching step of that GPU %s "
                       "on channel %d in this order with cnt %d, or the two wait for each other (a deadlock)", a,
                       op.kind == OP_SEND ? "send" : "receive", op.kind == OP_SEND ? "to" : "from", op.peer,
                       op.kind == OP_SEND ? "receives it" : "sends it", op.channel, op.count);
    }
    if (ok) sched_path_free(&path);
    for (int r = 0; r < ranks; r++) free(lines[r]);
    free(lines);
    free(line_capacity);
    free(l.base);
    free(l.temporary);
    if (!ok) {
        schedule_free(s);
        return NULL;
    }
    sched_set_channel(s, 0);
    return s;
}

schedule *msccl_build(const algo_params *params, char *why, int why_size)
{
    const msccl_program *p = params->source;
    diag d = {0};
    schedule *s = msccl_schedule(p, p->prim, params->ranks, params->root, &d);
    if (!s) snprintf(why, (size_t)why_size, "%s:%d: %s", d.file, d.line, d.message);
    return s;
}
