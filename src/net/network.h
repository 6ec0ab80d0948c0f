/* network.h — the one interface between the executor and a network model
 * (docs/architecture.md, "Network"): an actor posts sends and receives on
 * channels and waits for the next of its operations to complete.  A
 * message moves once both ends are posted, as a SimGrid mailbox transfer
 * does; the send and the receive complete when its last byte arrives.
 *
 * Two implementations, a room each: SimGrid's fluid model
 * (fluid/net_fluid.c: mailboxes, CM02 or LV08) and collsim's packet engine
 * in one SimGrid actor of its own (packet/net_packet.c).  network_for picks
 * one from the options (sim_options.h); nothing above src/net knows which
 * runs.  Everything here runs in the forked SimGrid child.
 *
 * Two ways to be driven.  Blocking (the fluid model): every rank and switch
 * actor is a SimGrid actor of its own that posts, then blocks in wait_any.
 * Driven (a network with `drive`, the packet model): no actor per endpoint;
 * the network calls the executor back, from its own actor, whenever an
 * endpoint has something to be told (a completion, or the end of a sleep),
 * and the executor takes its completions with poll.  The calls in between
 * are the same; sleep does not block there (busy says until when). */
#ifndef COLLSIM_NETWORK_H
#define COLLSIM_NETWORK_H

#include <stdbool.h>

#include "net/sim_options.h"
#include "platform/simgrid_xml.h"
#include "platform/topology.h"

typedef struct network network;           /* one simulation's network */
typedef struct net_endpoint net_endpoint; /* one actor's side of it */
typedef void *net_channel;                /* messages FROM -> TO of one schedule part, on one lane */
typedef void (*net_wake_fn)(void *owner); /* driven: endpoint OWNER has something to be told */
typedef void (*net_soon_fn)(void *owner, int stage); /* driven: ... is about to be (network_ops.drive) */
#define NET_MAX_LANES 32                  /* lanes between the same two actors of a part */

/* When an operation was posted and when it completed, in SimGrid seconds
 * (the per-message view, docs/output.md: src/exec/op_times.h). */
typedef struct net_op_time {
    double posted_s, done_s;
} net_op_time;

/* What one direction of one link carried in a simulation (the per-link view,
 * docs/output.md), indexed link * 2 + (1 for DOWN).  The fluid model knows the
 * bytes (each message's size on every link of its route); the packet model
 * counts them as they cross and also keeps the buffer at the link's far end
 * and its credits. */
typedef struct net_link_stats {
    double bytes;             /* on the wire (packet: headers included), unscaled */
    double stalled_s;         /* packet: free, packets waiting for room in the buffer it feeds */
    double peak_buffer_bytes; /* packet: the most that buffer held (one virtual channel) */
    double buffer_byte_s;     /* packet: that buffer's occupancy integrated over time (all channels) */
} net_link_stats;

typedef struct network_ops {
    /* The most operations one SimGrid actor should have outstanding (0: no
     * limit): the executor spreads more over helper actors (exec/actor_run.c). */
    int outstanding_max;
    /* Start SimGrid with T's platform (routes for the PAIRS it needs) and
     * set the network up for ACTORS actors (a driven network: no actors, and
     * a host for PAIRS[0]'s sender only); message sizes are bytes x SCALE
     * (exec/message_bytes.c).  NULL on failure (said on stderr). */
    network *(*open)(const topology *t, node_pair *pairs, int pair_count, int actors, const sim_options *options,
                     double scale);
    /* The endpoint of an actor that has at most OPS operations, tagged 0 to
     * OPS - 1: TIMES[tag] (NULL: not kept) receives when each is posted and
     * completes; a driven network names it to the executor as OWNER. */
    net_endpoint *(*endpoint)(network *n, int ops, net_op_time *times, void *owner);
    /* The channel of part PART from actor FROM (on FROM_NODE) to actor TO
     * (on TO_NODE) on LANE (0 .. NET_MAX_LANES - 1: the NCCL-style
     * channels of a schedule are connections of their own between the same
     * actors), its messages on the links' virtual lane VIRTUAL_LANE (the
     * packet model's; the fluid model has only lane 0): both ends get the
     * same one. */
    net_channel (*channel)(network *n, int part, int lane, int virtual_lane, int from, int to, int from_node,
                           int to_node);
    void (*send)(net_endpoint *a, net_channel c, long bytes, int tag);
    void (*recv)(net_endpoint *a, net_channel c, int tag);
    /* Blocking: block until one of A's posted operations completes; its tag. */
    int (*wait_any)(net_endpoint *a);
    /* Keep A busy for SECONDS of the network's clock (an endpoint's software
     * cost: a launch, a sender's overhead); its posted operations progress
     * meanwhile and their completions wait for wait_any (driven: for poll,
     * after WAKE has told of the sleep's end). */
    void (*sleep)(net_endpoint *a, double seconds);
    /* Driven only (NULL: blocking).  DRIVE: the simulation to come calls
     * BEGIN(CTX) once at time 0, then WAKE(owner) for each endpoint with
     * something to be told, in the order the events came; the executor posts
     * from inside them.  SOON(owner, 0) (SOON NULL: none) comes a few
     * endpoints ahead of WAKE(owner), SOON(owner, 1) fewer: the executor may
     * fetch what WAKE will read, in two stages (what the first fetched
     * points to, in the second).  POLL: a completed tag of A, or -1 (none yet, or A
     * busy in a sleep).  BUSY: whether A is still in a sleep. */
    void (*drive)(network *n, void (*begin)(void *ctx), void *ctx, net_wake_fn wake, net_soon_fn soon);
    int (*poll)(net_endpoint *a);
    bool (*busy)(const net_endpoint *a);
    void (*endpoint_close)(net_endpoint *a);
    /* After the run: false with WHY when the network failed on its own
     * (the packet network deadlocked); frees N.  LINKS (NULL: not wanted)
     * receives every link direction's counts; QUEUE_BYTES (NULL: not
     * wanted) the samples options->queue_samples asked for. */
    bool (*close)(network *n, net_link_stats *links, double *queue_bytes, char *why, int why_size);
} network_ops;

extern const network_ops fluid_network, packet_network;

/* The network the options select. */
const network_ops *network_for(const sim_options *options);
/* The most actors a simulation under MODEL may hold: a blocking network's
 * are SimGrid actors (child_limits_max_actors), a driven one has no bound. */
double network_max_actors(network_model model);
/* The name a report gives it: "cm02", "lv08" or "packet". */
const char *network_model_name(network_model model);
/* The name a report gives the network OPTIONS run (their model set): its
 * model's, or "packet, ties shuffled(SEED)" (written into TEXT, of SIZE). */
const char *network_label(const sim_options *options, char *text, int size);

#endif
