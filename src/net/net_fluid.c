/* net_fluid.c — the network as SimGrid's fluid model (CM02 or LV08): one
 * mailbox per channel, asynchronous puts and gets, wait-any on an actor's
 * pending comms.  Flows share links max-min fairly; nothing queues. */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>

#include "net/network.h"

struct network {
    int unused;
};

struct net_endpoint {
    sg_comm_t *comms;
    int *tags;
    int pending;
    void *sink; /* where gets deliver: the fluid model moves no data */
};

static network *fluid_open(const topology *t, node_pair *pairs, int pair_count, int actors, const sim_options *options,
                           double scale)
{
    (void)actors;
    if (!simgrid_open(t, pairs, pair_count, options, scale)) return NULL;
    return calloc(1, sizeof(network));
}

static net_endpoint *fluid_endpoint(network *n, int ops)
{
    (void)n;
    net_endpoint *a = calloc(1, sizeof *a);
    a->comms = malloc(sizeof *a->comms * (size_t)(ops + 1));
    a->tags = malloc(sizeof *a->tags * (size_t)(ops + 1));
    return a;
}

static net_channel fluid_channel(network *n, int part, int lane, int from, int to, int from_node, int to_node)
{
    (void)n;
    (void)from_node;
    (void)to_node;
    char name[56];
    snprintf(name, sizeof name, "%d:%d>%d#%d", part, from, to, lane);
    return sg_mailbox_by_name(name);
}

/* Every SimGrid call is marked (simgrid_run.h): a crash inside it is SimGrid's. */
static void fluid_send(net_endpoint *a, net_channel c, long bytes, int tag)
{
    simgrid_mark(SIM_IN_SIMGRID);
    a->comms[a->pending] = sg_mailbox_put_async(c, a, bytes);
    simgrid_mark(SIM_IN_ACTOR);
    a->tags[a->pending++] = tag;
}

static void fluid_recv(net_endpoint *a, net_channel c, int tag)
{
    simgrid_mark(SIM_IN_SIMGRID);
    a->comms[a->pending] = sg_mailbox_get_async(c, &a->sink);
    simgrid_mark(SIM_IN_ACTOR);
    a->tags[a->pending++] = tag;
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
    free(a->comms);
    free(a->tags);
    free(a);
}

static bool fluid_close(network *n, char *why, int why_size)
{
    (void)why;
    (void)why_size;
    free(n);
    return true;
}

/* SimGrid 3.32's wait-any and an actor's list of activities cost time in
 * proportion to its outstanding comms, at every completion. */
#define FLUID_OUTSTANDING_MAX 64

const network_ops fluid_network = {FLUID_OUTSTANDING_MAX, fluid_open, fluid_endpoint, fluid_channel, fluid_send, fluid_recv,
                                   fluid_wait_any, fluid_sleep, fluid_endpoint_close, fluid_close};
