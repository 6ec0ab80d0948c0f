/* executor.c — SimGrid actors that run a schedule.
 *
 * Message sizes: a chunk is M/chunks bytes, which need not be whole.  SimGrid
 * takes whole bytes, so the executor multiplies every message size and every
 * link bandwidth by the same factor K (the smallest that makes M*K/chunks
 * whole): times are unchanged and no chunk is rounded. */
#include "exec/executor.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct exec_job {
    const topology *t;
    const schedule *s;
    const int *actor_nodes;
    const sim_options *options;
    long long chunk_units;   /* size of one chunk in scaled bytes */
    double scale;            /* K */
} exec_job;

/* SimGrid's C actors receive argv only: the job and the output live here. */
static const exec_job *job_now;
static double *out_now;      /* [time, phase ends..., rank finishes...] */

static long long gcd(long long a, long long b)
{
    while (b) {
        long long r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static sg_mailbox_t connection(int from, int to)
{
    char name[32];
    snprintf(name, sizeof name, "%d>%d", from, to);
    return sg_mailbox_by_name(name);
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int op_key(const sched_op *op)
{
    return 2 * op->peer + (op->kind != OP_SEND);
}

/* The mailbox of every op, looked up once per distinct (peer, direction):
 * SimGrid's by-name lookup builds a string per call, too slow per message. */
static sg_mailbox_t *resolve_mailboxes(int self, const sched_actor *a)
{
    int ops = a->op_count, distinct = 0;
    int *keys = malloc(sizeof(int) * (size_t)(ops + 1));
    for (int o = 0; o < ops; o++) keys[o] = op_key(&a->ops[o]);
    qsort(keys, (size_t)ops, sizeof *keys, compare_ints);
    for (int o = 0; o < ops; o++)
        if (distinct == 0 || keys[distinct - 1] != keys[o]) keys[distinct++] = keys[o];
    sg_mailbox_t *by_key = malloc(sizeof *by_key * (size_t)(distinct + 1));
    for (int k = 0; k < distinct; k++)
        by_key[k] = keys[k] % 2 == 0 ? connection(self, keys[k] / 2) : connection(keys[k] / 2, self);
    sg_mailbox_t *by_op = malloc(sizeof *by_op * (size_t)(ops + 1));
    for (int o = 0; o < ops; o++) {
        int key = op_key(&a->ops[o]);
        const int *found = bsearch(&key, keys, (size_t)distinct, sizeof *keys, compare_ints);
        by_op[o] = by_key[found - keys];
    }
    free(keys);
    free(by_key);
    return by_op;
}

static void actor_main(int argc, char **argv)
{
    (void)argc;
    const exec_job *job = job_now;
    int self = atoi(argv[1]);
    const sched_actor *a = &job->s->actor[self];
    int ops = a->op_count;
    op_graph g;
    sched_op_graph(a, &g);
    int *ready = malloc(sizeof(int) * (size_t)(ops + 1));
    int ready_count = 0;
    for (int o = ops - 1; o >= 0; o--)
        if (g.remaining[o] == 0) ready[ready_count++] = o;
    sg_comm_t *comms = malloc(sizeof *comms * (size_t)(ops + 1));
    int *pending_op = malloc(sizeof(int) * (size_t)(ops + 1));
    int pending = 0, done = 0;
    void *sink = NULL;
    double last = 0;
    sg_mailbox_t *mailbox = resolve_mailboxes(self, a);
    while (done < ops) {
        while (ready_count > 0) {
            int o = ready[--ready_count];
            const sched_op *op = &a->ops[o];
            long bytes = (long)(op->count * job->chunk_units);
            if (op->kind == OP_SEND)
                comms[pending] = sg_mailbox_put_async(mailbox[o], (void *)op, bytes);
            else
                comms[pending] = sg_mailbox_get_async(mailbox[o], &sink);
            pending_op[pending++] = o;
        }
        ssize_t i = sg_comm_wait_any(comms, (size_t)pending);
        int o = pending_op[i];
        comms[i] = comms[pending - 1];
        pending_op[i] = pending_op[pending - 1];
        pending--;
        done++;
        out_now[1 + SCHED_MAX_PHASES + job->s->ranks]++; /* completed ops: a deadlock leaves it short */
        double now = simgrid_get_clock();
        last = now;
        double *phase_end = &out_now[1 + a->ops[o].phase];
        if (now > *phase_end) *phase_end = now;
        for (int k = g.offset[o + 1] - 1; k >= g.offset[o]; k--)
            if (--g.remaining[g.list[k]] == 0) ready[ready_count++] = g.list[k];
    }
    if (self < job->s->ranks) out_now[1 + SCHED_MAX_PHASES + self] = last;
    if (last > out_now[0]) out_now[0] = last;
    op_graph_free(&g);
    free(mailbox);
    free(ready);
    free(comms);
    free(pending_op);
}

static bool run_job(void *ctx, double *out)
{
    exec_job *job = ctx;
    const schedule *s = job->s;
    long pair_count = sched_messages(s), n = 0;
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(pair_count + 1));
    for (int a = 0; a < s->actors; a++)
        for (int o = 0; o < s->actor[a].op_count; o++)
            if (s->actor[a].ops[o].kind == OP_SEND)
                pairs[n++] = (node_pair){job->actor_nodes[a], job->actor_nodes[s->actor[a].ops[o].peer]};
    bool ok = simgrid_open(job->t, pairs, (int)n, job->options, job->scale);
    free(pairs);
    if (!ok) return false;
    job_now = job;
    out_now = out;
    char index[16];
    for (int a = 0; a < s->actors; a++) {
        if (s->actor[a].op_count == 0) continue;
        snprintf(index, sizeof index, "%d", a);
        const char *args[] = {"actor", index};
        sg_actor_create_("actor", simgrid_host(job->t, job->actor_nodes[a]), actor_main, 2, args);
    }
    simgrid_run();
    return true;
}

bool execute_schedule(const topology *t, schedule *s, const int *actor_nodes, double size_bytes,
                      const sim_options *options, exec_result *result, diag *d)
{
    schedule_seal(s);
    /* the chunk grid holds M bytes, except all-to-all's N x N blocks: M is each
     * rank's total payload, M/N per destination (SPEC §4, explainer 01 §7) */
    long long bytes = llround(s->prim == PRIM_ALLTOALL ? size_bytes * s->ranks : size_bytes);
    if (bytes <= 0) return diag_fail(d, "the message size must be at least 1 byte");
    long long k = s->chunks / gcd(bytes, s->chunks); /* smallest K with bytes*K/chunks whole */
    exec_job job = {t, s, actor_nodes, options, bytes * k / s->chunks, (double)k};
    int out_count = 2 + SCHED_MAX_PHASES + s->ranks; /* ..., then the count of completed ops */
    double *out = calloc((size_t)out_count, sizeof *out);
    bool ok = simgrid_fork(run_job, &job, out, out_count, d);
    long total = 0;
    for (int a = 0; a < s->actors; a++) total += s->actor[a].op_count;
    if (ok && out[out_count - 1] != (double)total)
        ok = diag_fail(d, "the schedule deadlocked in simulation: %.0f of %ld operations completed", out[out_count - 1], total);
    if (ok) {
        result->time_s = out[0];
        memcpy(result->phase_end_s, out + 1, sizeof result->phase_end_s);
        result->ranks = s->ranks;
        result->rank_finish_s = malloc(sizeof(double) * (size_t)s->ranks);
        memcpy(result->rank_finish_s, out + 1 + SCHED_MAX_PHASES, sizeof(double) * (size_t)s->ranks);
    }
    free(out);
    return ok;
}

void exec_result_free(exec_result *r)
{
    free(r->rank_finish_s);
    r->rank_finish_s = NULL;
}

int *exec_actor_nodes(const schedule *s, const int *rank_nodes)
{
    int *nodes = malloc(sizeof(int) * (size_t)s->actors);
    for (int a = 0; a < s->actors; a++) nodes[a] = a < s->ranks ? rank_nodes[a] : s->switch_node[a - s->ranks];
    return nodes;
}
