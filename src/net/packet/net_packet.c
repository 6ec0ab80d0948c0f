/* net_packet.c — the network as collsim's packet engine (engine.h), run
 * inside SimGrid's clock by one fabric actor, the only SimGrid actor of the
 * simulation: the network drives the executor (network.h, "driven").
 *
 * Rank and switch endpoints run their schedules as under the fluid model.  A
 * message starts when both ends have posted (a mailbox's rendezvous): the
 * posting endpoint hands it to the engine at the engine's clock, which is
 * SimGrid's.
 *
 * The fabric calls the executor's start for every endpoint at time 0, then
 * alternates two steps.  Nothing but the engine can change the network, so
 * it runs the engine ahead to the next delivery (all of that instant's
 * events), sleeps until then (SimGrid's clock moves once per delivery time,
 * not per packet), and wakes the endpoints whose sends and receives
 * completed, one after another in the order their first event came, each
 * through the executor's callback: the messages they post at that instant
 * are in the engine before it runs on.  (Endpoints as SimGrid actors
 * blocking on semaphores of their own would make the same calls in the same
 * order at two context switches and a semaphore per completion, and a
 * process maps only so many actors' stacks: docs/scale.md §6.) */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "net/fluid/simgrid_run.h"
#include "net/network.h"
#include "net/packet/engine.h"
#include "net/packet/packet_flows.h"
#include "util/arena.h"
#include "util/key_map.h"
#include "util/memory.h"

/* One direction of one connection.  Ops on a connection run one at a time
 * (schedule_seal), so at most one send and one receive are posted and at
 * most one message moves. */
typedef struct connection {
    int route;
    net_endpoint *sender, *receiver; /* posted ends, NULL when not posted */
    int send_tag, recv_tag;
    long bytes;
    net_time posted;
    net_endpoint *moving_sender, *moving_receiver; /* the message on its way */
    int moving_send_tag, moving_recv_tag;
} connection;

/* What the executor asked of the engine while it was woken, in its order:
 * a message to send (COOKIE its connection) or an endpoint's wake-up at
 * UNTIL (COOKIE the endpoint, ROUTE -1).  Nothing runs the engine while
 * endpoints are woken, so the engine is asked after them, in the same
 * order, with the lines each send reads fetched a few sends ahead
 * (engine_prefetch_send): the same calls in the same order, cheaper. */
typedef struct posting {
    void *cookie;
    int64_t bytes;
    net_time posted, until;
    int route;
} posting;

struct net_endpoint {
    network *n;
    void *owner;          /* the executor's, for its wake callback */
    net_op_time *times;   /* per tag, or NULL */
    bool woken;           /* has completions to be told of */
    net_time busy_until;  /* in a sleep until then */
    int *done;            /* tags completed and not yet taken, from first on */
    int first, count;
};

struct network {
    engine *e;
    void *host;           /* SimGrid's, of the fabric actor */
    void (*begin)(void *ctx); /* the executor's: at time 0 */
    void *begin_ctx;
    net_wake_fn wake;     /* the executor's: an endpoint has something to be told */
    net_soon_fn soon;     /* the executor's: such an endpoint is about to be told (NULL: nothing) */
    uintptr_t *told;      /* the current delivery's events (take_told) */
    int told_count, told_capacity;
    posting *postings;    /* what the endpoints woken asked of the engine (post_all) */
    int posting_count, posting_capacity;
    int endpoints_left;   /* endpoints not yet closed: the fabric stops at 0 */
    net_endpoint **woken; /* endpoints with completions at the current delivery */
    int woken_count, woken_capacity;
    arena memory;         /* the endpoints and connections: each read cold at every message at thousands of
                             ranks, so in blocks backed by huge pages (arena.h) */
    key_map channels;
    connection **connections;
    int connection_count, connection_capacity;
    bool failed;          /* deadlock or clock limit: the fabric gave up */
    char why[256];
    double scale;         /* message sizes are bytes x scale (exec/message_bytes.c) */
    queue_sampling sampling; /* queues to sample (count 0: none) */
    double *samples;      /* sampling.port_count x sampling.count, port-major */
    int samples_taken;
    long measured_in_flight; /* the schedules' messages on their way (not the background's) */
    int wakes_pending;    /* packet_sleep's wake-ups still to come */
    /* background traffic (background.h), or none (bg NULL) */
    const background *bg;
    background_stream arrivals;
    int *bg_routes;       /* per source target, the engine's route */
    net_time offset;      /* the warm-up: SimGrid's clock is the engine's minus this */
    net_link_stats *warm; /* the links' counts when the warm-up ended */
};

static network *fabric_network; /* SimGrid's C actors take argv only */

/* SimGrid's timing precision (fluid/simgrid_run.c sets it): it cannot sleep less. */
#define SIMGRID_TIMING_S 1e-15

static double seconds(net_time t)
{
    return net_time_to_seconds(t);
}

/* A is to be woken at the current delivery (once, however many reasons). */
static void to_wake(network *n, net_endpoint *a)
{
    if (a->woken) return;
    a->woken = true;
    n->woken = grow_array(n->woken, &n->woken_capacity, n->woken_count + 1, sizeof *n->woken);
    n->woken[n->woken_count++] = a;
}

/* A completion for A, told when SimGrid's clock reaches the delivery. */
static void complete(net_endpoint *a, int tag)
{
    a->done[a->first + a->count++] = tag;
    to_wake(a->n, a);
}

static void post_later(network *n, posting p)
{
    n->postings = grow_array(n->postings, &n->posting_capacity, n->posting_count + 1, sizeof *n->postings);
    n->postings[n->posting_count++] = p;
}

/* Stages of engine_prefetch_send, this many postings ahead. */
enum { POST_PREFETCH_ROUTE = 12, POST_PREFETCH_STAGE = 8, POST_PREFETCH_PORT = 4 };

/* Hand the engine what the endpoints woken asked, in their order. */
static void post_all(network *n)
{
    const posting *p = n->postings;
    int count = n->posting_count;
    for (int i = 0; i < count; i++) {
        if (i + POST_PREFETCH_ROUTE < count && p[i + POST_PREFETCH_ROUTE].route >= 0)
            engine_prefetch_send(n->e, p[i + POST_PREFETCH_ROUTE].route, 0);
        if (i + POST_PREFETCH_STAGE < count && p[i + POST_PREFETCH_STAGE].route >= 0)
            engine_prefetch_send(n->e, p[i + POST_PREFETCH_STAGE].route, 1);
        if (i + POST_PREFETCH_PORT < count && p[i + POST_PREFETCH_PORT].route >= 0)
            engine_prefetch_send(n->e, p[i + POST_PREFETCH_PORT].route, 2);
        if (p[i].route >= 0) engine_send(n->e, p[i].route, p[i].bytes, p[i].posted, p[i].cookie);
        else engine_wake_at(n->e, p[i].until, p[i].cookie);
    }
    n->posting_count = 0;
}

/* What the current delivery instant told, in the order it came: a
 * connection whose message arrived, or (low bit set) an endpoint whose
 * sleep ended.  The endpoints are told only once every event of the
 * instant is in (a woken endpoint sees all its completions of the instant),
 * so the events are kept as they come and the endpoints read afterwards in
 * one pass, fetched a few ahead: at thousands of ranks each is a cache miss
 * (every instant of a ring touches every rank), and a pass over a list can
 * ask for the next ones while it works. */
enum { TOLD_PREFETCH_CONNECTION = 16, TOLD_PREFETCH_ENDPOINTS = 10, TOLD_PREFETCH_DONE = 5 };
/* The same for the endpoints told: each (both lines it may straddle) this
 * many ahead, the first lines of its owner's state (the executor's) and its
 * next completion this many, and the executor asked to fetch what that
 * state points to (soon, stage 0) this many, and what that points to
 * (stage 1) this many. */
enum { WAKE_PREFETCH_ENDPOINT = 10, WAKE_PREFETCH_OWNER = 6, WAKE_OWNER_LINES = 3, WAKE_SOON = 3, WAKE_SOONER = 1 };

static inline void prefetch_endpoint(const net_endpoint *a)
{
    __builtin_prefetch(a);
    __builtin_prefetch((const char *)(a + 1) - 1);
}

static void tell(network *n, uintptr_t what)
{
    n->told = grow_array(n->told, &n->told_capacity, n->told_count + 1, sizeof *n->told);
    n->told[n->told_count++] = what;
}

/* The wake-up of endpoint COOKIE (packet_sleep) came. */
static void woke(void *ctx, void *cookie)
{
    network *n = ctx;
    n->wakes_pending--;
    tell(n, (uintptr_t)cookie | 1);
}

/* The engine delivered the message of connection COOKIE (NULL: a
 * background message, which no actor waits for). */
static void delivered(void *ctx, void *cookie)
{
    network *n = ctx;
    connection *c = cookie;
    if (!c) return;
    n->measured_in_flight--;
    tell(n, (uintptr_t)c);
}


static void prefetch_told(const network *n, int i)
{
    if (i + TOLD_PREFETCH_CONNECTION < n->told_count && !(n->told[i + TOLD_PREFETCH_CONNECTION] & 1))
        __builtin_prefetch((const void *)n->told[i + TOLD_PREFETCH_CONNECTION]);
    if (i + TOLD_PREFETCH_ENDPOINTS < n->told_count) {
        uintptr_t w = n->told[i + TOLD_PREFETCH_ENDPOINTS];
        if (w & 1) prefetch_endpoint((const net_endpoint *)(w & ~(uintptr_t)1));
        else {
            const connection *c = (const connection *)w;
            prefetch_endpoint(c->moving_sender);
            prefetch_endpoint(c->moving_receiver);
        }
    }
    if (i + TOLD_PREFETCH_DONE < n->told_count && !(n->told[i + TOLD_PREFETCH_DONE] & 1)) {
        const connection *c = (const connection *)n->told[i + TOLD_PREFETCH_DONE];
        const net_endpoint *from = c->moving_sender, *to = c->moving_receiver;
        __builtin_prefetch(&from->done[from->first + from->count], 1);
        __builtin_prefetch(&to->done[to->first + to->count], 1);
    }
}

/* The instant's events into the endpoints: completions and wake-ups, and
 * the endpoints to tell in the order their first event came. */
static void take_told(network *n)
{
    for (int i = 0; i < n->told_count; i++) {
        prefetch_told(n, i);
        uintptr_t w = n->told[i];
        if (w & 1) {
            to_wake(n, (net_endpoint *)(w & ~(uintptr_t)1));
            continue;
        }
        const connection *c = (const connection *)w;
        complete(c->moving_sender, c->moving_send_tag);
        complete(c->moving_receiver, c->moving_recv_tag);
    }
    n->told_count = 0;
}

/* Tell the executor of the endpoints with completions, in the order their
 * first event came; they post at SimGrid's current time.  An endpoint told
 * may close, never another one. */
static void wake_endpoints(network *n)
{
    take_told(n);
    for (int i = 0; i < n->woken_count; i++) {
        if (i + WAKE_PREFETCH_ENDPOINT < n->woken_count) prefetch_endpoint(n->woken[i + WAKE_PREFETCH_ENDPOINT]);
        if (i + WAKE_PREFETCH_OWNER < n->woken_count) {
            const net_endpoint *b = n->woken[i + WAKE_PREFETCH_OWNER];
            __builtin_prefetch(&b->done[b->first]);
            for (int k = 0; k < WAKE_OWNER_LINES; k++) __builtin_prefetch((const char *)b->owner + 64 * k);
        }
        if (n->soon && i + WAKE_SOON < n->woken_count) n->soon(n->woken[i + WAKE_SOON]->owner, 0);
        if (n->soon && i + WAKE_SOONER < n->woken_count) n->soon(n->woken[i + WAKE_SOONER]->owner, 1);
        net_endpoint *a = n->woken[i];
        a->woken = false;
        n->wake(a->owner);
    }
    n->woken_count = 0;
    post_all(n);
}

/* When the next queue sample is due, NET_TIME_NEVER when none is. */
static net_time next_sample(const network *n)
{
    if (n->samples_taken >= n->sampling.count) return NET_TIME_NEVER;
    return n->offset + net_time_from_seconds(n->sampling.interval_s * n->samples_taken);
}

/* When the next background message leaves, NET_TIME_NEVER when none does. */
static net_time next_background(const network *n)
{
    return n->bg ? net_time_from_seconds(background_stream_next_s(&n->arrivals)) : NET_TIME_NEVER;
}

/* Inject every background message due by the engine's clock. */
static void inject_background(network *n)
{
    net_time now = engine_now(n->e);
    while (next_background(n) <= now) {
        int source, target;
        background_stream_pop(&n->arrivals, &source, &target);
        const background_source *s = &n->bg->sources[source];
        engine_send(n->e, n->bg_routes[s->target_first + target], llround(s->message_bytes * n->scale), now, NULL);
    }
}

/* Every port's counts now, unscaled (packet_flows.h). */
static void snapshot_links(network *n, net_link_stats *links)
{
    packet_link_stats(n->e, n->scale, links);
}

/* The packet model runs the background alone first, so that the schedules
 * meet its queues in their steady state; SimGrid's clock then starts at
 * the engine's OFFSET.  The links' counts at that moment are kept, to be
 * taken off the run's. */
static bool warm_up(network *n)
{
    n->offset = net_time_from_seconds(n->bg->warmup_s);
    for (;;) {
        net_time limit = next_background(n) < n->offset ? next_background(n) : n->offset, delivery;
        if (!engine_run_to_delivery(n->e, limit, &delivery)) return false;
        if (delivery != NET_TIME_NEVER) continue; /* a background message arrived: nobody waits for it */
        if (limit == n->offset) break;
        inject_background(n);
    }
    n->warm = calloc((size_t)engine_port_count(n->e) + 1, sizeof *n->warm);
    snapshot_links(n, n->warm);
    return true;
}

static void start_background(network *n, const background *bg)
{
    n->bg = bg;
    background_stream_start(&n->arrivals, bg);
    n->bg_routes = malloc(sizeof *n->bg_routes * ((size_t)bg->target_count + 1));
    for (int i = 0; i < bg->source_count; i++) {
        const background_source *s = &bg->sources[i];
        for (int k = 0; k < s->target_count; k++) {
            diag d = {0};
            int *route = &n->bg_routes[s->target_first + k];
            *route = engine_route(n->e, s->node, bg->targets[s->target_first + k], bg->virtual_lane, &d);
            if (*route < 0) {
                fprintf(stderr, "collsim: background: %s\n", d.message);
                exit(1);
            }
        }
    }
}

/* The bytes in the buffers the sampled ports feed, now. */
static void take_sample(network *n)
{
    for (int i = 0; i < n->sampling.port_count; i++) {
        const port *p = engine_port(n->e, n->sampling.ports[i]);
        double bytes = 0;
        for_each_vc(v, p->vcs_used) bytes += (double)engine_port_buffers(n->e, n->sampling.ports[i])[v].occupancy;
        n->samples[(long)i * n->sampling.count + n->samples_taken] = bytes / n->scale;
    }
    n->samples_taken++;
}

/* Run the engine to the next delivery an actor waits for (with every
 * event of that instant), sampling queues and injecting background traffic
 * on the way (a wake-up counts as a delivery); false when the clock passed
 * its limit.  With no message of the schedules on its way and no wake-up
 * to come, no actor can be woken: *DELIVERY is then NET_TIME_NEVER, as
 * when the events run out. */
static bool run_to_delivery(network *n, net_time *delivery)
{
    for (;;) {
        *delivery = NET_TIME_NEVER;
        if (n->measured_in_flight == 0 && n->wakes_pending == 0) return true;
        net_time sample = next_sample(n), arrival = next_background(n), limit = sample < arrival ? sample : arrival;
        if (!engine_run_to_delivery(n->e, limit, delivery)) return false;
        if (*delivery != NET_TIME_NEVER) {
            if (n->told_count > 0) return true;
            continue; /* a background message: nobody waits for it */
        }
        if (limit == NET_TIME_NEVER) return true;
        if (limit == sample) take_sample(n);
        if (limit == arrival) inject_background(n);
    }
}

/* The fabric: start the endpoints, then run the engine to the next
 * delivery, sleep until then, tell the endpoints it completes; again. */
static void fabric_loop(network *n)
{
    n->begin(n->begin_ctx);
    post_all(n);
    for (;;) {
        if (n->endpoints_left == 0) return;
        net_time delivery;
        if (!run_to_delivery(n, &delivery)) {
            n->failed = true;
            snprintf(n->why, sizeof n->why, "the packet model's clock passed its limit of 4.6 s of simulated time");
            return;
        }
        if (delivery == NET_TIME_NEVER) {
            if (n->measured_in_flight > 0) {
                n->failed = true;
                snprintf(n->why, sizeof n->why, "the packet network deadlocked at %.9g s: %ld message(s) stuck in full "
                         "buffers that wait on one another", seconds(engine_now(n->e) - n->offset), n->measured_in_flight);
            }
            return; /* the endpoints still waiting are never told */
        }
        double at = seconds(delivery - n->offset);
        if (at > simgrid_get_clock() + SIMGRID_TIMING_S) {
            simgrid_mark(SIM_IN_SIMGRID);
            sg_actor_sleep_until(at);
            simgrid_mark(SIM_IN_ACTOR);
        }
        wake_endpoints(n);
    }
}

static void fabric_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    simgrid_mark(SIM_IN_ACTOR); /* the engine is collsim's code; SimGrid's calls are marked (simgrid_run.h) */
    fabric_loop(fabric_network);
    simgrid_mark(SIM_IN_SIMGRID); /* back into SimGrid's kernel */
}

static network *packet_open(const topology *t, node_pair *pairs, int pair_count, int actors, const sim_options *options,
                            double scale)
{
    (void)actors; /* driven: none but the fabric, on the host of PAIRS[0]'s sender */
    if (pair_count < 1 || !simgrid_open_hosts(t, pairs, 1, options)) return NULL;
    network *n = calloc(1, sizeof *n);
    arena_init(&n->memory);
    n->host = simgrid_host(t, pairs[0].src);
    n->e = engine_create(t, scale);
    if (options->ties_shuffled) engine_shuffle_ties(n->e, options->tie_seed);
    engine_report_to(n->e, simgrid_heartbeat());
    n->scale = scale;
    if (options->queue_samples) {
        n->sampling = *options->queue_samples;
        n->samples = calloc((size_t)n->sampling.port_count * (size_t)n->sampling.count + 1, sizeof *n->samples);
    }
    engine_on_delivery(n->e, delivered, n);
    engine_on_wake(n->e, woke, n);
    if (options->background) {
        start_background(n, options->background);
        if (!warm_up(n)) {
            fprintf(stderr, "collsim: the background's warm-up passed the packet model's clock limit (4.6 s)\n");
            exit(1);
        }
    }
    key_map_init(&n->channels);
    return n;
}

static void packet_drive(network *n, void (*begin)(void *ctx), void *ctx, net_wake_fn wake, net_soon_fn soon)
{
    n->begin = begin;
    n->begin_ctx = ctx;
    n->wake = wake;
    n->soon = soon;
    fabric_network = n;
    sg_actor_create_("fabric", n->host, fabric_main, 0, NULL);
}

/* One piece, the endpoint and then its tags. */
static net_endpoint *packet_endpoint(network *n, int ops, net_op_time *times, void *owner)
{
    net_endpoint *a = arena_carve(&n->memory, sizeof *a + sizeof *a->done * (size_t)(ops + 1));
    *a = (net_endpoint){.n = n, .owner = owner, .times = times, .done = (int *)(a + 1)};
    n->endpoints_left++;
    return a;
}

static net_channel packet_channel(network *n, int part, int lane, int virtual_lane, int from, int to, int from_node,
                                  int to_node)
{
    uint64_t key = ((uint64_t)(unsigned)part * NET_MAX_LANES + (unsigned)lane) << 42 |
                   (uint64_t)(unsigned)from << 21 | (unsigned)to;
    connection *c = key_map_get(&n->channels, key);
    if (c) return c;
    diag d = {0};
    c = arena_carve(&n->memory, sizeof *c);
    c->route = engine_route(n->e, from_node, to_node, virtual_lane, &d);
    if (c->route < 0) {
        fprintf(stderr, "collsim: %s\n", d.message);
        exit(1);
    }
    key_map_put(&n->channels, key, c);
    n->connections = grow_array(n->connections, &n->connection_capacity, n->connection_count + 1, sizeof *n->connections);
    n->connections[n->connection_count++] = c;
    return c;
}

/* Both ends are posted: the message goes (post_all hands it to the engine). */
static void start(connection *c)
{
    network *n = c->sender->n;
    c->moving_sender = c->sender;
    c->moving_receiver = c->receiver;
    c->moving_send_tag = c->send_tag;
    c->moving_recv_tag = c->recv_tag;
    c->sender = c->receiver = NULL;
    n->measured_in_flight++;
    post_later(n, (posting){.cookie = c, .bytes = c->bytes, .posted = c->posted, .route = c->route});
}

static void packet_send(net_endpoint *a, net_channel channel, long bytes, int tag)
{
    connection *c = channel;
    c->sender = a;
    c->send_tag = tag;
    c->bytes = bytes;
    c->posted = engine_now(a->n->e);
    if (a->times) a->times[tag].posted_s = simgrid_get_clock();
    if (c->receiver) start(c);
}

static void packet_recv(net_endpoint *a, net_channel channel, int tag)
{
    connection *c = channel;
    c->receiver = a;
    c->recv_tag = tag;
    if (a->times) a->times[tag].posted_s = simgrid_get_clock();
    if (c->sender) start(c);
}

static bool packet_busy(const net_endpoint *a)
{
    return engine_now(a->n->e) < a->busy_until;
}

static int packet_poll(net_endpoint *a)
{
    if (a->count == 0 || packet_busy(a)) return -1;
    a->count--;
    int tag = a->done[a->first++];
    if (a->times) a->times[tag].done_s = simgrid_get_clock();
    return tag;
}

/* Busy until SECONDS from now: a wake-up in the engine tells the executor
 * when it ends; completions meanwhile wait for poll. */
static void packet_sleep(net_endpoint *a, double seconds)
{
    network *n = a->n;
    a->busy_until = engine_now(n->e) + net_time_from_seconds(seconds);
    n->wakes_pending++;
    post_later(n, (posting){.cookie = a, .until = a->busy_until, .route = -1});
}

static void packet_endpoint_close(net_endpoint *a)
{
    a->n->endpoints_left--; /* its piece goes with the network's memory */
}

/* The links' counts over the schedules' run: now, less the warm-up's. */
static void link_stats(network *n, net_link_stats *links)
{
    snapshot_links(n, links);
    for (int i = 0; n->warm && i < engine_port_count(n->e); i++) {
        links[i].bytes -= n->warm[i].bytes;
        links[i].stalled_s -= n->warm[i].stalled_s;
        links[i].buffer_byte_s -= n->warm[i].buffer_byte_s; /* the peak is the whole run's */
    }
}

static bool packet_close(network *n, net_link_stats *links, double *queue_bytes, char *why, int why_size)
{
    bool ok = !n->failed;
    if (!ok) snprintf(why, (size_t)why_size, "%s", n->why);
    if (ok && links) link_stats(n, links); /* the engine stopped at the schedules' last delivery */
    if (queue_bytes)
        for (long i = 0; i < (long)n->sampling.port_count * n->sampling.count; i++) queue_bytes[i] = n->samples[i];
    free(n->samples);
    if (n->bg) background_stream_free(&n->arrivals);
    free(n->bg_routes);
    free(n->warm);
    free(n->connections);
    key_map_free(&n->channels);
    arena_free(&n->memory);
    free(n->woken);
    free(n->told);
    free(n->postings);
    engine_free(n->e);
    free(n);
    fabric_network = NULL;
    return ok;
}

const network_ops packet_network = {.open = packet_open, .endpoint = packet_endpoint, .channel = packet_channel,
                                    .send = packet_send, .recv = packet_recv, .sleep = packet_sleep,
                                    .drive = packet_drive, .poll = packet_poll, .busy = packet_busy,
                                    .endpoint_close = packet_endpoint_close, .close = packet_close};
