/* trace.c — the Trace Event Format (JSON object form: {"traceEvents": [...]})
 * for one simulation: metadata events naming processes and threads,
 * complete events ("X") for operations, counter events ("C") for queues.
 * Times are microseconds (the format's unit) with six decimals: picoseconds.
 *
 * An actor's operations overlap (every op whose dependencies are met is
 * posted at once), and a thread's complete events must nest, so each
 * actor's operations are packed into lanes: an op goes to the first lane
 * whose previous op has completed by its posting. */
#include "report/trace.h"

#include <stdlib.h>

#include "util/json_out.h"
#include "util/output_file.h"

#define US_PER_S 1e6

typedef struct op_ref {
    int op;
    double posted_s;
} op_ref;

static int by_posting(const void *a, const void *b)
{
    const op_ref *x = a, *y = b;
    if (x->posted_s != y->posted_s) return x->posted_s < y->posted_s ? -1 : 1;
    return (x->op > y->op) - (x->op < y->op);
}

static void print_metadata(FILE *out, const char *what, int pid, int tid, const char *name)
{
    fprintf(out, ",\n{\"ph\": \"M\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": ", what, pid, tid);
    json_print_string(out, name);
    fputs("}}", out);
}

/* Actor A of part P (process PID): its name, then its ops in lanes. */
static void print_actor(FILE *out, const trace *tr, const trace_part *p, int a, long first, int pid)
{
    const sched_actor *actor = &p->s->actor[a];
    char node[TOPO_NODE_NAME_SIZE], name[sizeof p->label + TOPO_NODE_NAME_SIZE + 48];
    topology_node_name(tr->t, p->actor_nodes[a], node, sizeof node);
    if (a < p->s->ranks) snprintf(name, sizeof name, "%s: rank %d (%s)", p->label, a, node);
    else snprintf(name, sizeof name, "%s: switch actor %d (%s)", p->label, a - p->s->ranks, node);
    print_metadata(out, "process_name", pid, 0, name);
    fprintf(out, ",\n{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %d, \"tid\": 0, \"args\": {\"sort_index\": %d}}",
            pid, pid);
    op_ref *order = malloc(sizeof *order * (size_t)(actor->op_count + 1));
    double *lane_free = malloc(sizeof *lane_free * (size_t)(actor->op_count + 1));
    int lanes = 0;
    for (int o = 0; o < actor->op_count; o++) order[o] = (op_ref){o, p->times[first + o].posted_s};
    qsort(order, (size_t)actor->op_count, sizeof *order, by_posting);
    for (int i = 0; i < actor->op_count; i++) {
        sched_op op = sched_op_at(p->s, a, order[i].op);
        const net_op_time *time = &p->times[first + order[i].op];
        int lane = 0;
        while (lane < lanes && lane_free[lane] > time->posted_s) lane++;
        if (lane == lanes) {
            char lane_name[32];
            snprintf(lane_name, sizeof lane_name, "operations %d", lane + 1);
            print_metadata(out, "thread_name", pid, lane + 1, lane_name);
            lanes++;
        }
        lane_free[lane] = time->done_s;
        char peer[TOPO_NODE_NAME_SIZE];
        topology_node_name(tr->t, p->actor_nodes[op.peer], peer, sizeof peer);
        bool send = op.kind == OP_SEND;
        fprintf(out, ",\n{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s %s %d\", \"pid\": %d, \"tid\": %d, "
                     "\"ts\": %.6f, \"dur\": %.6f, \"args\": {\"op\": %d, \"peer\": %d, \"peer_node\": ",
                send ? "send" : "receive", send ? "send to" : op.kind == OP_RECV_REDUCE ? "reduce from" : "receive from",
                op.peer < p->s->ranks ? "rank" : "switch actor", op.peer, pid, lane + 1, time->posted_s * US_PER_S,
                (time->done_s - time->posted_s) * US_PER_S, order[i].op, op.peer);
        json_print_string(out, peer);
        fprintf(out, ", \"bytes\": %.17g, \"chunks\": %d, \"phase\": %d}}", p->op_bytes[first + order[i].op], op.count,
                op.phase);
    }
    free(order);
    free(lane_free);
}

/* Queue Q's samples as a counter of process PID: a counter holds its value
 * until the next event, so only changes (and the last sample) are written. */
static void print_queue(FILE *out, const trace *tr, int q, int pid)
{
    const link_row *l = &tr->queues[q];
    const double *bytes = tr->queue_bytes + (long)q * tr->samples;
    char name[3 * sizeof l->to + sizeof l->link + 32]; /* every piece whole */
    snprintf(name, sizeof name, "queue at %s of %s %s (%s -> %s)", l->to, l->link, l->down ? "down" : "up", l->from, l->to);
    for (int k = 0; k < tr->samples; k++) {
        if (k > 0 && k < tr->samples - 1 && bytes[k] == bytes[k - 1]) continue;
        fprintf(out, ",\n{\"ph\": \"C\", \"name\": ");
        json_print_string(out, name);
        fprintf(out, ", \"pid\": %d, \"ts\": %.6f, \"args\": {\"bytes\": %.17g}}", pid, k * tr->interval_s * US_PER_S,
                bytes[k]);
    }
}

static void print_trace(FILE *out, const trace *tr)
{
    fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"title\": ", out);
    json_print_string(out, tr->title);
    fputs("},\n\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, \"tid\": 0, \"args\": {\"name\": ",
          out);
    json_print_string(out, tr->queue_count ? "link queues (bytes in the buffer each link feeds)" : "link queues: none");
    fputs("}}", out);
    for (int q = 0; q < tr->queue_count; q++) print_queue(out, tr, q, 0);
    int pid = 1;
    for (int k = 0; k < tr->part_count; k++) {
        const trace_part *p = &tr->parts[k];
        long first = 0;
        for (int a = 0; a < p->s->actors; first += p->s->actor[a++].op_count)
            if (p->s->actor[a].op_count > 0) print_actor(out, tr, p, a, first, pid++);
    }
    fputs("\n]}\n", out);
}

bool trace_write(const trace *tr, const char *path, diag *d)
{
    output_file f;
    if (!output_open(&f, path, d)) return false;
    print_trace(f.stream, tr);
    return output_commit(&f, d);
}
