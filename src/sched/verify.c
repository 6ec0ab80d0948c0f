/* verify.c — a data-level interpreter of schedules and the postconditions of
 * the seven primitives (explainer 00 §2), and of a permutation (every rank's
 * message at the rank the permutation sends it to). */
#include "sched/verify.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"

typedef struct pending {
    int actor, op;         /* a send waiting to be matched, or a posted receive */
    uint64_t *snapshot;    /* sends only */
    struct pending *next;
} pending;

typedef struct machine {
    const schedule *s;
    uint64_t *values;      /* actors x chunks */
    op_graph *graph;       /* per actor: dependents and unmet dependency counts */
    bool **finished;
    pending **inbox;       /* per receiving actor: sends not yet matched */
    pending **posted;      /* per actor: its receives not yet matched */
    /* ready ops, sends apart: a send that becomes ready together with a
     * receive reads its chunks first, as in the executor, where a send reads
     * at posting and a receive writes only when its message has arrived */
    struct ready { int *actor, *op, size, capacity; } ready[2];
    long done, total;
    char *why;
    int why_size;
    bool failed;
} machine;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Contribution of rank R to chunk C (never zero: zero means "absent"). */
static uint64_t contribution(int rank, int chunk)
{
    return mix(((uint64_t)(unsigned)rank << 32) ^ (unsigned)chunk) | 1;
}

static uint64_t *slot(machine *m, int actor, int chunk)
{
    return &m->values[(size_t)actor * (size_t)sched_slots(m->s) + (size_t)chunk];
}

/* Where rank R holds grid chunk C's input, or its result (the schedule's own
 * buffers, else the chunk's own slot); -1: nowhere. */
static int input_slot(const schedule *s, int r, int c)
{
    return s->input_slot ? s->input_slot[(size_t)r * (size_t)s->chunks + (size_t)c] : c;
}

static int output_slot(const schedule *s, int r, int c)
{
    return s->output_slot ? s->output_slot[(size_t)r * (size_t)s->chunks + (size_t)c] : c;
}

static bool fail(machine *m, const char *fmt, int a, int b, int c)
{
    if (!m->failed) snprintf(m->why, (size_t)m->why_size, fmt, a, b, c);
    m->failed = true;
    return false;
}

static void push(machine *m, int actor, int op)
{
    struct ready *r = &m->ready[m->s->actor[actor].ops[op].kind != OP_SEND];
    if (r->size == r->capacity) {
        int capacity = r->capacity;
        r->actor = grow_array(r->actor, &capacity, r->size + 1, sizeof *r->actor);
        r->op = grow_array(r->op, &r->capacity, r->size + 1, sizeof *r->op);
    }
    r->actor[r->size] = actor;
    r->op[r->size++] = op;
}

static void complete(machine *m, int actor, int op)
{
    op_graph *g = &m->graph[actor];
    for (int i = g->offset[op]; i < g->offset[op + 1]; i++)
        if (--g->remaining[g->list[i]] == 0) push(m, actor, g->list[i]);
    m->finished[actor][op] = true;
    m->done++;
}

static void initial_values(machine *m)
{
    const schedule *s = m->s;
    for (int r = 0; r < s->ranks; r++)
        for (int c = 0; c < s->chunks; c++) {
            uint64_t v = 0;
            switch (s->prim) {
            case PRIM_ALLREDUCE:
            case PRIM_REDUCESCATTER:
            case PRIM_REDUCE: v = contribution(r, c); break;
            case PRIM_ALLGATHER: v = sched_slice_owner(s, c) == r ? contribution(-1, c) : 0; break;
            case PRIM_BCAST:
            case PRIM_SENDRECV: v = r == s->root ? contribution(-1, c) : 0; break;
            case PRIM_ALLTOALL: v = c / (s->chunks / s->ranks) == r ? contribution(r, c) : 0; break;
            case PRIM_PERMUTATION: v = c == r ? contribution(r, c) : 0; break;
            default: break;
            }
            int where = input_slot(s, r, c);
            if (where >= 0 && v) *slot(m, r, where) = v; /* the rest starts empty (zero) */
        }
}

/* Match send (SRC, SEND_OP) carrying SNAPSHOT with receive (DST, RECV_OP):
 * both must name the same chunk ranges, or, in buffers of their own, move as
 * many chunks (the receive writes where it names). */
static bool deliver(machine *m, int src, int send_op, const uint64_t *snapshot, int dst, int recv_op)
{
    const sched_actor *from = &m->s->actor[src], *to = &m->s->actor[dst];
    const sched_op *send = &from->ops[send_op], *recv = &to->ops[recv_op];
    bool same = send->count == recv->count &&
                (m->s->slots > 0 || sched_op_range_count(send) == sched_op_range_count(recv));
    for (int r = 0; same && m->s->slots == 0 && r < sched_op_range_count(recv); r++) {
        chunk_range a = sched_op_range(from, send, r), b = sched_op_range(to, recv, r);
        same = a.first == b.first && a.count == b.count;
    }
    if (!same)
        return fail(m, "actor %d receives chunks starting at %d from actor %d, which sent a different range", dst,
                    recv->chunk, src);
    int i = 0;
    for (int r = 0; r < sched_op_range_count(recv); r++) {
        chunk_range range = sched_op_range(to, recv, r);
        for (int c = range.first; c < range.first + range.count; c++, i++) {
            uint64_t *v = slot(m, dst, c);
            *v = recv->kind == OP_RECV_REDUCE ? *v + snapshot[i] : snapshot[i];
        }
    }
    complete(m, src, send_op);
    complete(m, dst, recv_op);
    return true;
}

/* Snapshot the chunks of send O of ACTOR, or fail if it does not hold one. */
static uint64_t *snapshot_of(machine *m, int actor, int o)
{
    const sched_actor *a = &m->s->actor[actor];
    const sched_op *op = &a->ops[o];
    uint64_t *snapshot = malloc(sizeof(uint64_t) * (size_t)op->count);
    int i = 0;
    for (int r = 0; r < sched_op_range_count(op); r++) {
        chunk_range range = sched_op_range(a, op, r);
        for (int c = range.first; c < range.first + range.count; c++) {
            snapshot[i++] = *slot(m, actor, c);
            if (!snapshot[i - 1]) {
                free(snapshot);
                fail(m, "actor %d sends chunk %d to actor %d before holding it", actor, c, op->peer);
                return NULL;
            }
        }
    }
    return snapshot;
}

static bool ranges_inside_grid(const machine *m, int actor, const sched_op *op)
{
    const sched_actor *a = &m->s->actor[actor];
    int total = 0, slots = sched_slots(m->s);
    if (sched_op_local(op))
        return op->count >= 1 && op->chunk >= 0 && op->chunk + op->count <= slots && op->range_first >= 0 &&
               op->range_first + op->count <= slots;
    for (int r = 0; r < sched_op_range_count(op); r++) {
        chunk_range range = sched_op_range(a, op, r);
        if (range.first < 0 || range.count < 1 || range.first + range.count > slots) return false;
        total += range.count;
    }
    return total == op->count;
}

/* A local op: copy or add COUNT slots of ACTOR, from range_first into chunk..;
 * the source is read whole before the destination is written (they may overlap). */
static bool run_local(machine *m, int actor, int o)
{
    const sched_op *op = &m->s->actor[actor].ops[o];
    uint64_t *source = malloc(sizeof(uint64_t) * (size_t)op->count);
    for (int i = 0; i < op->count; i++) {
        source[i] = *slot(m, actor, op->range_first + i);
        if (!source[i]) {
            free(source);
            return fail(m, "actor %d op %d reads slot %d before it holds data", actor, o, op->range_first + i);
        }
    }
    for (int i = 0; i < op->count; i++) {
        uint64_t *v = slot(m, actor, op->chunk + i);
        *v = op->kind == OP_REDUCE ? *v + source[i] : source[i];
    }
    free(source);
    complete(m, actor, o);
    return true;
}

static bool start(machine *m, int actor, int o)
{
    const sched_op *op = &m->s->actor[actor].ops[o];
    if (!ranges_inside_grid(m, actor, op))
        return fail(m, "actor %d op %d moves chunks outside the grid (first %d)", actor, o, op->chunk);
    if (sched_op_local(op)) return run_local(m, actor, o);
    if (op->peer < 0 || op->peer >= m->s->actors || op->peer == actor)
        return fail(m, "actor %d op %d names peer %d, which is not another actor", actor, o, op->peer);
    if (op->kind == OP_SEND) {
        uint64_t *snapshot = snapshot_of(m, actor, o);
        if (!snapshot) return false;
        for (pending **link = &m->posted[op->peer]; *link; link = &(*link)->next) {
            pending *p = *link;
            const sched_op *recv = &m->s->actor[op->peer].ops[p->op];
            if (recv->peer != actor || recv->channel != op->channel) continue;
            *link = p->next;
            bool ok = deliver(m, actor, o, snapshot, op->peer, p->op);
            free(p);
            free(snapshot);
            return ok;
        }
        pending *p = malloc(sizeof *p);
        *p = (pending){actor, o, snapshot, m->inbox[op->peer]};
        m->inbox[op->peer] = p;
        return true;
    }
    for (pending **link = &m->inbox[actor]; *link; link = &(*link)->next) {
        pending *p = *link;
        if (p->actor != op->peer || m->s->actor[p->actor].ops[p->op].channel != op->channel) continue;
        *link = p->next;
        bool ok = deliver(m, p->actor, p->op, p->snapshot, actor, o);
        free(p->snapshot);
        free(p);
        return ok;
    }
    pending *p = malloc(sizeof *p);
    *p = (pending){actor, o, NULL, m->posted[actor]};
    m->posted[actor] = p;
    return true;
}

static bool postcondition(machine *m)
{
    const schedule *s = m->s;
    for (int r = 0; r < s->ranks; r++)
        for (int c = 0; c < s->chunks; c++) {
            uint64_t sum = 0;
            bool check = true;
            switch (s->prim) {
            case PRIM_ALLREDUCE:
            case PRIM_REDUCESCATTER:
            case PRIM_REDUCE:
                for (int q = 0; q < s->ranks; q++) sum += contribution(q, c);
                check = s->prim == PRIM_ALLREDUCE || (s->prim == PRIM_REDUCE ? r == s->root : sched_slice_owner(s, c) == r);
                break;
            case PRIM_ALLGATHER:
            case PRIM_BCAST: sum = contribution(-1, c); break;
            case PRIM_SENDRECV:
                sum = contribution(-1, c);
                check = r == s->peer;
                break;
            case PRIM_PERMUTATION: /* rank c's message at its destination */
                sum = contribution(c, c);
                check = sched_slice_owner(s, c) == r;
                break;
            case PRIM_ALLTOALL: {
                int block = s->chunks / (s->ranks * s->ranks), src = c / (s->chunks / s->ranks);
                int dst = c % (s->chunks / s->ranks) / block;
                sum = contribution(src, c);
                check = dst == r;
                break;
            }
            default: break;
            }
            int where = output_slot(s, r, c);
            if (check && (where < 0 || *slot(m, r, where) != sum))
                return fail(m, "rank %d chunk %d is wrong at the end of the schedule (%d)", r, c,
                            where < 0 || *slot(m, r, where) == 0);
        }
    return true;
}

bool schedule_verifiable(const schedule *s, char *why, int why_size)
{
    double fingerprints = (double)s->actors * sched_slots(s);
    if (fingerprints <= (double)VERIFY_MAX_FINGERPRINTS) return true;
    snprintf(why, (size_t)why_size, "its %d actors x %d chunks need %.3g fingerprints; the verifier holds at most %ld "
             "(1 GiB, docs/reliability.md)", s->actors, s->chunks, fingerprints, VERIFY_MAX_FINGERPRINTS);
    return false;
}

bool schedule_verify(const schedule *s_in, char *why, int why_size)
{
    schedule *s = (schedule *)s_in;
    schedule_seal(s);
    machine m = {0};
    m.s = s;
    m.why = why;
    m.why_size = why_size;
    m.values = calloc((size_t)s->actors * (size_t)sched_slots(s), sizeof *m.values);
    m.graph = calloc((size_t)s->actors, sizeof *m.graph);
    m.finished = calloc((size_t)s->actors, sizeof *m.finished);
    m.inbox = calloc((size_t)s->actors, sizeof *m.inbox);
    m.posted = calloc((size_t)s->actors, sizeof *m.posted);
    if (!m.values) {
        snprintf(why, (size_t)why_size, "schedule too large to verify in memory (%d actors x %d chunks)", s->actors, s->chunks);
        free(m.graph);
        free(m.finished);
        free(m.inbox);
        free(m.posted);
        return false;
    }
    initial_values(&m);
    for (int a = 0; a < s->actors; a++) {
        const sched_actor *actor = &s->actor[a];
        m.finished[a] = calloc((size_t)actor->op_count + 1, sizeof(bool));
        for (int o = 0; o < actor->op_count && !m.failed; o++)
            for (int d = 0; d < actor->ops[o].dep_count; d++) {
                int dep = actor->deps[actor->ops[o].dep_first + d];
                if (dep < 0 || dep >= o) fail(&m, "actor %d op %d depends on op %d, which is not an earlier op", a, o, dep);
            }
        if (m.failed) break;
        sched_op_graph(s, a, &m.graph[a]);
        for (int o = 0; o < actor->op_count; o++)
            if (m.graph[a].remaining[o] == 0) push(&m, a, o);
        m.total += actor->op_count;
    }
    while (!m.failed && (m.ready[0].size > 0 || m.ready[1].size > 0)) {
        struct ready *r = &m.ready[m.ready[0].size > 0 ? 0 : 1];
        r->size--;
        start(&m, r->actor[r->size], r->op[r->size]);
    }
    for (int a = 0; a < s->actors && !m.failed && m.done != m.total; a++)
        for (int o = 0; o < s->actor[a].op_count; o++)
            if (!m.finished[a][o]) {
                fail(&m, "actor %d op %d (peer %d) never completes: a deadlock or an unmatched message", a, o,
                     s->actor[a].ops[o].peer);
                break;
            }
    bool ok = !m.failed && postcondition(&m);
    for (int a = 0; a < s->actors; a++) {
        op_graph_free(&m.graph[a]);
        free(m.finished[a]);
        while (m.posted[a]) {
            pending *p = m.posted[a];
            m.posted[a] = p->next;
            free(p);
        }
        while (m.inbox[a]) {
            pending *p = m.inbox[a];
            m.inbox[a] = p->next;
            free(p->snapshot);
            free(p);
        }
    }
    free(m.graph);
    free(m.finished);
    free(m.inbox);
    free(m.posted);
    free(m.values);
    for (int k = 0; k < 2; k++) {
        free(m.ready[k].actor);
        free(m.ready[k].op);
    }
    return ok;
}
