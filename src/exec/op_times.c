/* op_times.c — per-message latencies from per-op times: each send is paired
 * with its receive as the executor matches them (per connection, in program
 * order: schedule_seal), then the later posting is subtracted from the
 * arrival. */
#include "exec/op_times.h"

#include <math.h>
#include <stdlib.h>

/* One end of a message: the connection, its place in the actor's program, and its times. */
typedef struct message_end {
    int from, to, op;
    long index; /* into the op times */
} message_end;

static int compare_ends(const void *a, const void *b)
{
    const message_end *x = a, *y = b;
    if (x->from != y->from) return (x->from > y->from) - (x->from < y->from);
    if (x->to != y->to) return (x->to > y->to) - (x->to < y->to);
    return (x->op > y->op) - (x->op < y->op);
}

void op_times_latencies(const schedule *s, const net_op_time *times, const long *actor_first, double *latency_s)
{
    long messages = sched_messages(s), sends = 0, recvs = 0;
    message_end *send = malloc(sizeof *send * (size_t)(messages + 1));
    message_end *recv = malloc(sizeof *recv * (size_t)(messages + 1));
    for (int a = 0; a < s->actors; a++)
        for (int o = 0; o < s->actor[a].op_count; o++) {
            const sched_op *op = &s->actor[a].ops[o];
            long index = actor_first[a] + o;
            if (op->kind == OP_SEND) send[sends++] = (message_end){a, op->peer, o, index};
            else if (recvs < messages) recv[recvs++] = (message_end){op->peer, a, o, index};
        }
    /* per connection in program order on both sides: the k-th send meets the k-th receive */
    qsort(send, (size_t)sends, sizeof *send, compare_ends);
    qsort(recv, (size_t)recvs, sizeof *recv, compare_ends);
    for (long m = 0; m < sends && m < recvs; m++) {
        const net_op_time *x = &times[send[m].index], *y = &times[recv[m].index];
        double start = fmax(x->posted_s, y->posted_s), arrival = fmax(x->done_s, y->done_s);
        latency_s[m] = arrival - start;
    }
    free(send);
    free(recv);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The value of nearest rank ceil(PERCENT / 100 * COUNT) in sorted VALUES (integer arithmetic: exact ranks). */
static double nearest_rank(const double *values, long count, long percent)
{
    long rank = (count * percent + 99) / 100;
    return values[rank < 1 ? 0 : rank - 1];
}

latency_summary latency_summarize(double *values, long count)
{
    latency_summary l = {.count = count};
    if (count == 0) return l;
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    l.p50_s = nearest_rank(values, count, 50);
    l.p99_s = nearest_rank(values, count, 99);
    l.max_s = values[count - 1];
    return l;
}
