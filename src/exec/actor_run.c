/* executor.c — SimGrid actors that run a schedule, over the network the
 * options select (net/network.h: the fluid model or the packet model).
 *
 * Message sizes: a chunk is M/chunks bytes, which need not be whole.  The
 * networks take whole bytes, so the executor multiplies every message size
 * and every link bandwidth by the same factor K (the smallest that makes
 * M*K/chunks whole): times are unchanged and no chunk is rounded.
 *
 * Endpoint costs: a rank is busy `overhead` per message it sends (LogP's o,
 * charged at the sending endpoint): it pauses o (net->sleep, in the
 * network's clock) before posting each send, its receives already posted
 * progressing meanwhile, so two back-to-back sends pay 2o while sends of
 * different ranks overlap.  Each channel of a rank runs as an actor of its
 * own (NCCL's channels are separate thread blocks) with connections of its
 * own (an op's channel is the network channel's lane), so channels overlap
 * their overheads too. */
#include "exec/executor.h"

#include <limits.h>
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/op_times.h"
#include "net/fluid/simgrid_run.h"
#include "net/network.h"
#include "util/key_map.h"
#include "util/memory.h"

/* One part as the child sees it. */
typedef struct exec_piece {
    const schedule *s;
    const int *actor_nodes;
    double launch_s;
    double overhead_s[TOPO_MAX_TIERS];
    bool charges;            /* any overhead */
    long long chunk_units;   /* one chunk in scaled bytes when exact, else 0 */
    long double chunk_scaled; /* one chunk in scaled bytes, real-valued */
    double *weight_sum;      /* all-to-all skew: prefix sums of chunk weights (chunks + 1), or NULL */
    long ops;                /* of all its actors */
    message_log *log;        /* in the child: message latencies as they complete, or NULL: from TIMES */
    long *actor_first;       /* in the child: where each actor's ops start in TIMES */
    net_op_time *times;      /* in the child: every op's posted and completed times, where the log does not serve (op_times.h) */
    int out_first;           /* where its numbers start in the output */
    double *latency_s;       /* its message latencies (the child writes them, exec_finish hands them on) */
    net_op_time *kept_times; /* its op times when the options keep them, else NULL: as LATENCY_S */
} exec_piece;

typedef struct exec_job {
    const topology *t;
    exec_piece *pieces;
    int count;
    sim_options options;     /* a copy: a retry runs after the caller's options are gone */
    double scale;            /* K */
    const network_ops *net;
    network *network;        /* in the child, while it runs */
    int links_first;         /* where the link counts go in the output */
    int samples_first;       /* where the queue samples go (options->queue_samples), else -1 */
    int sample_count;        /* how many */
    int helper_room;         /* the most operations a helper actor holds (helper_main) */
    int failure_first;       /* where a network failure's message goes in the output */
} exec_job;

struct exec_run {
    exec_job job;
    double *out;
    int out_count;
    sim_segment *more;       /* per part its latencies, then per part its kept op times */
    int more_count;
    sim_child child;
};

/* Output layout per part: time, phase ends, rank finishes, completed ops;
 * then, once, the link counts, the queue samples asked for, and whether the
 * network failed on its own (see network_failure).  The parts' message
 * latencies and kept op times come back on their own (run->more), each
 * received where the result will keep it. */
static int piece_out_count(const schedule *s)
{
    return 2 + SCHED_MAX_PHASES + s->ranks;
}

/* The message of a network failure travels back as text in doubles; op
 * times and link counts as the doubles of their structures. */
#define NETWORK_FAILURE_DOUBLES 32
#define OP_TIME_DOUBLES (sizeof(net_op_time) / sizeof(double))
#define LINK_STATS_DOUBLES ((int)(sizeof(net_link_stats) / sizeof(double)))
_Static_assert(sizeof(net_op_time) % sizeof(double) == 0 && sizeof(net_link_stats) % sizeof(double) == 0,
               "op times and link counts travel as doubles");

static int network_failure_slot(const exec_job *job)
{
    return job->failure_first;
}

_Static_assert(SCHED_MAX_CHANNELS <= NET_MAX_LANES, "every channel of a schedule is a lane of the network");

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

static int compare_keys(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* A connection: peer, direction and channel. */
static long long op_key(const sched_op *op)
{
    return ((long long)op->channel << 33) | ((long long)op->peer << 1) | (op->kind != OP_SEND);
}

/* The connections an actor's ops use, sorted by key, each with its network
 * channel (looked up once per connection: a lookup by name builds a string,
 * too slow per message) and, when the part charges overheads, a send's
 * overhead by the tier its route climbs to (computed once per connection
 * too).  Sized by connections, not by ops: a ring has four, an all-to-all
 * one per op.  One allocation (`key` first) holds the four arrays: every
 * message reads its connection's key, channel and log slot, and at
 * thousands of actors an actor's are cold when its next message comes
 * (docs/scale.md §1), so they share cache lines. */
typedef struct connections {
    long long *key;
    net_channel *channel;
    message_connection **message; /* the part's message log's connection (NULL: no log) */
    double *cost; /* NULL: no endpoint costs */
    int count;
} connections;

static connections resolve_connections(const exec_job *job, int part, int self)
{
    const exec_piece *p = &job->pieces[part];
    const sched_actor *a = &p->s->actor[self];
    const int *nodes = p->actor_nodes;
    connections c = {0};
    key_map seen;
    key_map_init(&seen);
    int capacity = 0;
    for (int o = 0; o < a->op_count; o++) {
        sched_op op = sched_op_at(p->s, self, o);
        long long key = op_key(&op);
        if (key_map_get(&seen, (uint64_t)key)) continue;
        key_map_put(&seen, (uint64_t)key, &c);
        c.key = grow_array(c.key, &capacity, c.count + 1, sizeof *c.key);
        c.key[c.count++] = key;
    }
    key_map_free(&seen);
    qsort(c.key, (size_t)c.count, sizeof *c.key, compare_keys); /* the network's channels made in key order */
    bool charged = p->charges && self < p->s->ranks; /* switches have no software endpoint */
    size_t n = (size_t)c.count;
    c.key = realloc(c.key, n * (sizeof *c.key + sizeof *c.channel + sizeof *c.message + sizeof *c.cost) + 1);
    if (!c.key) out_of_memory();
    c.channel = (net_channel *)(c.key + n);
    message_connection **message = (message_connection **)(c.channel + n);
    double *cost = (double *)(message + n);
    c.message = p->log ? message : NULL;
    c.cost = charged ? memset(cost, 0, n * sizeof *cost) : NULL;
    route_hop *hops = charged ? route_buffer(job->t) : NULL;
    for (int k = 0; k < c.count; k++) {
        int peer = (int)((c.key[k] >> 1) & 0xffffffffLL), lane = (int)(c.key[k] >> 33);
        bool send = c.key[k] % 2 == 0;
        int from = send ? self : peer, to = send ? peer : self;
        c.channel[k] = job->net->channel(job->network, part, lane, from, to, nodes[from], nodes[to]);
        if (c.message) c.message[k] = message_log_connection(p->log, from, to);
        if (send && charged)
            c.cost[k] = p->overhead_s[route_top_tier(job->t, hops, topology_route(job->t, nodes[self], nodes[peer], hops))];
    }
    free(hops);
    return c;
}

/* The index of OP's connection in C (binary search: no allocation, no name). */
static int connection_of(const connections *c, const sched_op *op)
{
    long long key = op_key(op);
    int low = 0, high = c->count - 1;
    while (low < high) {
        int middle = (low + high) / 2;
        if (c->key[middle] < key) low = middle + 1;
        else high = middle;
    }
    return low;
}

static void connections_free(connections *c)
{
    free(c->key); /* the others are in its block */
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

/* One schedule actor, or one channel of it, as it runs: the state its helpers
 * share.
 *
 * A helper is a SimGrid actor on the schedule actor's host that holds at most
 * helper_room operations outstanding (the network's outstanding_max, network.h):
 * SimGrid 3.32 pays for every completion in time proportional to the
 * operations its actor has outstanding (its wait-any, its list of
 * activities), so an actor posting its 1,022 all-to-all operations at once
 * cost O(1,022) per message.  The first helper starts with the simulation; a
 * helper with more ready operations than room starts the next, which posts them
 * at the same simulated instant; whichever helper sees a completion posts what
 * it makes ready; a helper with nothing outstanding ends.  The posting instants,
 * hence every time, are those of one actor posting everything itself.  A part
 * that charges endpoint costs (a busy sender) keeps one helper: its sends'
 * overheads follow one another on one endpoint. */
typedef struct actor_run {
    const exec_piece *p;
    const sched_actor *a;
    int part, self, channel_of; /* the schedule actor; its channel (-1: all of them) */
    int ops;                    /* its operations (of that channel) */
    void *host;
    bool began;        /* the first helper set up what follows */
    /* Dependencies.  When every op waits only for ops at most `reach` before
     * it (a ring: 2), the dependents of a completed op are found among the
     * next `reach` ops and `done` (one bit per op) says which are complete;
     * otherwise `g` lists them (an op graph sized by ops and dependencies). */
    int reach;
    uint64_t *done;
    op_graph g;
    int *ready, ready_count, ready_capacity;
    connections links; /* the connections its ops use, their channels and overheads */
    double last;
    int helpers;       /* started or about to start, not yet ended */
    bool helper_coming; /* a helper created that has not taken its operations yet */
} actor_run;

static void helper_main(int argc, char **argv);

/* Helpers beyond the schedule actors stay about under this many: every actor
 * maps its stack and a guard page, and a process maps at most ~65,000 areas. */
#define HELPERS_MAX 16384

/* The network's outstanding_max, or more when the whole job's operations would
 * otherwise need more than HELPERS_MAX helpers. */
static int helper_room(const network_ops *net, long total_ops)
{
    if (net->outstanding_max <= 0) return INT_MAX;
    long room = (total_ops + HELPERS_MAX - 1) / HELPERS_MAX;
    return room > net->outstanding_max ? (int)(room < INT_MAX ? room : INT_MAX) : net->outstanding_max;
}

static void start_helper(actor_run *r)
{
    r->helpers++;
    r->helper_coming = true;
    simgrid_mark(SIM_IN_SIMGRID);
    sg_actor_t helper = sg_actor_init("actor", r->host);
    sg_actor_set_data(helper, r);
    sg_actor_start_(helper, helper_main, 0, NULL);
    simgrid_mark(SIM_IN_ACTOR);
}

/* Dependents are looked for this far ahead of a completed op at most;
 * beyond, the op graph lists them. */
#define REACH_MAX 64

/* Make op O ready (posted when there is room: post_ready). */
static void make_ready(actor_run *r, int o)
{
    if (r->ready_count == r->ready_capacity) /* doubling: a few times per actor, not per message */
        r->ready = grow_array(r->ready, &r->ready_capacity, r->ready_count + 1, sizeof *r->ready);
    r->ready[r->ready_count++] = o;
}

/* The first helper's setup, in one read of the ops: the ready ops, and how
 * far back the ops reach for their dependencies (past REACH_MAX: the op
 * graph lists the dependents); then the channels. */
static void actor_begin(actor_run *r)
{
    const schedule *s = r->p->s;
    r->began = true;
    r->reach = 0;
    for (int o = r->a->op_count - 1; o >= 0; o--) {
        sched_op op = sched_op_at(s, r->self, o);
        for (int d = 0; d < op.dep_count && r->reach <= REACH_MAX; d++) {
            int back = o - sched_op_dep(s, r->self, o, &op, d);
            if (back > r->reach) r->reach = back;
        }
        if (op.dep_count == 0 && (r->channel_of < 0 || op.channel == r->channel_of)) make_ready(r, o);
    }
    if (r->reach <= REACH_MAX) r->done = calloc((size_t)r->a->op_count / 64 + 1, sizeof *r->done);
    else sched_op_graph(s, r->self, &r->g);
    r->links = resolve_connections(job_now, r->part, r->self);
}

/* Post op O (OP, as sched_op_at gives it; its dependencies met) on its connection's channel,
 * after the sender's overhead when the part charges one. */
static void post(actor_run *r, net_endpoint *me, int o, const sched_op *op)
{
    const network_ops *net = job_now->net;
    int k = connection_of(&r->links, op);
    if (op->kind == OP_SEND) {
        if (r->links.cost && r->links.cost[k] > 0) net->sleep(me, r->links.cost[k]);
        net->send(me, r->links.channel[k], op_bytes(r->p, r->a, op), o);
    } else {
        net->recv(me, r->links.channel[k], o);
    }
    if (r->links.message && r->links.message[k])
        message_log_posted(r->links.message[k], op->kind == OP_SEND, simgrid_get_clock());
}

/* Post ready ops while the helper has room (PENDING outstanding of ROOM). */
static void post_ready(actor_run *r, net_endpoint *me, int *pending, int room)
{
    while (!r->links.cost && r->ready_count > 0 && *pending < room) { /* no endpoint costs: post in readiness order */
        int o = r->ready[--r->ready_count];
        sched_op op = sched_op_at(r->p->s, r->self, o);
        post(r, me, o, &op);
        ++*pending;
    }
    /* receives first: they progress while the endpoint is busy with a send's overhead */
    for (int pass = 0; pass < 2 && r->links.cost; pass++)
        for (int k = r->ready_count - 1; k >= 0 && *pending < room; k--) {
            int o = r->ready[k];
            sched_op op = sched_op_at(r->p->s, r->self, o);
            if ((op.kind == OP_SEND) != (pass == 1)) continue;
            r->ready[k] = r->ready[--r->ready_count];
            post(r, me, o, &op);
            ++*pending;
        }
}

/* Whether every dependency of op D other than op O is complete, and D waits for O. */
static bool last_dependency(const actor_run *r, int d, int o)
{
    sched_op op = sched_op_at(r->p->s, r->self, d);
    bool waits = false;
    for (int k = 0; k < op.dep_count; k++) {
        int dep = sched_op_dep(r->p->s, r->self, d, &op, k);
        if (dep == o) waits = true;
        else if (!(r->done[dep / 64] >> (dep % 64) & 1)) return false;
    }
    return waits;
}

/* Operation O completed now: count it, and make ready what waited for it
 * (the dependents in decreasing op order either way, so that they are posted
 * in increasing order). */
static void actor_complete(actor_run *r, int o)
{
    double *out = out_now + r->p->out_first;
    double now = simgrid_get_clock();
    out[1 + SCHED_MAX_PHASES + r->p->s->ranks]++; /* completed ops: a deadlock leaves it short */
    r->last = now;
    sched_op op = sched_op_at(r->p->s, r->self, o);
    double *phase_end = &out[1 + op.phase];
    if (now > *phase_end) *phase_end = now;
    if (r->links.message) {
        message_connection *c = r->links.message[connection_of(&r->links, &op)];
        if (c) message_log_done(c, op.kind == OP_SEND, now);
    }
    if (r->done) {
        r->done[o / 64] |= 1ULL << (o % 64);
        int last = o + r->reach < r->a->op_count - 1 ? o + r->reach : r->a->op_count - 1;
        for (int d = last; d > o; d--)
            if (last_dependency(r, d, o)) make_ready(r, d);
        return;
    }
    for (int k = r->g.offset[o + 1] - 1; k >= r->g.offset[o]; k--)
        if (--r->g.remaining[r->g.list[k]] == 0) make_ready(r, r->g.list[k]);
}

/* The last helper ended: the actor's (or channel's) finish time. */
static void actor_end(actor_run *r)
{
    double *out = out_now + r->p->out_first;
    double *finish = &out[1 + SCHED_MAX_PHASES + r->self];
    if (r->self < r->p->s->ranks && r->last > *finish) *finish = r->last;
    if (r->last > out[0]) out[0] = r->last;
    free(r->done);
    op_graph_free(&r->g);
    connections_free(&r->links);
    free(r->ready);
}

/* One helper.  It marks where it is (simgrid_mark) around every SimGrid call,
 * so that a crash in SimGrid's kernel is told apart from one in this code. */
static void helper_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    simgrid_mark(SIM_IN_ACTOR);
    actor_run *r = sg_actor_self_get_data();
    const network_ops *net = job_now->net;
    bool first = !r->began;
    if (first) actor_begin(r);
    r->helper_coming = false;
    int room = r->links.cost ? r->ops : job_now->helper_room < r->ops ? job_now->helper_room : r->ops;
    net_op_time *times = r->p->times ? r->p->times + r->p->actor_first[r->self] : NULL;
    net_endpoint *me = net->endpoint(job_now->network, room, times);
    if (first && r->p->launch_s > 0) net->sleep(me, r->p->launch_s);
    int pending = 0;
    for (;;) {
        post_ready(r, me, &pending, room);
        if (r->ready_count > 0 && !r->helper_coming) start_helper(r);
        if (pending == 0) break;
        int o = net->wait_any(me);
        pending--;
        actor_complete(r, o);
    }
    net->endpoint_close(me);
    if (--r->helpers == 0) actor_end(r);
    simgrid_mark(SIM_IN_SIMGRID);
}

/* Whether every op of S waits only for ops of its own channel, so that each
 * channel of an actor can run as an actor of its own. */
static bool channels_independent(const schedule *s)
{
    if (s->channels < 2) return false;
    for (int a = 0; a < s->actors; a++)
        for (int o = 0; o < s->actor[a].op_count; o++) {
            sched_op op = sched_op_at(s, a, o);
            for (int d = 0; d < op.dep_count; d++)
                if (sched_op_at(s, a, sched_op_dep(s, a, o, &op, d)).channel != op.channel) return false;
        }
    return true;
}

/* The SimGrid actors actor A of S runs as: one, or one per channel it has
 * ops on (SPLIT); LANES[i] their channels (-1: all). */
static int actor_lanes(const schedule *s, int a, bool split, int lanes[SCHED_MAX_CHANNELS])
{
    if (s->actor[a].op_count == 0) return 0;
    if (!split) {
        lanes[0] = -1;
        return 1;
    }
    bool used[SCHED_MAX_CHANNELS] = {false};
    for (int o = 0; o < s->actor[a].op_count; o++) used[sched_op_at(s, a, o).channel] = true;
    int count = 0;
    for (int c = 0; c < s->channels; c++)
        if (used[c]) lanes[count++] = c;
    return count;
}

/* In the child: room for every op's times, actor by actor (the kept times'
 * own when the options keep them). */
static void keep_op_times(exec_piece *p)
{
    p->actor_first = malloc(sizeof *p->actor_first * (size_t)(p->s->actors + 1));
    p->actor_first[0] = 0;
    for (int a = 0; a < p->s->actors; a++) p->actor_first[a + 1] = p->actor_first[a] + p->s->actor[a].op_count;
    p->times = p->kept_times ? p->kept_times : calloc((size_t)p->ops + 1, sizeof *p->times);
}

long exec_pair_capacity(const schedule *s)
{
    long capacity = 0;
    for (int a = 0; a < s->actors; a++) capacity += s->actor[a].op_count < s->actors ? s->actor[a].op_count : s->actors;
    return capacity;
}

long exec_part_pairs(const schedule *s, const int *actor_nodes, node_pair *pairs)
{
    int *messages = calloc((size_t)s->actors + 1, sizeof *messages), *peers = malloc(sizeof *peers * ((size_t)s->actors + 1));
    long count = 0;
    for (int a = 0; a < s->actors; a++) {
        int distinct = sched_send_peers(s, a, messages, peers);
        for (int i = 0; i < distinct; i++) {
            pairs[count++] = (node_pair){actor_nodes[a], actor_nodes[peers[i]]};
            messages[peers[i]] = 0; /* for the next sender */
        }
    }
    free(messages);
    free(peers);
    return count;
}

/* The node pairs SimGrid needs routes for, every part's (simgrid_zone_build
 * sorts and merges them: a ring needs N pairs, not a pair per message).
 * Sets *COUNT. */
static node_pair *route_pairs(const exec_job *job, long *count)
{
    long capacity = 0;
    for (int k = 0; k < job->count; k++) capacity += exec_pair_capacity(job->pieces[k].s);
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(capacity + 1));
    *count = 0;
    for (int k = 0; k < job->count; k++)
        *count += exec_part_pairs(job->pieces[k].s, job->pieces[k].actor_nodes, pairs + *count);
    return pairs;
}

static bool run_job(void *ctx, double *out)
{
    exec_job *job = ctx;
    long n = 0;
    node_pair *pairs = route_pairs(job, &n);
    int actors = 0, lanes[SCHED_MAX_CHANNELS];
    long total_ops = 0;
    bool *split = calloc((size_t)job->count + 1, sizeof(bool));
    for (int k = 0; k < job->count; k++) {
        exec_piece *p = &job->pieces[k];
        bool online = !job->options.keep_op_times && message_log_applies(p->s);
        p->log = online ? message_log_open(p->s, p->latency_s) : NULL;
        if (!p->log) keep_op_times(p);
        split[k] = channels_independent(job->pieces[k].s);
        for (int a = 0; a < job->pieces[k].s->actors; a++) {
            actors += actor_lanes(job->pieces[k].s, a, split[k], lanes);
            total_ops += job->pieces[k].s->actor[a].op_count;
        }
    }
    job->helper_room = helper_room(job->net, total_ops);
    job->network = job->net->open(job->t, pairs, (int)n, actors, &job->options, job->scale);
    free(pairs);
    if (!job->network) {
        free(split);
        return false;
    }
    job_now = job;
    out_now = out;
    actor_run *runs = calloc((size_t)actors + 1, sizeof *runs), *r = runs;
    for (int k = 0; k < job->count; k++) {
        const schedule *s = job->pieces[k].s;
        for (int a = 0; a < s->actors; a++) {
            for (int i = 0, count = actor_lanes(s, a, split[k], lanes); i < count; i++) {
                int ops = 0;
                for (int o = 0; o < s->actor[a].op_count; o++) ops += lanes[i] < 0 || sched_op_at(s, a, o).channel == lanes[i];
                *r = (actor_run){.p = &job->pieces[k], .a = &s->actor[a], .part = k, .self = a, .channel_of = lanes[i],
                                 .ops = ops, .host = simgrid_host(job->t, job->pieces[k].actor_nodes[a])};
                start_helper(r++);
            }
        }
    }
    free(split);
    simgrid_simulate();
    free(runs);
    char why[NETWORK_FAILURE_DOUBLES * sizeof(double)] = "";
    double *samples = job->samples_first >= 0 ? out + job->samples_first : NULL;
    if (!job->net->close(job->network, (net_link_stats *)(out + job->links_first), samples, why, sizeof why))
        memcpy(out + network_failure_slot(job), why, sizeof why);
    for (int k = 0; k < job->count; k++) {
        exec_piece *p = &job->pieces[k];
        if (!p->log) op_times_latencies(p->s, p->times, p->actor_first, p->latency_s);
        message_log_close(p->log);
        if (p->times != p->kept_times) free(p->times);
        free(p->actor_first);
    }
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

/* Wire bytes per data byte as numerator / denominator (1 / 1 without a protocol). */
static long long wire_numerator(const exec_part *p) { return p->wire_denominator > 0 ? p->wire_numerator : 1; }
static long long wire_denominator(const exec_part *p) { return p->wire_denominator > 0 ? p->wire_denominator : 1; }

#define SCALE_CAP (1LL << 10) /* beyond this common K, chunk sizes are rounded (to 2^-24 byte) */

/* The common K: the smallest that makes every unweighted part's chunks whole,
 * or SCALE_CAP when that is larger or a part is weighted. */
static long long common_scale(const exec_part *parts, int count)
{
    long long k = 1;
    for (int i = 0; i < count; i++) {
        if (parts[i].block_weight) return SCALE_CAP;
        long long bytes = grid_bytes(&parts[i]) * wire_numerator(&parts[i]);
        long long chunks = parts[i].s->chunks * wire_denominator(&parts[i]);
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

double exec_op_bytes(const exec_part *part, int actor, int op)
{
    const schedule *s = part->s;
    const sched_actor *a = &s->actor[actor];
    sched_op o = sched_op_at(s, actor, op);
    double chunk = (double)grid_bytes(part) / s->chunks, chunks = o.count;
    if (part->block_weight) { /* skewed all-to-all: each chunk weighs its block's weight */
        int per_block = s->chunks / (s->ranks * s->ranks);
        chunks = 0;
        for (int i = 0; i < sched_op_range_count(&o); i++) {
            chunk_range r = sched_op_range(a, &o, i);
            for (int c = r.first; c < r.first + r.count; c++) chunks += part->block_weight[c / per_block];
        }
    }
    return chunks * chunk;
}

static void free_job(exec_job *job)
{
    for (int k = 0; k < job->count; k++) {
        free(job->pieces[k].weight_sum);
        free(job->pieces[k].latency_s);
        free(job->pieces[k].kept_times);
    }
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
                          .options = *options, .scale = (double)scale, .net = network_for(options)};
    for (int k = 0; k < count; k++) {
        exec_piece *p = &run->job.pieces[k];
        long long bytes = grid_bytes(&parts[k]) * wire_numerator(&parts[k]);
        long long chunks = parts[k].s->chunks * wire_denominator(&parts[k]);
        p->s = parts[k].s;
        p->actor_nodes = parts[k].actor_nodes;
        p->launch_s = parts[k].launch_s;
        for (int tier = 0; tier < TOPO_MAX_TIERS; tier++) {
            p->overhead_s[tier] = parts[k].overhead_s[tier];
            p->charges |= p->overhead_s[tier] > 0;
        }
        p->chunk_scaled = (long double)bytes * scale / chunks;
        __int128 scaled = (__int128)bytes * scale;
        p->chunk_units = scaled % chunks == 0 && scaled / chunks < LLONG_MAX / 2 ? (long long)(scaled / chunks) : 0;
        p->weight_sum = parts[k].block_weight ? chunk_weight_sums(&parts[k]) : NULL;
        for (int a = 0; a < p->s->actors; a++) p->ops += p->s->actor[a].op_count;
        p->out_first = run->out_count;
        run->out_count += piece_out_count(p->s);
    }
    run->more = malloc(sizeof *run->more * (size_t)(2 * count));
    for (int k = 0; k < count; k++) { /* calloc'd: untouched in the parent until they come back */
        exec_piece *p = &run->job.pieces[k];
        long messages = sched_messages(p->s);
        p->latency_s = calloc((size_t)messages + 1, sizeof *p->latency_s);
        run->more[run->more_count++] = (sim_segment){p->latency_s, messages};
    }
    for (int k = 0; k < count && options->keep_op_times; k++) {
        exec_piece *p = &run->job.pieces[k];
        p->kept_times = calloc((size_t)p->ops + 1, sizeof *p->kept_times);
        run->more[run->more_count++] = (sim_segment){(double *)p->kept_times, p->ops * (long)OP_TIME_DOUBLES};
    }
    run->job.links_first = run->out_count;
    run->out_count += t->link_count * 2 * LINK_STATS_DOUBLES;
    const queue_sampling *q = options->queue_samples;
    run->job.samples_first = q ? run->out_count : -1;
    run->job.sample_count = q ? q->port_count * q->count : 0;
    run->out_count += run->job.sample_count;
    run->job.failure_first = run->out_count;
    run->out_count += NETWORK_FAILURE_DOUBLES;
    run->out = calloc((size_t)run->out_count, sizeof(double));
    if (!simgrid_spawn_more(run_job, &run->job, run->out, run->out_count, run->more, run->more_count, label,
                            &run->child, d)) {
        free_job(&run->job);
        free(run->out);
        free(run->more);
        free(run);
        return NULL;
    }
    return run;
}

bool exec_finish(exec_run *run, exec_result *results, exec_views *views, diag *d)
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
        exec_piece *p = &run->job.pieces[k];
        const double *out = run->out + p->out_first;
        exec_result *r = &results[k];
        r->time_s = out[0];
        memcpy(r->phase_end_s, out + 1, sizeof r->phase_end_s);
        r->ranks = p->s->ranks;
        r->rank_finish_s = malloc(sizeof(double) * (size_t)p->s->ranks);
        memcpy(r->rank_finish_s, out + 1 + SCHED_MAX_PHASES, sizeof(double) * (size_t)p->s->ranks);
        r->messages = sched_messages(p->s);
        r->latency_s = p->latency_s; /* handed on, not copied: the largest arrays of a run */
        r->op_times = p->kept_times;
        p->latency_s = NULL;
        p->kept_times = NULL;
    }
    if (ok && views) { /* the options are the caller's, and may be gone: the job says what came back */
        views->ports = run->job.t->link_count * 2;
        views->links = malloc(sizeof *views->links * (size_t)(views->ports + 1));
        memcpy(views->links, run->out + run->job.links_first, sizeof *views->links * (size_t)views->ports);
        views->queue_bytes = NULL;
        if (run->job.samples_first >= 0) {
            views->queue_bytes = malloc(sizeof(double) * (size_t)(run->job.sample_count + 1));
            memcpy(views->queue_bytes, run->out + run->job.samples_first, sizeof(double) * (size_t)run->job.sample_count);
        }
    }
    free_job(&run->job);
    free(run->out);
    free(run->more);
    free(run);
    return ok;
}

bool execute_schedule(const topology *t, schedule *s, const int *actor_nodes, double size_bytes,
                      const sim_options *options, exec_result *result, diag *d)
{
    exec_part part = {s, actor_nodes, size_bytes, NULL, 0, {0}, 1, 1};
    for (int tier = 0; tier < t->tier_count; tier++) part.overhead_s[tier] = t->tiers[tier].overhead_s;
    char label[96];
    snprintf(label, sizeof label, "%s on %d ranks of platform '%s'", primitive_name(s->prim), s->ranks, t->name);
    exec_run *run = exec_start(t, &part, 1, options, label, d);
    return run && exec_finish(run, result, NULL, d);
}

void exec_result_free(exec_result *r)
{
    free(r->rank_finish_s);
    free(r->latency_s);
    free(r->op_times);
    r->rank_finish_s = r->latency_s = NULL;
    r->op_times = NULL;
}

void exec_views_free(exec_views *v)
{
    free(v->links);
    free(v->queue_bytes);
    v->links = NULL;
    v->queue_bytes = NULL;
}

int *exec_actor_nodes(const schedule *s, const int *rank_nodes)
{
    int *nodes = malloc(sizeof(int) * (size_t)s->actors);
    for (int a = 0; a < s->actors; a++) nodes[a] = a < s->ranks ? rank_nodes[a] : s->switch_node[a - s->ranks];
    return nodes;
}
