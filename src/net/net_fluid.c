/* net_fluid.c — the network as SimGrid's fluid model (CM02 or LV08): one
 * mailbox per channel, asynchronous puts and gets, wait-any on an actor's
 * pending comms.  Flows share links max-min fairly; nothing queues.
 *
 * Per-link bytes: SimGrid routes a message over the links topology_route
 * gives (simgrid_xml.c writes exactly those routes), so each message adds
 * its size to every link direction of its channel's route, found once per
 * channel. */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>

#include "net/network.h"
#include "util/key_map.h"
#include "util/memory.h"

typedef struct fluid_channel {
    sg_mailbox_t box;
    int port_first, port_count; /* its route's link directions, in the network's ports[] */
} fluid_channel;

struct network {
    const topology *t;
    double scale;          /* message sizes are bytes x scale (executor.c) */
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

static network *fluid_open(const topology *t, node_pair *pairs, int pair_count, int actors, const sim_options *options,
                           double scale)
{
    (void)actors;
    if (!simgrid_open(t, pairs, pair_count, options, scale)) return NULL;
    network *n = calloc(1, sizeof *n);
    n->t = t;
    n->scale = scale;
    n->port_bytes = calloc((size_t)t->link_count * 2 + 1, sizeof *n->port_bytes);
    key_map_init(&n->channels);
    return n;
}

static net_endpoint *fluid_endpoint(network *n, int ops, net_op_time *times)
{
    net_endpoint *a = calloc(1, sizeof *a);
    a->n = n;
    a->comms = malloc(sizeof *a->comms * (size_t)(ops + 1));
    a->tags = malloc(sizeof *a->tags * (size_t)(ops + 1));
    a->times = times;
    return a;
}

static net_channel fluid_channel_of(network *n, int part, int from, int to, int from_node, int to_node)
{
    uint64_t key = (uint64_t)(unsigned)part << 42 | (uint64_t)(unsigned)from << 21 | (unsigned)to;
    fluid_channel *c = key_map_get(&n->channels, key);
    if (c) return c;
    c = calloc(1, sizeof *c);
    char name[48];
    snprintf(name, sizeof name, "%d:%d>%d", part, from, to);
    c->box = sg_mailbox_by_name(name);
    route_hop hops[ROUTE_MAX_HOPS];
    int count = topology_route(n->t, from_node, to_node, hops);
    n->ports = grow_array(n->ports, &n->port_capacity, n->port_count + count + 1, sizeof *n->ports);
    c->port_first = n->port_count;
    for (int h = 0; h < count; h++)
        if (!n->t->links[hops[h].link].latency_only) n->ports[n->port_count++] = hops[h].link * 2 + hops[h].down;
    c->port_count = n->port_count - c->port_first;
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

static void fluid_send(net_endpoint *a, net_channel channel, long bytes, int tag)
{
    fluid_channel *c = channel;
    for (int p = c->port_first; p < c->port_first + c->port_count; p++) a->n->port_bytes[a->n->ports[p]] += (double)bytes;
    a->comms[a->pending] = sg_mailbox_put_async(c->box, a, bytes);
    posted(a, tag);
}

static void fluid_recv(net_endpoint *a, net_channel channel, int tag)
{
    fluid_channel *c = channel;
    a->comms[a->pending] = sg_mailbox_get_async(c->box, &a->sink);
    posted(a, tag);
}

static int fluid_wait_any(net_endpoint *a)
{
    ssize_t i = sg_comm_wait_any(a->comms, (size_t)a->pending);
    int tag = a->tags[i];
    a->pending--;
    a->comms[i] = a->comms[a->pending];
    a->tags[i] = a->tags[a->pending];
    if (a->times) a->times[tag].done_s = simgrid_get_clock();
    return tag;
}

static void fluid_endpoint_close(net_endpoint *a)
{
    free(a->comms);
    free(a->tags);
    free(a);
}

static bool fluid_close(network *n, net_link_stats *links, double *queue_bytes, char *why, int why_size)
{
    (void)queue_bytes; /* no queues in a fluid model */
    (void)why;
    (void)why_size;
    for (int p = 0; links && p < 2 * n->t->link_count; p++) links[p] = (net_link_stats){.bytes = n->port_bytes[p] / n->scale};
    for (int i = 0; i < n->channel_count; i++) free(n->channel_list[i]);
    free(n->channel_list);
    free(n->ports);
    free(n->port_bytes);
    key_map_free(&n->channels);
    free(n);
    return true;
}

const network_ops fluid_network = {fluid_open, fluid_endpoint, fluid_channel_of, fluid_send, fluid_recv,
                                   fluid_wait_any, fluid_endpoint_close, fluid_close};
