/* actor_run.c — in the simulation child, the schedule actors of a job's
 * parts, talking to the network through net/network.h: which ops are ready
 * (their dependencies met), posting them on their connections' channels,
 * their completions.  A blocking network (the fluid model) runs each as
 * SimGrid actors of its own, with the helper actors that spread an actor's
 * outstanding operations; a driven one (the packet model) calls each back
 * from its own actor when it has something to tell (actor_wake).  What they record (finish
 * times, phase ends, completed ops) goes to each part's tally, which job.c
 * sends back to the parent; the bytes of each message come from
 * message_bytes.h.
 *
 * Invariants:
 *   1. The per-message path (post, actor_complete) allocates nothing, builds
 *      no string and looks nothing up by name: a connection's channel, log
 *      slot and overhead are resolved once per connection (actor_begin).
 *   2. The dependents of a completed op become ready in decreasing op order
 *      whichever way they are found (the next ops or the op graph), and are
 *      posted in increasing order, so that the posting order, hence every
 *      time, does not depend on how an actor is run.
 *   3. However many helpers an actor spreads its operations over, they post
 *      at the instants one actor posting everything would.
 *
 * Endpoint costs: a rank is busy `overhead` per message it sends (LogP's o,
 * charged at the sending endpoint): it pauses o (net->sleep, in the
 * network's clock) before posting each send, its receives already posted
 * progressing meanwhile, so two back-to-back sends pay 2o while sends of
 * different ranks overlap.  Each channel of a rank runs as an actor of its
 * own (NCCL's channels are separate thread blocks) with connections of its
 * own (an op's channel is the network channel's lane), so channels overlap
 * their overheads too. */
#include "exec/actor_run.h"

#include <limits.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <stdlib.h>
#include <string.h>

#include "net/fluid/simgrid_run.h"
#include "exec/op_classes.h"
#include "net/network.h"
#include "util/arena.h"
#include "util/key_map.h"
#include "util/memory.h"

_Static_assert(SCHED_MAX_CHANNELS <= NET_MAX_LANES, "every channel of a schedule is a lane of the network");

/* SimGrid's C actors receive argv only: the job lives here, the op graphs
 * its actors share, and the memory of their state (each actor's read cold
 * at every message at thousands of actors: in blocks backed by huge pages,
 * arena.h). */
static const exec_job *job_now;
static op_classes *classes_now;
static arena *memory_now;

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
 * one per op.  One piece (`key` first) holds the four arrays: every
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

static connections resolve_connections(const exec_job *job, int part, int self, arena *memory)
{
    const exec_piece *p = &job->pieces[part];
    const sched_actor *a = &p->s->actor[self];
    const int *nodes = p->actor_nodes;
    connections c = {0};
    key_map seen;
    key_map_init(&seen);
    int capacity = 0;
    sched_cursor cursor;
    sched_cursor_init(&cursor, p->s, self);
    for (int o = 0; o < a->op_count; o++) {
        sched_op op = sched_cursor_op(&cursor, o);
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
    long long *keys = c.key;
    c.key = arena_carve(memory, n * (sizeof *c.key + sizeof *c.channel + sizeof *c.message + sizeof *c.cost));
    if (n) memcpy(c.key, keys, n * sizeof *c.key);
    free(keys);
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
        c.channel[k] = job->net->channel(job->network, part, lane, p->virtual_lane, from, to, nodes[from],
                                        nodes[to]);
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

/* An op posted and not yet completed: what its completion reads of it. */
typedef struct posted_op {
    int o;
    uint8_t phase;
    bool send;
    int connection;
} posted_op;

/* Posted ops an actor keeps (a ring has at most a send and a receive out
 * per connection); a completion finds the others through the schedule. */
#define POSTED_KEPT 4

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
     * otherwise `g` lists them (its class's op graph, op_classes.h: the dependents
     * shared, the unmet dependencies counted per actor). */
    int reach;
    uint64_t *done;
    op_graph g;
    int *ready, ready_count, ready_capacity;
    connections links; /* the connections its ops use, their channels and overheads */
    net_endpoint *me;  /* driven: its endpoint, its ops outstanding, and a send waiting for its overhead's end (-1: none) */
    int pending, deferred;
    double last;
    int last_op;       /* the op that completed last (a hint: the next dependents are after it) */
    posted_op posted[POSTED_KEPT]; /* what completing the last ops posted needs, kept as they were
                                      posted (a generated op costs a read of the generator; o -1: none) */
    int posted_next;
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

/* The message logs of at most this many of an actor's connections are
 * fetched ahead of its wake (actor_soon): a ring's four. */
#define SOON_MESSAGE_LOGS 4

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
    sched_cursor cursor;
    sched_cursor_init(&cursor, s, r->self);
    for (int o = r->a->op_count - 1; o >= 0; o--) {
        sched_op op = sched_cursor_op(&cursor, o);
        for (int d = 0; d < op.dep_count && r->reach <= REACH_MAX; d++) {
            int back = o - sched_op_dep(s, r->self, o, &op, d);
            if (back > r->reach) r->reach = back;
        }
        if (op.dep_count == 0 && (r->channel_of < 0 || op.channel == r->channel_of)) make_ready(r, o);
    }
    if (r->reach <= REACH_MAX) {
        r->done = arena_carve(memory_now, sizeof *r->done * ((size_t)r->a->op_count / 64 + 1));
    } else {
        op_classes_graph(classes_now, s, r->self, &r->g);
    }
    r->links = resolve_connections(job_now, r->part, r->self, memory_now);
    for (int i = 0; i < POSTED_KEPT; i++) r->posted[i].o = -1;
}

/* Post op O (OP, as sched_op_at gives it; its dependencies met, the
 * sender's overhead paid) on its connection's channel. */
static void post(actor_run *r, net_endpoint *me, int o, const sched_op *op)
{
    const network_ops *net = job_now->net;
    int k = connection_of(&r->links, op);
    r->posted[r->posted_next] = (posted_op){o, op->phase, op->kind == OP_SEND, k};
    r->posted_next = (r->posted_next + 1) % POSTED_KEPT;
    if (op->kind == OP_SEND) {
        net->send(me, r->links.channel[k], message_scaled_bytes(&r->p->size, r->a, op), o);
    } else {
        net->recv(me, r->links.channel[k], o);
    }
    if (r->links.message && r->links.message[k])
        message_log_posted(r->links.message[k], op->kind == OP_SEND, simgrid_get_clock());
}

/* Post ready ops while the helper has room (PENDING outstanding of ROOM).
 * A send whose part charges an overhead first sleeps it: a blocking network
 * returns when it has passed; a driven one at once, and the send waits in
 * r->deferred for the endpoint to be told the sleep ended (false: it is
 * waiting; posting goes on at the next call, which finds the ready ops as
 * this one left them, sends only, taken from the top as here). */
static bool post_ready(actor_run *r, net_endpoint *me, int *pending, int room)
{
    if (r->deferred >= 0) {
        sched_op op = sched_op_at(r->p->s, r->self, r->deferred);
        post(r, me, r->deferred, &op);
        ++*pending;
        r->deferred = -1;
    }
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
            double overhead = op.kind == OP_SEND ? r->links.cost[connection_of(&r->links, &op)] : 0;
            if (overhead > 0) {
                job_now->net->sleep(me, overhead);
                if (job_now->net->drive) {
                    r->deferred = o;
                    return false;
                }
            }
            post(r, me, o, &op);
            ++*pending;
        }
    return true;
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
    part_tally *tally = r->p->tally;
    double now = simgrid_get_clock();
    tally->completed_ops++; /* a deadlock leaves it short */
    heartbeat_op_done(job_now->beat, now);
    r->last = now;
    r->last_op = o;
    posted_op done = {.o = -1};
    for (int i = 0; i < POSTED_KEPT; i++)
        if (r->posted[i].o == o) {
            done = r->posted[i];
            r->posted[i].o = -1;
        }
    if (done.o < 0) {
        sched_op op = sched_op_at(r->p->s, r->self, o);
        done = (posted_op){o, op.phase, op.kind == OP_SEND, connection_of(&r->links, &op)};
    }
    double *phase_end = &tally->phase_end_s[done.phase];
    if (now > *phase_end) *phase_end = now;
    if (r->links.message) {
        message_connection *c = r->links.message[done.connection];
        if (c) message_log_done(c, done.send, now);
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
    const exec_piece *p = r->p;
    if (r->self < p->s->ranks && r->last > p->rank_finish_s[r->self]) p->rank_finish_s[r->self] = r->last;
    if (r->last > p->tally->time_s) p->tally->time_s = r->last;
    free(r->ready); /* the rest is in memory_now and its class's */
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
    net_endpoint *me = net->endpoint(job_now->network, room, times, r);
    if (first && r->p->launch_s > 0) net->sleep(me, r->p->launch_s);
    int pending = 0;
    for (;;) {
        post_ready(r, me, &pending, room); /* blocking: it posts every ready op it has room for */
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

/* Driven: the network tells actor OWNER that something came (a completion,
 * its sleep's end).  What a helper does between two waits: post what is
 * ready, take each completion and post what it makes ready, until nothing
 * is left to take; nothing while the endpoint sleeps.  The actor's ops are
 * its only helper's (room for all of them: a driven network has no limit). */
static void actor_wake(void *owner)
{
    actor_run *r = owner;
    const network_ops *net = job_now->net;
    if (net->busy(r->me)) return;
    for (;;) {
        if (!post_ready(r, r->me, &r->pending, r->ops)) return;
        if (r->pending == 0) break;
        int o = net->poll(r->me);
        if (o < 0) return;
        r->pending--;
        actor_complete(r, o);
    }
    net->endpoint_close(r->me);
    actor_end(r);
}

/* Driven: actor OWNER is about to be woken (its state itself the network
 * asked for before).  STAGE 0 asks for what actor_wake reads through it:
 * its connections, its ready ops and the unmet counts of the ops after its
 * last completed one; stage 1, those in, for its connections' message logs. */
static void actor_soon(void *owner, int stage)
{
    const actor_run *r = owner;
    if (stage == 0) {
        __builtin_prefetch(r->links.key);
        if (r->links.message) __builtin_prefetch(r->links.message); /* its own line past a few connections' keys */
        __builtin_prefetch(r->ready);
        if (r->g.remaining) __builtin_prefetch(&r->g.remaining[r->last_op + 1], 1);
        return;
    }
    for (int k = 0; r->links.message && k < r->links.count && k < SOON_MESSAGE_LOGS; k++)
        message_log_soon(r->links.message[k]);
}

typedef struct actor_runs {
    actor_run *run;
    int count;
} actor_runs;

/* Driven: time 0, every actor in the order a blocking network starts them. */
static void actors_begin(void *ctx)
{
    const actor_runs *all = ctx;
    for (actor_run *r = all->run; r < all->run + all->count; r++) {
        actor_begin(r);
        net_op_time *times = r->p->times ? r->p->times + r->p->actor_first[r->self] : NULL;
        r->me = job_now->net->endpoint(job_now->network, r->ops, times, r);
        if (r->p->launch_s > 0) job_now->net->sleep(r->me, r->p->launch_s);
        actor_wake(r);
    }
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

int actor_run_prepare(exec_job *job)
{
    int actors = 0, lanes[SCHED_MAX_CHANNELS];
    long total_ops = 0;
    for (int k = 0; k < job->count; k++) {
        exec_piece *p = &job->pieces[k];
        p->channels_split = channels_independent(p->s);
        for (int a = 0; a < p->s->actors; a++) {
            actors += actor_lanes(p->s, a, p->channels_split, lanes);
            total_ops += p->s->actor[a].op_count;
        }
    }
    job->helper_room = helper_room(job->net, total_ops);
    return actors;
}

void actor_run_all(const exec_job *job, int actors)
{
    job_now = job;
    classes_now = op_classes_create();
    bool driven = job->net->drive != NULL;
    int lanes[SCHED_MAX_CHANNELS];
    arena memory;
    arena_init(memory_now = &memory);
    actor_run *runs = arena_carve(&memory, sizeof *runs * ((size_t)actors + 1)), *r = runs;
    for (int k = 0; k < job->count; k++) {
        const schedule *s = job->pieces[k].s;
        for (int a = 0; a < s->actors; a++) {
            for (int i = 0, count = actor_lanes(s, a, job->pieces[k].channels_split, lanes); i < count; i++) {
                int ops = 0;
                for (int o = 0; o < s->actor[a].op_count; o++) ops += lanes[i] < 0 || sched_op_at(s, a, o).channel == lanes[i];
                *r = (actor_run){.p = &job->pieces[k], .a = &s->actor[a], .part = k, .self = a, .channel_of = lanes[i],
                                 .ops = ops, .deferred = -1,
                                 .host = driven ? NULL : simgrid_host(job->t, job->pieces[k].actor_nodes[a])};
                if (!driven) start_helper(r);
                r++;
            }
        }
    }
    actor_runs all = {runs, (int)(r - runs)};
    if (driven) job->net->drive(job->network, actors_begin, &all, actor_wake, actor_soon);
    simgrid_simulate();
    op_classes_free(classes_now);
    classes_now = NULL;
    arena_free(&memory);
    memory_now = NULL;
}
