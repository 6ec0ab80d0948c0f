/* executor.c — SimGrid actors that run a schedule, over the network the
 * options select (net/network.h: the fluid model or the packet model).
 *
 * Message sizes: a chunk is M/chunks bytes, which need not be whole.  The
 * networks take whole bytes, so the executor multiplies every message size
 * and every link bandwidth by the same factor K (the smallest that makes
 * M*K/chunks whole): times are unchanged and no chunk is rounded. */
#include "exec/executor.h"

#include <limits.h>
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/network.h"

/* One part as the child sees it. */
typedef struct exec_piece {
    const schedule *s;
    const int *actor_nodes;
    long long chunk_units;   /* one chunk in scaled bytes when exact, else 0 */
    long double chunk_scaled; /* one chunk in scaled bytes, real-valued */
    double *weight_sum;      /* all-to-all skew: prefix sums of chunk weights (chunks + 1), or NULL */
    int out_first;           /* where its numbers start in the output */
} exec_piece;

typedef struct exec_job {
    const topology *t;
    exec_piece *pieces;
    int count;
    const sim_options *options;
    double scale;            /* K */
    const network_ops *net;
    network *network;        /* in the child, while it runs */
    int lane_room;           /* the most operations a lane holds (lane_main) */
    int failure_first;       /* where a network failure's message goes in the output */
} exec_job;

struct exec_run {
    exec_job job;
    double *out;
    int out_count;
    sim_child child;
};

/* Output layout per part: time, phase ends, rank finishes, completed ops;
 * then, once, whether the network failed on its own (see network_failure). */
static int piece_out_count(const schedule *s)
{
    return 2 + SCHED_MAX_PHASES + s->ranks;
}

/* The message of a network failure travels back as text in doubles. */
#define NETWORK_FAILURE_DOUBLES 32

static int network_failure_slot(const exec_job *job)
{
    return job->failure_first;
}

/* SimGrid's C actors receive argv only: the job and the output live here. */
static const exec_job *job_now;
static double *out_now;

static long long gcd(long long a, long long b)
{
    while (b) {
        long long r = a % b;
        a = b;
        b = r;
    }
    return a;
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

/* The channel of every op, looked up once per distinct (peer, direction):
 * a lookup by name builds a string, too slow per message. */
static net_channel *resolve_channels(const exec_job *job, int part, int self, const sched_actor *a)
{
    const int *nodes = job->pieces[part].actor_nodes;
    int ops = a->op_count, distinct = 0;
    int *keys = malloc(sizeof(int) * (size_t)(ops + 1));
    for (int o = 0; o < ops; o++) keys[o] = op_key(&a->ops[o]);
    qsort(keys, (size_t)ops, sizeof *keys, compare_ints);
    for (int o = 0; o < ops; o++)
        if (distinct == 0 || keys[distinct - 1] != keys[o]) keys[distinct++] = keys[o];
    net_channel *by_key = malloc(sizeof *by_key * (size_t)(distinct + 1));
    for (int k = 0; k < distinct; k++) {
        int peer = keys[k] / 2, from = keys[k] % 2 == 0 ? self : peer, to = keys[k] % 2 == 0 ? peer : self;
        by_key[k] = job->net->channel(job->network, part, from, to, nodes[from], nodes[to]);
    }
    net_channel *by_op = malloc(sizeof *by_op * (size_t)(ops + 1));
    for (int o = 0; o < ops; o++) {
        int key = op_key(&a->ops[o]);
        const int *found = bsearch(&key, keys, (size_t)distinct, sizeof *keys, compare_ints);
        by_op[o] = by_key[found - keys];
    }
    free(keys);
    free(by_key);
    return by_op;
}

/* Scaled bytes of one op: exact when the part's chunks are whole, else the
 * weighted (skewed all-to-all) or rounded size. */
static long op_bytes(const exec_piece *p, const sched_actor *a, const sched_op *op)
{
    if (!p->weight_sum && p->chunk_units) return (long)(op->count * p->chunk_units);
    long double chunks = op->count;
    if (p->weight_sum) {
        chunks = 0;
        for (int i = 0; i < sched_op_range_count(op); i++) {
            chunk_range r = sched_op_range(a, op, i);
            chunks += (long double)p->weight_sum[r.first + r.count] - p->weight_sum[r.first];
        }
    }
    long bytes = (long)llroundl(chunks * p->chunk_scaled);
    return bytes > 0 ? bytes : 1; /* a zero-weight block still synchronises */
}

/* One schedule actor as it runs: the state its lanes share.
 *
 * A lane is a SimGrid actor on the schedule actor's host that holds at most
 * lane_ops operations outstanding (the network's lane_ops, network.h): SimGrid
 * 3.32 pays for every completion in time proportional to the operations its
 * actor has outstanding (its wait-any, its list of activities), so an actor
 * posting its 1,022 all-to-all operations at once cost O(1,022) per message.
 * The first lane starts with the simulation; a lane with more ready operations
 * than room starts the next, which posts them at the same simulated instant;
 * whichever lane sees a completion posts what it makes ready; a lane with
 * nothing outstanding ends.  The posting instants, hence every time, are those
 * of one actor posting everything itself. */
typedef struct actor_run {
    const exec_piece *p;
    const sched_actor *a;
    int part, self, ops;
    void *host;
    op_graph g;
    int *ready, ready_count;
    net_channel *channel;
    int done;
    double last;
    int lanes;         /* started or about to start, not yet ended */
    bool lane_coming;  /* a lane created that has not taken its operations yet */
} actor_run;

static void lane_main(int argc, char **argv);

/* Lanes beyond the schedule actors stay about under this many: every actor
 * maps its stack and a guard page, and a process maps at most ~65,000 areas. */
#define LANES_MAX 16384

/* The network's lane_ops, or more when the whole job's operations would
 * otherwise need more than LANES_MAX lanes. */
static int lane_room(const network_ops *net, long total_ops)
{
    if (net->lane_ops <= 0) return INT_MAX;
    long room = (total_ops + LANES_MAX - 1) / LANES_MAX;
    return room > net->lane_ops ? (int)(room < INT_MAX ? room : INT_MAX) : net->lane_ops;
}

static void start_lane(actor_run *r)
{
    r->lanes++;
    r->lane_coming = true;
    simgrid_mark(SIM_IN_SIMGRID);
    sg_actor_t lane = sg_actor_init("lane", r->host);
    sg_actor_set_data(lane, r);
    sg_actor_start_(lane, lane_main, 0, NULL);
    simgrid_mark(SIM_IN_ACTOR);
}

/* The first lane's setup: the op graph, the channels, the ready ops. */
static void actor_begin(actor_run *r)
{
    sched_op_graph(r->a, &r->g);
    r->ready = malloc(sizeof(int) * (size_t)(r->ops + 1));
    for (int o = r->ops - 1; o >= 0; o--)
        if (r->g.remaining[o] == 0) r->ready[r->ready_count++] = o;
    r->channel = resolve_channels(job_now, r->part, r->self, r->a);
}

/* Operation O completed now: count it, and make ready what waited for it. */
static void actor_complete(actor_run *r, int o)
{
    double *out = out_now + r->p->out_first;
    double now = simgrid_get_clock();
    r->done++;
    out[1 + SCHED_MAX_PHASES + r->p->s->ranks]++; /* completed ops: a deadlock leaves it short */
    r->last = now;
    double *phase_end = &out[1 + r->a->ops[o].phase];
    if (now > *phase_end) *phase_end = now;
    for (int k = r->g.offset[o + 1] - 1; k >= r->g.offset[o]; k--)
        if (--r->g.remaining[r->g.list[k]] == 0) r->ready[r->ready_count++] = r->g.list[k];
}

/* The last lane ended: the actor's finish time. */
static void actor_end(actor_run *r)
{
    double *out = out_now + r->p->out_first;
    if (r->self < r->p->s->ranks) out[1 + SCHED_MAX_PHASES + r->self] = r->last;
    if (r->last > out[0]) out[0] = r->last;
    op_graph_free(&r->g);
    free(r->channel);
    free(r->ready);
}

/* One lane.  It marks where it is (simgrid_mark) around every SimGrid call,
 * so that a crash in SimGrid's kernel is told apart from one in this code. */
static void lane_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    simgrid_mark(SIM_IN_ACTOR);
    actor_run *r = sg_actor_self_get_data();
    const network_ops *net = job_now->net;
    if (!r->channel) actor_begin(r);
    r->lane_coming = false;
    int room = job_now->lane_room < r->ops ? job_now->lane_room : r->ops;
    net_endpoint *me = net->endpoint(job_now->network, room);
    int pending = 0;
    for (;;) {
        for (; r->ready_count > 0 && pending < room; pending++) {
            int o = r->ready[--r->ready_count];
            const sched_op *op = &r->a->ops[o];
            if (op->kind == OP_SEND) net->send(me, r->channel[o], op_bytes(r->p, r->a, op), o);
            else net->recv(me, r->channel[o], o);
        }
        if (r->ready_count > 0 && !r->lane_coming) start_lane(r);
        if (pending == 0) break;
        int o = net->wait_any(me);
        pending--;
        actor_complete(r, o);
    }
    net->endpoint_close(me);
    if (--r->lanes == 0) actor_end(r);
    simgrid_mark(SIM_IN_SIMGRID);
}

static bool run_job(void *ctx, double *out)
{
    exec_job *job = ctx;
    long pair_count = 0, n = 0;
    for (int k = 0; k < job->count; k++) pair_count += sched_messages(job->pieces[k].s);
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(pair_count + 1));
    for (int k = 0; k < job->count; k++) {
        const schedule *s = job->pieces[k].s;
        const int *nodes = job->pieces[k].actor_nodes;
        for (int a = 0; a < s->actors; a++)
            for (int o = 0; o < s->actor[a].op_count; o++)
                if (s->actor[a].ops[o].kind == OP_SEND)
                    pairs[n++] = (node_pair){nodes[a], nodes[s->actor[a].ops[o].peer]};
    }
    int actors = 0;
    long total_ops = 0;
    for (int k = 0; k < job->count; k++)
        for (int a = 0; a < job->pieces[k].s->actors; a++) {
            actors += job->pieces[k].s->actor[a].op_count > 0;
            total_ops += job->pieces[k].s->actor[a].op_count;
        }
    job->lane_room = lane_room(job->net, total_ops);
    job->network = job->net->open(job->t, pairs, (int)n, actors, job->options, job->scale);
    free(pairs);
    if (!job->network) return false;
    job_now = job;
    out_now = out;
    actor_run *runs = calloc((size_t)actors + 1, sizeof *runs), *r = runs;
    for (int k = 0; k < job->count; k++) {
        const schedule *s = job->pieces[k].s;
        for (int a = 0; a < s->actors; a++) {
            if (s->actor[a].op_count == 0) continue;
            *r = (actor_run){.p = &job->pieces[k], .a = &s->actor[a], .part = k, .self = a,
                             .ops = s->actor[a].op_count, .host = simgrid_host(job->t, job->pieces[k].actor_nodes[a])};
            start_lane(r++);
        }
    }
    simgrid_simulate();
    free(runs);
    char why[NETWORK_FAILURE_DOUBLES * sizeof(double)] = "";
    if (!job->net->close(job->network, why, sizeof why)) memcpy(out + network_failure_slot(job), why, sizeof why);
    return true;
}

/* The bytes of a part's chunk grid: M, except all-to-all's N x N blocks where
 * M is each rank's total payload, M/N per destination (SPEC §4, 01 §7), and a
 * permutation's N messages of M. */
static long long grid_bytes(const exec_part *p)
{
    bool per_rank = p->s->prim == PRIM_ALLTOALL || p->s->prim == PRIM_PERMUTATION;
    return llround(per_rank ? p->size_bytes * p->s->ranks : p->size_bytes);
}

#define SCALE_CAP (1LL << 10) /* beyond this common K, chunk sizes are rounded (to 2^-24 byte) */

/* The common K: the smallest that makes every unweighted part's chunks whole,
 * or SCALE_CAP when that is larger or a part is weighted. */
static long long common_scale(const exec_part *parts, int count)
{
    long long k = 1;
    for (int i = 0; i < count; i++) {
        if (parts[i].block_weight) return SCALE_CAP;
        long long bytes = grid_bytes(&parts[i]), chunks = parts[i].s->chunks;
        long long ki = chunks / gcd(bytes, chunks);
        k = k / gcd(k, ki) * ki;
        if (k > SCALE_CAP) return SCALE_CAP;
    }
    return k;
}

/* Prefix sums of the chunk weights of a skewed all-to-all part. */
static double *chunk_weight_sums(const exec_part *p)
{
    const schedule *s = p->s;
    int per_block = s->chunks / (s->ranks * s->ranks);
    double *sum = malloc(sizeof(double) * (size_t)(s->chunks + 1));
    sum[0] = 0;
    for (int c = 0; c < s->chunks; c++) sum[c + 1] = sum[c] + p->block_weight[c / per_block];
    return sum;
}

static void free_job(exec_job *job)
{
    for (int k = 0; k < job->count; k++) free(job->pieces[k].weight_sum);
    free(job->pieces);
}

/* The parts' actors on at most SIM_MAX_HOSTS distinct nodes. */
static bool hosts_allowed(const topology *t, const exec_part *parts, int count, const char *label, diag *d)
{
    char *used = calloc((size_t)topology_node_count(t), 1);
    int hosts = 0;
    for (int k = 0; k < count; k++)
        for (int a = 0; a < parts[k].s->actors; a++)
            if (!used[parts[k].actor_nodes[a]]) {
                used[parts[k].actor_nodes[a]] = 1;
                hosts++;
            }
    free(used);
    if (hosts <= SIM_MAX_HOSTS) return true;
    return diag_fail(d, "%s places actors on %d hosts; collsim simulates at most %d at once (docs/reliability.md)", label,
                     hosts, SIM_MAX_HOSTS);
}

exec_run *exec_start(const topology *t, exec_part *parts, int count, const sim_options *options, const char *label,
                     diag *d)
{
    if (count < 1) {
        diag_fail(d, "nothing to simulate");
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        schedule_seal(parts[k].s);
        if (grid_bytes(&parts[k]) <= 0) {
            diag_fail(d, "the message size must be at least 1 byte");
            return NULL;
        }
    }
    if (!hosts_allowed(t, parts, count, label, d)) return NULL;
    exec_run *run = calloc(1, sizeof *run);
    long long scale = common_scale(parts, count);
    run->job = (exec_job){.t = t, .pieces = calloc((size_t)count, sizeof(exec_piece)), .count = count,
                          .options = options, .scale = (double)scale, .net = network_for(options)};
    for (int k = 0; k < count; k++) {
        exec_piece *p = &run->job.pieces[k];
        long long bytes = grid_bytes(&parts[k]), chunks = parts[k].s->chunks;
        p->s = parts[k].s;
        p->actor_nodes = parts[k].actor_nodes;
        p->chunk_scaled = (long double)bytes * scale / chunks;
        __int128 scaled = (__int128)bytes * scale;
        p->chunk_units = scaled % chunks == 0 && scaled / chunks < LLONG_MAX / 2 ? (long long)(scaled / chunks) : 0;
        p->weight_sum = parts[k].block_weight ? chunk_weight_sums(&parts[k]) : NULL;
        p->out_first = run->out_count;
        run->out_count += piece_out_count(p->s);
    }
    run->job.failure_first = run->out_count;
    run->out_count += NETWORK_FAILURE_DOUBLES;
    run->out = calloc((size_t)run->out_count, sizeof(double));
    if (!simgrid_spawn(run_job, &run->job, run->out, run->out_count, label, &run->child, d)) {
        free_job(&run->job);
        free(run->out);
        free(run);
        return NULL;
    }
    return run;
}

bool exec_finish(exec_run *run, exec_result *results, diag *d)
{
    bool ok = simgrid_join(&run->child, d);
    const char *failure = (const char *)(run->out + network_failure_slot(&run->job));
    if (ok && failure[0]) ok = diag_fail(d, "%.*s", (int)(NETWORK_FAILURE_DOUBLES * sizeof(double)) - 1, failure);
    for (int k = 0; ok && k < run->job.count; k++) {
        const exec_piece *p = &run->job.pieces[k];
        const double *out = run->out + p->out_first;
        long total = 0;
        for (int a = 0; a < p->s->actors; a++) total += p->s->actor[a].op_count;
        if (out[piece_out_count(p->s) - 1] != (double)total)
            ok = diag_fail(d, "the schedule deadlocked in simulation: %.0f of %ld operations completed",
                           out[piece_out_count(p->s) - 1], total);
    }
    for (int k = 0; ok && k < run->job.count; k++) {
        const exec_piece *p = &run->job.pieces[k];
        const double *out = run->out + p->out_first;
        exec_result *r = &results[k];
        r->time_s = out[0];
        memcpy(r->phase_end_s, out + 1, sizeof r->phase_end_s);
        r->ranks = p->s->ranks;
        r->rank_finish_s = malloc(sizeof(double) * (size_t)p->s->ranks);
        memcpy(r->rank_finish_s, out + 1 + SCHED_MAX_PHASES, sizeof(double) * (size_t)p->s->ranks);
    }
    free_job(&run->job);
    free(run->out);
    free(run);
    return ok;
}

bool execute_schedule(const topology *t, schedule *s, const int *actor_nodes, double size_bytes,
                      const sim_options *options, exec_result *result, diag *d)
{
    exec_part part = {s, actor_nodes, size_bytes, NULL};
    char label[96];
    snprintf(label, sizeof label, "%s on %d ranks of platform '%s'", primitive_name(s->prim), s->ranks, t->name);
    exec_run *run = exec_start(t, &part, 1, options, label, d);
    return run && exec_finish(run, result, d);
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
