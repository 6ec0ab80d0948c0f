/* routing.h — routes as the packet engine uses them: the list of ports a
 * packet crosses (htsim's Route of queues and pipes), each with the delay of
 * the latency-only links before it (switch crossbars, INC port delays), and
 * the equal-cost forks where `spray` and `adaptive` choose per packet.
 *
 * Paths come from the platform's route function, the single source of truth
 * the fluid model also uses: a flow's route takes the ECMP hash's choice at
 * every fork, so `ecmp` runs the fluid model's very paths.
 *
 * Under `spray` and `adaptive` a route ends at its open fork: a packet
 * there always moves onto one of the fork's alternatives, so nothing after
 * it is kept.  An alternative is a suffix: the stages from the fork on
 * (and the hop into the fork's node before them, whose buffer the packet
 * waits in), to the next open fork or the destination.  Invariants:
 *   1. An alternative is shared by every packet whose whole remaining path
 *      is the same: the same stages (port, channel, delay) to the
 *      destination, the same forks left (where, at which node, how many
 *      ways), the same lane.  Routes are found by that content, never by
 *      the path before them, so their number is bounded by the distinct
 *      remaining paths, not by the packets' histories.
 *   2. A shared route's own alternatives are compiled from the history of
 *      its first packet (the choices it made from its source, kept with
 *      the route): whatever packet asks, the same routes come back.  On a torus or mesh the
 *      remaining path fixes the rest (the node, each dimension's remaining
 *      arc and whether it has crossed its dateline), so this gives every
 *      packet the stages and channels its own route would give
 *      (tests/test_routers.c compiles both ways and compares them).
 *   3. The alternatives of an open fork know the port and channel of their
 *      hop at the fork before any of them is kept: choosing reads them,
 *      and only the alternative taken becomes a route.
 *   4. An alternative lives while packets are on it (route_hold,
 *      route_release), and after for the packets to come while the table
 *      keeps fewer than `keep_idle` alternatives (ROUTE_KEEP_IDLE): past
 *      that, its id, stages and alternatives' hops go back to the table as
 *      its last packet leaves.  A fork's alternative kept before names the
 *      route it found by the id's generation, so that a route freed and
 *      its id given again is found anew by its content.  What the table
 *      holds is then bounded by ROUTE_KEEP_IDLE, the packets in flight and
 *      the flows' own routes, not by every path taken; freeing changes
 *      no packet's path. */
#ifndef COLLSIM_ROUTING_H
#define COLLSIM_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include "net/packet/net_time.h"
#include "platform/topology.h"
#include "util/diag.h"

typedef struct route_stage {
    net_time delay;     /* latency-only links crossed before it */
    int32_t port;       /* link * 2 + direction (DOWN = 1) */
    int32_t route;      /* the route it belongs to */
    int16_t vc;         /* virtual channel of the buffer it fills: its lane's, then the routing's (lanes.h) */
    int32_t voq;        /* at a voq switch, the queue its packet waits in (the buffer before it, this
                           port), -1 elsewhere: the engine's to assign (voq.h) */
    bool last;          /* the route's last stage: the packet arrives */
} route_stage;

typedef struct route_branch {
    int32_t stage;      /* the stage the choice fills (its route's own, from 0) */
    int32_t count;      /* equal-cost alternatives; 0: no open fork */
    int32_t node;       /* the switch choosing */
    int32_t taken;      /* the alternative the route's own stage there takes */
} route_branch;

typedef struct net_route {
    int32_t src, dst;        /* nodes: the flow's, or for an alternative its first packet's */
    int32_t first, count;    /* its stages */
    net_time tail_delay;     /* latency-only links after the last stage */
    net_time flight;         /* a flow's route: the time its packets fly after they leave, its links'
                                latencies and the latency-only links on its way (router.h) */
    int32_t refs;            /* an alternative's packets on it, and messages whose next packet takes it */
    int32_t options;         /* its open fork's alternatives in route_table.options, -1 until met */
    int16_t lane;            /* the virtual lane its traffic names (lanes.h) */
    int16_t taken;           /* the alternative of its first packet's fork it is (the escape: 0) */
    int16_t decided;         /* forks its history decided (0: a flow's route, never freed): the index of
                                its open fork among them */
    int16_t entry;           /* the stage a packet coming from the fork before starts on */
    int8_t channel;          /* the adaptive channel of its hop at the fork before, or -1: a torus's
                                escape (that hop in dimension order, on the dateline's channels) */
    bool voqs_assigned;      /* its stages have their virtual output queues (voq.h) */
    uint32_t gen;            /* its id's generation: one more each time the id is freed */
    uint32_t hash;           /* an alternative's content hash (its slot in route_table.shared) */
    route_branch open;       /* its open fork (spray, adaptive), count 0 when none */
} net_route;

/* Alternatives a route table keeps with no packet on them, at most: about
 * 1.5 GB of routes, stages and alternatives' hops on a torus. */
#define ROUTE_KEEP_IDLE (1 << 22)

/* Sizes of the blocks an alternative's stages and its fork's alternatives
 * take (powers of two, up to 2^(ROUTE_BLOCK_CLASSES - 1)). */
#define ROUTE_BLOCK_CLASSES 16

/* An alternative of an open fork: its hop there, and its route once kept. */
typedef struct route_option {
    int32_t route;           /* -1 until a packet takes it */
    uint32_t gen;            /* ROUTE's generation then: another means it was freed since */
    int32_t port;
    int16_t vc;
} route_option;

/* A route as the platform gives it, compiled but not kept. */
typedef struct route_compiled {
    route_stage *stages;     /* t->route_hops_max of them */
    int count;
    net_time tail_delay, flight;
    route_choices choices;
    int fork_stage[ROUTE_MAX_FORKS];
} route_compiled;

typedef struct route_table {
    const topology *t;
    net_route *routes;
    int route_count, route_capacity;
    route_stage *stages;
    int stage_count, stage_capacity;
    route_option *options;
    int option_count, option_capacity;
    uint64_t *shared;        /* alternatives by content: hash << 32 | route + 1, open addressing; 0: empty */
    int shared_count, shared_capacity; /* capacity a power of two, or 0 */
    int8_t *history;         /* ROUTE_MAX_FORKS a route: the choices its first packet made at each fork */
    int free_route;          /* freed ids, linked through their `options`; -1: none */
    int alternatives_kept, alternatives_peak; /* alternatives kept now, and at most */
    int keep_idle;           /* alternatives kept at most before one no packet is on is freed */
    int free_stages[ROUTE_BLOCK_CLASSES];  /* freed blocks of 2^class stages (routing.c's take_block) */
    int free_options[ROUTE_BLOCK_CLASSES]; /* freed blocks of 2^class alternatives' hops, likewise */
    bool keep_branches;      /* spray / adaptive: record forks (ecmp never looks at them) */
    bool datelines;          /* the routing's virtual channels as the platform names them (else channel 0
                                in every lane: only to show the deadlock they prevent) */
    int route_vcs;           /* the routing's virtual channels a lane has */
    int adaptive_vc;         /* ranks that route adaptively: the first channel of a hop chosen at a fork
                                (a lane's adaptive channels are its last), whose room the packet took as
                                it chose (router.h); -1: none */
    int adaptive_channels;   /* those channels: a fork's alternatives are its ways on each (1 elsewhere) */
    route_hop *hops;         /* scratch: one route of t (t->route_hops_max hops) */
    route_compiled scratch[2]; /* a candidate, and a kept route's history compiled to compare with it */
} route_table;

/* ADAPTIVE_VC and ADAPTIVE_CHANNELS as route_table's (-1 and 1: none). */
void route_table_init(route_table *r, const topology *t, bool keep_branches, int adaptive_vc, int adaptive_channels);
void route_table_free(route_table *r);
/* The route of a flow SRC -> DST on virtual lane LANE (ECMP hash at every
 * fork): its id, or -1 with a message when the platform has none. */
int route_flow(route_table *r, int src, int dst, int lane, diag *d);
/* The alternative CHOICE at ROUTE's open fork, kept (shared when another
 * packet's is the same, invariant 1); a packet moving onto it starts at
 * its stage `entry`.  With ranks that route adaptively, CHOICE is way
 * CHOICE % count on adaptive channel CHOICE / count, and the last,
 * route_choice_count, is the escape: that hop in dimension order, on the
 * dateline's channels (the next fork chooses again). */
int route_alternative(route_table *r, int route, int choice);
/* The alternatives of ROUTE's open fork (route_choice_count of them, and
 * the escape after them with ranks that route adaptively): their hops
 * there, before any is kept. */
const route_option *route_options(route_table *r, int route);
/* A packet or message takes ROUTE: an alternative then lives until as many
 * releases (a flow's route lives for the run). */
static inline void route_hold(route_table *r, int route)
{
    r->routes[route].refs++;
}
/* A packet leaves ROUTE (or arrives): the last frees an alternative
 * (invariant 4). */
void route_release(route_table *r, int route);
/* How many alternatives ROUTE's open fork has, the escape left out. */
static inline int route_choice_count(const route_table *r, int route)
{
    return r->routes[route].open.count * r->adaptive_channels;
}
/* A packet's choice at each fork: PICK returns it for a fork at NODE of
 * COUNT alternatives (spray's hash). */
typedef int (*route_pick_fn)(const void *ctx, int node, int count);
/* The route from ROUTE's open fork on with every fork decided by PICK,
 * kept as route_alternative keeps one. */
int route_decided(route_table *r, int route, route_pick_fn pick, const void *ctx);
/* The whole route SRC -> DST on LANE that C's choices take (the others
 * dimension order, or the ECMP hash), DECIDED of them fixed: the hop chosen
 * at fork DECIDED - 1 on adaptive CHANNEL with ranks that route
 * adaptively, unless CHANNEL is -1 (the escape).  The stage count, or -1
 * when there is none. */
int route_compile(route_table *r, int src, int dst, int lane, route_choices *c, int decided, int channel,
                  route_compiled *out);
/* The branch a packet on ROUTE meets at STAGE if still undecided, else NULL. */
const route_branch *route_open_branch(const route_table *r, int route, int stage);

static inline const route_stage *route_stage_of(const route_table *r, int route, int stage)
{
    return &r->stages[r->routes[route].first + stage];
}

#endif
