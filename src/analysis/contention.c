/* contention.c — a simulation's messages against their time alone on
 * their routes (contention.h).  The messages come in the order the
 * executor's latencies do: each sender's sends by receiver, then in program
 * order; each receiver's route is computed once per sender. */
#include "analysis/contention.h"

#include <stdlib.h>

typedef struct send_ref {
    int to, op;
} send_ref;

static int by_receiver(const void *a, const void *b)
{
    const send_ref *x = a, *y = b;
    return x->to != y->to ? (x->to > y->to) - (x->to < y->to) : (x->op > y->op) - (x->op < y->op);
}

bool analysis_contended(const topology *t, const exec_part *part, const double *latency_s, double rtol)
{
    const schedule *s = part->s;
    double wire = part->wire_denominator > 0 ? (double)part->wire_numerator / part->wire_denominator : 1;
    route_hop *hops = route_buffer(t);
    long message = 0;
    bool contended = false;
    for (int a = 0; a < s->actors && !contended; a++) {
        int count = 0;
        send_ref *sends = malloc(sizeof *sends * ((size_t)s->actor[a].op_count + 1));
        for (int o = 0; o < s->actor[a].op_count; o++) {
            sched_op op = sched_op_at(s, a, o);
            if (op.kind == OP_SEND) sends[count++] = (send_ref){op.peer, o};
        }
        qsort(sends, (size_t)count, sizeof *sends, by_receiver);
        double latency = 0, bandwidth = 0;
        for (int i = 0; i < count && !contended; i++, message++) {
            if (i == 0 || sends[i].to != sends[i - 1].to) {
                int n = topology_route(t, part->actor_nodes[a], part->actor_nodes[sends[i].to], hops);
                latency = route_latency(t, hops, n);
                bandwidth = route_bandwidth(t, hops, n);
            }
            double alone = latency + (bandwidth > 0 ? exec_op_bytes(part, a, sends[i].op) * wire / bandwidth : 0);
            contended = latency_s[message] > alone * (1 + rtol) + 1e-15;
        }
        free(sends);
    }
    free(hops);
    return contended;
}
