/* critical_path.c — the longest chain of dependencies and messages through a
 * schedule (critical_path.h).
 *
 * Invariants:
 *   1. Messages pair as the executor and the verifier pair them: the k-th
 *      send of actor a to b on channel c meets the k-th receive of b from a
 *      on channel c.
 *   2. An op's start is the latest completion among its dependencies; a
 *      message completes both its ends at max(start of send, start of
 *      receive) + cost; nothing else waits (no contention, no endpoint
 *      busy), so the result is the schedule's own α-β time. */
#include "sched/critical_path.h"

#include <stdlib.h>

typedef struct end_key {
    long long connection; /* channel, sender, receiver */
    int global;           /* the op, over all actors: program order within one */
} end_key;

static int compare_ends(const void *a, const void *b)
{
    const end_key *x = a, *y = b;
    if (x->connection != y->connection) return x->connection < y->connection ? -1 : 1;
    return (x->global > y->global) - (x->global < y->global);
}

typedef struct walker {
    const schedule *s;
    long *first;      /* global index of each actor's op 0 */
    int *actor_of;    /* per global op */
    int *partner;     /* the other end of a message, -1: none (or local) */
    int *remaining;   /* unmet dependencies */
    int *before;      /* the dependency that completed last (the path's previous op), -1: none */
    double *start, *finish;
    char *state;      /* 0 waiting, 1 started, 2 completed */
    op_graph *graph;
    int *stack, stack_size;
} walker;

/* Pair every send with its receive (invariant 1). */
static void pair_messages(walker *w, long total)
{
    const schedule *s = w->s;
    end_key *sends = malloc(sizeof *sends * (size_t)(total + 1)), *recvs = malloc(sizeof *recvs * (size_t)(total + 1));
    long send_count = 0, recv_count = 0;
    for (int a = 0; a < s->actors; a++)
        for (int o = 0; o < s->actor[a].op_count; o++) {
            sched_op op = sched_op_at(s, a, o);
            int g = (int)(w->first[a] + o);
            w->partner[g] = -1;
            if (sched_op_local(&op)) continue;
            bool send = op.kind == OP_SEND;
            long long from = send ? a : op.peer, to = send ? op.peer : a;
            end_key k = {((long long)op.channel * s->actors + from) * s->actors + to, g};
            if (send) sends[send_count++] = k;
            else recvs[recv_count++] = k;
        }
    qsort(sends, (size_t)send_count, sizeof *sends, compare_ends);
    qsort(recvs, (size_t)recv_count, sizeof *recvs, compare_ends);
    for (long i = 0, j = 0; i < send_count && j < recv_count;) {
        if (sends[i].connection < recvs[j].connection) i++;
        else if (sends[i].connection > recvs[j].connection) j++;
        else {
            w->partner[sends[i].global] = recvs[j].global;
            w->partner[recvs[j].global] = sends[i].global;
            i++, j++;
        }
    }
    free(sends);
    free(recvs);
}

static void push(walker *w, int g)
{
    w->stack[w->stack_size++] = g;
}

static void complete(walker *w, int g, double t)
{
    w->state[g] = 2;
    w->finish[g] = t;
    int a = w->actor_of[g], o = (int)(g - w->first[a]);
    const op_graph *graph = &w->graph[a];
    for (int k = graph->offset[o]; k < graph->offset[o + 1]; k++) {
        int d = (int)(w->first[a] + graph->list[k]);
        if (w->before[d] < 0 || t > w->start[d]) {
            w->start[d] = t;
            w->before[d] = g;
        }
        if (--w->remaining[d] == 0) push(w, d);
    }
}

/* Op G has started (its dependencies met): a local op completes, a message
 * when its other end has started too. */
static void begin(walker *w, int g, message_cost_fn cost, void *context)
{
    w->state[g] = 1;
    int a = w->actor_of[g];
    sched_op op = sched_op_at(w->s, a, (int)(g - w->first[a]));
    if (sched_op_local(&op)) {
        complete(w, g, w->start[g]);
        return;
    }
    int p = w->partner[g];
    if (p < 0 || w->state[p] != 1) return;
    int pa = w->actor_of[p];
    if (sched_op_at(w->s, pa, (int)(p - w->first[pa])).count != op.count) return; /* ends of different sizes: never */
    bool send = op.kind == OP_SEND;
    int from = send ? a : op.peer, to = send ? op.peer : a;
    double t = (w->start[g] > w->start[p] ? w->start[g] : w->start[p]) + cost(context, from, to, op.count);
    complete(w, g, t);
    complete(w, p, t);
}

/* The path back from op G: messages in reverse, then reversed. */
static void trace_back(const walker *w, int g, sched_path *out)
{
    int capacity = 16, count = 0;
    int *items = malloc(sizeof(int) * 3 * (size_t)capacity);
    while (g >= 0) {
        int a = w->actor_of[g], p = w->partner[g];
        sched_op op = sched_op_at(w->s, a, (int)(g - w->first[a]));
        if (p < 0 || sched_op_local(&op)) {
            g = w->before[g];
            continue;
        }
        bool send = op.kind == OP_SEND;
        if (count == capacity) items = realloc(items, sizeof(int) * 3 * (size_t)(capacity *= 2));
        items[3 * count] = send ? a : op.peer;
        items[3 * count + 1] = send ? op.peer : a;
        items[3 * count + 2] = op.count;
        count++;
        g = w->start[g] >= w->start[p] ? w->before[g] : w->before[p]; /* the end that started last */
    }
    out->message_count = count;
    out->from = malloc(sizeof(int) * 3 * (size_t)(count + 1));
    out->to = out->from + count;
    out->chunks = out->to + count;
    for (int i = 0; i < count; i++) {
        int k = count - 1 - i;
        out->from[i] = items[3 * k];
        out->to[i] = items[3 * k + 1];
        out->chunks[i] = items[3 * k + 2];
    }
    free(items);
}

bool sched_critical_path(const schedule *s_in, message_cost_fn cost, void *context, sched_path *out)
{
    schedule *s = (schedule *)s_in;
    if (!s->generator) schedule_seal(s);
    *out = (sched_path){.stuck_actor = -1, .stuck_op = -1};
    walker w = {.s = s};
    w.first = malloc(sizeof(long) * (size_t)(s->actors + 1));
    long total = 0;
    for (int a = 0; a < s->actors; a++) {
        w.first[a] = total;
        total += s->actor[a].op_count;
    }
    w.first[s->actors] = total;
    size_t n = (size_t)total + 1;
    w.actor_of = malloc(sizeof(int) * n);
    w.partner = malloc(sizeof(int) * n);
    w.remaining = malloc(sizeof(int) * n);
    w.before = malloc(sizeof(int) * n);
    w.start = calloc(n, sizeof(double));
    w.finish = calloc(n, sizeof(double));
    w.state = calloc(n, 1);
    w.stack = malloc(sizeof(int) * n);
    w.graph = calloc((size_t)s->actors + 1, sizeof *w.graph);
    pair_messages(&w, total);
    for (int a = 0; a < s->actors; a++) {
        sched_op_graph(s, a, &w.graph[a]);
        for (int o = 0; o < s->actor[a].op_count; o++) {
            long g = w.first[a] + o;
            w.actor_of[g] = a;
            w.before[g] = -1;
            w.remaining[g] = w.graph[a].remaining[o];
            if (w.remaining[g] == 0) push(&w, (int)g);
        }
    }
    while (w.stack_size > 0) begin(&w, w.stack[--w.stack_size], cost, context);
    int last = -1, stuck = -1;
    for (long g = 0; g < total; g++) {
        if (w.state[g] == 2 && (last < 0 || w.finish[g] > w.finish[last])) last = (int)g;
        if (w.state[g] != 2 && (stuck < 0 || (w.state[g] == 1 && w.state[stuck] != 1))) stuck = (int)g;
    }
    if (stuck >= 0) {
        out->stuck_actor = w.actor_of[stuck];
        out->stuck_op = (int)(stuck - w.first[w.actor_of[stuck]]);
    } else if (last >= 0) {
        out->time_s = w.finish[last];
        trace_back(&w, last, out);
    }
    for (int a = 0; a < s->actors; a++) op_graph_free(&w.graph[a]);
    free(w.graph);
    free(w.first);
    free(w.actor_of);
    free(w.partner);
    free(w.remaining);
    free(w.before);
    free(w.start);
    free(w.finish);
    free(w.state);
    free(w.stack);
    return stuck < 0;
}

void sched_path_free(sched_path *p)
{
    free(p->from);
    p->from = p->to = p->chunks = NULL;
}
