/* routing.h — routes as the packet engine uses them: the list of ports a
 * packet crosses (htsim's Route of queues and pipes), each with the delay of
 * the latency-only links before it (switch crossbars, INC port delays), and
 * the equal-cost forks where `spray` and `adaptive` choose per packet.
 *
 * Paths come from the platform's route function, the single source of truth
 * the fluid model also uses: a flow's route takes the ECMP hash's choice at
 * every fork, so `ecmp` runs the fluid model's very paths.  An alternative
 * at a fork is the route the platform gives for that choice (its hops before
 * the fork are the same), computed once and kept. */
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
    int32_t stage;      /* the stage the choice fills */
    int32_t count;      /* equal-cost alternatives */
    int32_t node;       /* the switch choosing */
    int32_t taken;      /* the alternative this route takes */
} route_branch;

typedef struct net_route {
    int32_t src, dst;        /* nodes */
    int32_t first, count;    /* its stages */
    net_time tail_delay;     /* latency-only links after the last stage */
    int32_t branch_first, branch_count;
    int32_t decided;         /* branches fixed by choices: 0 for a flow's route */
    int32_t alternatives;    /* route ids of each alternative at branch `decided`, -1 until needed */
    int32_t lane;            /* the virtual lane its traffic names (lanes.h) */
    bool escape;             /* a torus's escape: its last fork's hop in dimension order, on the dateline's
                                channels */
} net_route;

typedef struct route_table {
    const topology *t;
    net_route *routes;
    int route_count, route_capacity;
    route_stage *stages;
    int stage_count, stage_capacity;
    route_branch *branches;
    int branch_count, branch_capacity;
    int32_t *alternatives;
    int alternative_count, alternative_capacity;
    bool keep_branches;      /* spray / adaptive: record forks (ecmp never looks at them) */
    bool datelines;          /* the routing's virtual channels as the platform names them (else channel 0
                                in every lane: only to show the deadlock they prevent) */
    int route_vcs;           /* the routing's virtual channels a lane has */
    int adaptive_vc;         /* ranks that route adaptively: the channel of a hop chosen at a fork (the last
                                of a lane's), whose room the packet took as it chose (router.h); -1: none */
    route_hop *hops;         /* scratch: one route of t (t->route_hops_max hops) */
    int *stage_of_hop;       /* scratch: each hop's stage */
} route_table;

/* ADAPTIVE_VC as route_table's (-1: none). */
void route_table_init(route_table *r, const topology *t, bool keep_branches, int adaptive_vc);
void route_table_free(route_table *r);
/* The route of a flow SRC -> DST on virtual lane LANE (ECMP hash at every
 * fork): its id, or -1 with a message when the platform has none. */
int route_flow(route_table *r, int src, int dst, int lane, diag *d);
/* Route ROUTE with alternative CHOICE at its first undecided branch;
 * with ranks that route adaptively, CHOICE = the branch's count is the
 * escape: that hop in dimension order, on the dateline's channels (the
 * next fork chooses again). */
int route_alternative(route_table *r, int route, int choice);
/* The branch a packet on ROUTE meets at STAGE if still undecided, else NULL. */
const route_branch *route_open_branch(const route_table *r, int route, int stage);

static inline const route_stage *route_stage_of(const route_table *r, int route, int stage)
{
    return &r->stages[r->routes[route].first + stage];
}

#endif
