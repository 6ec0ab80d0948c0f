/* net_fluid.c — the network as SimGrid's fluid model (CM02 or LV08): one
 * mailbox per channel, asynchronous puts and gets, wait-any on an actor's
 * pending comms.  Flows share links max-min fairly; nothing queues.
 *
 * Per-link bytes: SimGrid routes a message over the links topology_route
 * gives (simgrid_xml.c writes exactly those routes), so each message adds
 * its size to every link direction of its channel's route, found once per
 * channel.
 *
 * Background traffic (background.h): a daemon actor per source sleeps until
 * each arrival and puts the message, detached, to its destination's
 * mailbox, whose daemon receiver is permanent (the transfer starts at once,
 * as the packet model injects it); SimGrid ends daemons with the last
 * schedule actor. */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/fluid/simgrid_run.h"
#include "net/network.h"
#include "util/key_map.h"
#include "util/memory.h"

typedef struct fluid_channel {
    sg_mailbox_t box;
    int port_first, port_count; /* its route's link directions, in the network's ports[] */
} fluid_channel;

struct network {
    const topology *t;
    const background *bg;  /* or NULL */
    fluid_channel *bg_routes; /* per source target: its route (box unused) */
    double scale;          /* message sizes are bytes x scale (exec/message_bytes.c) */
    double *port_bytes;    /* per link direction: scaled bytes of the messages routed over it */
    key_map channels;
    fluid_channel **channel_list;
    int channel_count, channel_capacity;
    int *ports;            /* the channels' routes */
    int port_count, port_capacity;
};

struct net_endpoint {
    network *n;
    sg_comm_t *comms;
    int *tags;
    int pending;
    net_op_time *times;  /* per tag, or NULL */
    void *sink;          /* where gets deliver: the fluid model moves no data */
};

static network *background_network; /* SimGrid's C actors take argv only */

/* The link directions of the route FROM_NODE -> TO_NODE, appended to N's ports. */
static void add_route(network *n, int from_node, int to_node, fluid_channel *c)
{
    route_hop *hops = route_buffer(n->t);
    int count = topology_route(n->t, from_node, to_node, hops);
    n->ports = grow_array(n->ports, &n->port_capacity, n->port_count + count + 1, sizeof *n->ports);
    c->port_first = n->port_count;
    for (int h = 0; h < count; h++)
        if (!n->t->links[hops[h].link].latency_only) n->ports[n->port_count++] = hops[h].link * 2 + hops[h].down;
    c->port_count = n->port_count - c->port_first;
    free(hops);
}

static void count_bytes(network *n, const fluid_channel *c, long bytes)
{
    for (int p = c->port_first; p < c->port_first + c->port_count; p++) n->port_bytes[n->ports[p]] += (double)bytes;
}

static sg_mailbox_t background_box(int node)
{
    char name[32];
    snprintf(name, sizeof name, "background>%d", node);
    return sg_mailbox_by_name(name);
}

/* Background source argv[1]: its messages, each at its time. */
static void background_sender(int argc, char **argv)
{
    (void)argc;
    network *n = background_network;
    const background_source *s = &n->bg->sources[atoi(argv[1])];
    long bytes = llround(s->message_bytes * n->scale);
    background_clock clock;
    background_clock_start(&clock, s);
    for (;;) { /* collsim's code between SimGrid's calls, marked (simgrid_run.h) */
        simgrid_mark(SIM_IN_SIMGRID);
        sg_actor_sleep_until(clock.next_s);
        simgrid_mark(SIM_IN_ACTOR);
        int k = s->target_first + background_clock_tick(&clock, s);
        count_bytes(n, &n->bg_routes[k], bytes);
        sg_mailbox_t box = background_box(n->bg->targets[k]);
        /* detached: the sender goes on to its next arrival (a payload: SimGrid refuses NULL) */
        simgrid_mark(SIM_IN_SIMGRID);
        sg_comm_detach(sg_mailbox_put_init(box, n, bytes), NULL);
    }
}

/* Background destination argv[1]: takes whatever arrives. */
static void background_receiver(int argc, char **argv)
{
    (void)argc;
    char name[32];
    snprintf(name, sizeof name, "background>%s", argv[1]);
    sg_mailbox_set_receiver(name);
    sg_mailbox_t box = sg_mailbox_by_name(name);
    for (;;) sg_mailbox_get(box);
}

/* BG's actors, daemons all. */
static void start_background(network *n, const background *bg)
{
    n->bg = bg;
    background_network = n;
    n->bg_routes = calloc((size_t)bg->target_count + 1, sizeof *n->bg_routes);
    bool *receives = calloc((size_t)topology_node_count(n->t), sizeof *receives);
    char index[16];
    for (int i = 0; i < bg->source_count; i++) {
        const background_source *s = &bg->sources[i];
        for (int k = s->target_first; k < s->target_first + s->target_count; k++) {
            add_route(n, s->node, bg->targets[k], &n->bg_routes[k]);
            if (receives[bg->targets[k]]) continue;
            receives[bg->targets[k]] = true;
            snprintf(index, sizeof index, "%d", bg->targets[k]);
            const char *args[] = {"background-receiver", index};
            sg_actor_daemonize(sg_actor_create_("background-receiver", simgrid_host(n->t, bg->targets[k]),
                                                background_receiver, 2, args));
        }
        snprintf(index, sizeof index, "%d", i);
        const char *args[] = {"background-sender", index};
        sg_actor_daemonize(sg_actor_create_("background-sender", simgrid_host(n->t, s->node), background_sender, 2, args));
    }
    free(receives);
}

/* The pairs SimGrid needs routes for: the schedules', and the background's. */
static node_pair *with_background_pairs(node_pair *pairs, int *pair_count, const background *bg)
{
    node_pair *all = malloc(sizeof *all * ((size_t)*pair_count + (size_t)bg->target_count + 1));
    memcpy(all, pairs, sizeof *all * (size_t)*pair_count);
    for (int i = 0; i < bg->source_count; i++)
        for (int k = bg->sources[i].target_first; k < bg->sources[i].target_first + bg->sources[i].target_count; k++)
            all[(*pair_count)++] = (node_pair){bg->sources[i].node, bg->targets[k]};
    return all;
}

static network *fluid_open(const topology *t, node_pair *pairs, int pair_count, int actors, const sim_options *options,
                           double scale)
{
    (void)actors;
    node_pair *all = options->background ? with_background_pairs(pairs, &pair_count, options->background) : pairs;
    bool ok = simgrid_open(t, all, pair_count, options, scale);
    if (all != pairs) free(all);
    if (!ok) return NULL;
    network *n = calloc(1, sizeof *n);
    n->t = t;
    n->scale = scale;
    n->port_bytes = calloc((size_t)t->link_count * 2 + 1, sizeof *n->port_bytes);
    key_map_init(&n->channels);
    if (options->background) start_background(n, options->background);
    return n;
}

/* One allocation, the endpoint and then its comms and tags: each completion
 * reads all three, cold when thousands of actors take turns. */
static net_endpoint *fluid_endpoint(network *n, int ops, net_op_time *times, void *owner)
{
    (void)owner; /* blocking: each endpoint is its actor's */
    size_t room = (size_t)ops + 1;
    net_endpoint *a = malloc(sizeof *a + room * (sizeof *a->comms + sizeof *a->tags));
    if (!a) out_of_memory();
    *a = (net_endpoint){.n = n, .times = times};
    a->comms = (sg_comm_t *)(a + 1);
    a->tags = (int *)(a->comms + room);
    return a;
}

static net_channel fluid_channel_of(network *n, int part, int lane, int virtual_lane, int from, int to, int from_node,
                                    int to_node)
{
    (void)virtual_lane; /* one lane: a run refuses others before it starts (run_cases.c) */
    uint64_t key = ((uint64_t)(unsigned)part * NET_MAX_LANES + (unsigned)lane) << 42 | (uint64_t)(unsigned)from << 21 |
                   (unsigned)to;
    fluid_channel *c = key_map_get(&n->channels, key);
    if (c) return c;
    c = calloc(1, sizeof *c);
    char name[56];
    snprintf(name, sizeof name, "%d:%d>%d#%d", part, from, to, lane);
    c->box = sg_mailbox_by_name(name);
    add_route(n, from_node, to_node, c);
    key_map_put(&n->channels, key, c);
    n->channel_list = grow_array(n->channel_list, &n->channel_capacity, n->channel_count + 1, sizeof *n->channel_list);
    n->channel_list[n->channel_count++] = c;
    return c;
}

static void posted(net_endpoint *a, int tag)
{
    a->tags[a->pending++] = tag;
    if (a->times) a->times[tag].posted_s = simgrid_get_clock();
}

/* Every SimGrid call is marked (simgrid_run.h): a crash inside it is SimGrid's. */
static void fluid_send(net_endpoint *a, net_channel channel, long bytes, int tag)
{
    fluid_channel *c = channel;
    count_bytes(a->n, c, bytes);
    simgrid_mark(SIM_IN_SIMGRID);
    a->comms[a->pending] = sg_mailbox_put_async(c->box, a, bytes);
    simgrid_mark(SIM_IN_ACTOR);
    posted(a, tag);
}

static void fluid_recv(net_endpoint *a, net_channel channel, int tag)
{
    fluid_channel *c = channel;
    simgrid_mark(SIM_IN_SIMGRID);
    a->comms[a->pending] = sg_mailbox_get_async(c->box, &a->sink);
    simgrid_mark(SIM_IN_ACTOR);
    posted(a, tag);
}

static int fluid_wait_any(net_endpoint *a)
{
    simgrid_mark(SIM_IN_SIMGRID);
    ssize_t i = sg_comm_wait_any(a->comms, (size_t)a->pending);
    simgrid_mark(SIM_IN_ACTOR);
    int tag = a->tags[i];
    a->pending--;
    a->comms[i] = a->comms[a->pending];
    a->tags[i] = a->tags[a->pending];
    if (a->times) a->times[tag].done_s = simgrid_get_clock();
    return tag;
}

static void fluid_sleep(net_endpoint *a, double seconds)
{
    (void)a;
    simgrid_mark(SIM_IN_SIMGRID);
    sg_actor_sleep_for(seconds);
    simgrid_mark(SIM_IN_ACTOR);
}

static void fluid_endpoint_close(net_endpoint *a)
{
    free(a); /* its comms and tags with it */
}

static bool fluid_close(network *n, net_link_stats *links, double *queue_bytes, char *why, int why_size)
{
    (void)queue_bytes; /* no queues in a fluid model */
    (void)why;
    (void)why_size;
    for (int p = 0; links && p < 2 * n->t->link_count; p++) links[p] = (net_link_stats){.bytes = n->port_bytes[p] / n->scale};
    for (int i = 0; i < n->channel_count; i++) free(n->channel_list[i]);
    free(n->channel_list);
    free(n->bg_routes);
    free(n->ports);
    free(n->port_bytes);
    key_map_free(&n->channels);
    free(n);
    return true;
}

/* SimGrid 3.32's wait-any and an actor's list of activities cost time in
 * proportion to its outstanding comms, at every completion. */
#define FLUID_OUTSTANDING_MAX 64

const network_ops fluid_network = {.outstanding_max = FLUID_OUTSTANDING_MAX, .open = fluid_open,
                                   .endpoint = fluid_endpoint, .channel = fluid_channel_of, .send = fluid_send,
                                   .recv = fluid_recv, .wait_any = fluid_wait_any, .sleep = fluid_sleep,
                                   .endpoint_close = fluid_endpoint_close, .close = fluid_close};
