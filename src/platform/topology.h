/* topology.h — the fabric as collsim sees it: ranks, switches, full-duplex
 * links, per-tier α/BW (the values the formulas use), and a route function.
 *
 * Nodes are numbered 0..ranks-1 for ranks, then ranks..ranks+switch_count-1
 * for switches.  Every node becomes a SimGrid host (switches are hosts so an
 * in-network-collective switch can run an actor).  Routes are computed here,
 * on demand, and handed to SimGrid as explicit link lists: the kind's route
 * function is the single source of truth for paths (ECMP hashing, torus
 * direction choice, the SuperPOD's NVLink rail bridge).
 *
 * Latency: physical links carry each tier's α split so that a one-hop message
 * takes exactly α + M/BW under CM02 (docs/platforms.md).  A switch may also own a
 * latency-only crossbar link (transit) and port link (ends of in-network legs),
 * used when alpha_switch is smaller than the access link's share of α. */
#ifndef COLLSIM_TOPOLOGY_H
#define COLLSIM_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "platform/packet_params.h"

#define TOPO_MAX_TIERS 4
#ifndef __cplusplus /* net/fluid/simgrid_zone.cpp reads this header too */
_Static_assert(PACKET_MAX_TIERS == TOPO_MAX_TIERS, "packet buffers are per tier");
#endif
#define TOPO_MAX_DIMS 8

/* The largest fabric collsim builds (docs/reliability.md), checked from the
 * platform's counts before anything is allocated: beyond them memory, not
 * the model, is the limit (a link is ~80 bytes here and more in SimGrid). */
#define TOPO_MAX_RANKS (1 << 20)
#define TOPO_MAX_SWITCHES (1 << 20)
#define TOPO_MAX_LINKS (1 << 23)

enum { INC_REDUCE = 1u, INC_MULTICAST = 2u, INC_A2A = 4u };

typedef enum { ROUTING_ECMP, ROUTING_SPREAD } routing_mode;
/* Whether a platform's links keep their names: a command that never names
 * a link (predict) spares a third of a large fabric's memory and time. */
typedef enum { LINKS_NAMED, LINKS_UNNAMED } link_naming;

typedef struct topo_link {
    double bandwidth_Bps; /* per direction */
    double latency_s;
    int ends[2];          /* the nodes it joins: UP goes ends[0] -> ends[1]; -1 where the far end is
                             not one node (spread routing's aggregated uplink reaches a whole tier) */
    int name_at;          /* its name's offset in the topology's link_names (topology_link_name) */
    unsigned char tier;   /* below TOPO_MAX_TIERS */
    bool latency_only;    /* FATPIPE, unlimited: a switch crossbar or port delay */
} topo_link;

typedef struct route_hop {
    int link;
    bool down;        /* SPLITDUPLEX direction: false = UP (as built), true = DOWN */
    unsigned char vc; /* virtual channel of the buffer this hop fills (packet model: the torus
                         dateline of lattice.c); the fluid model has no buffers and ignores it */
} route_hop;

/* Equal-cost choices on a multi-path route.  The fluid model and packet
 * `ecmp` take the per-flow hash's; packet `spray` and `adaptive` choose per
 * packet (src/net/packet/routing.c).  A fork is a hop at which switch NODE could
 * take any of COUNT parallel links toward the destination, or a rank of a
 * torus or mesh any of COUNT dimensions that bring it closer (lattice.c;
 * the default, alternative 0, is dimension order). */
#define ROUTE_MAX_FORKS 32 /* a torus route forks wherever two dimensions remain: at most its hops */
typedef struct route_fork {
    int hop;   /* index of the hop the choice fills */
    int count; /* equal-cost alternatives */
    int node;  /* the switch choosing */
    int taken; /* the alternative the route took */
} route_fork;

typedef struct route_choices {
    int choice[ROUTE_MAX_FORKS];       /* alternative to take at each fork; -1: the ECMP hash's */
    route_fork forks[ROUTE_MAX_FORKS]; /* out: the forks the route met */
    int fork_count;                    /* out */
} route_choices;

typedef struct topo_tier {
    char name[24];
    char hop[96];          /* what one algorithmic hop of this tier is */
    double alpha_s;        /* end-to-end α of one hop (docs/platforms.md) */
    double bandwidth_Bps;  /* per rank, per direction: the formulas' BW */
    double efficiency;     /* η_β^hw: links run at efficiency × BW (explainer 05 §2.1) */
    double overhead_s;     /* per-message endpoint software cost, charged at the sender (LogP's o) */
    bool network;          /* a NIC-attached network tier (IB, Ethernet), not a GPU fabric: NCCL's NET latencies */
    double alpha_switch_s; /* one rank<->switch leg, for in-network collectives */
    unsigned inc;          /* INC_* capabilities of this tier's switches */
    char split[160];       /* how alpha is spread over the links of one hop */
} topo_tier;

/* What a node's name holds: a switch's name, or "r" and a rank (topology_node_name). */
#define TOPO_NODE_NAME_SIZE 40
/* A platform's name (`name:`, bounded when read). */
#define TOPO_NAME_SIZE 128

typedef struct topo_switch {
    char name[TOPO_NODE_NAME_SIZE];
    int tier;         /* index into tiers */
    unsigned inc;
    int xbar_link;    /* latency-only transit link, or -1 */
    int port_link;    /* latency-only link at in-network leg ends, or -1 */
} topo_switch;

/* A protocol's costs fitted from measurements (`calibrated:`, collsim
 * calibrate), in place of NCCL's published figures (model/protocol.c). */
typedef struct calibrated_protocol {
    bool set;
    double from_bytes;     /* the smallest size it was measured at (0: no limit below) */
    double up_to_bytes;    /* the largest size it was measured at (0: no limit above) */
    double launch_s;       /* per collective, on top of the platform's launch */
    double overhead_s;     /* per message, on top of each tier's overhead */
    double efficiency;     /* bandwidth of the data against the tiers' rate (their own efficiency applied) */
    int channels;          /* the channels the fit ran the algorithm on (0: the case's own) */
} calibrated_protocol;

/* The protocols fitted for one (collective, tier, algorithm family) of the
 * logs: a case of that primitive whose group climbs to that tier and runs
 * that family's flat algorithm takes them (model/protocol.c); any other case
 * keeps the published figures, and says so. */
#define TOPO_MAX_CALIBRATED 32
typedef struct calibrated_group {
    int prim;                        /* the primitive (sched/schedule.h) measured; -1: every collective */
    int tier;                        /* the tier its groups climbed to; -1: every tier (the one-table form) */
    int family;                      /* the algorithm family measured (platform/library.h's FAMILY_*); -1: any */
    bool library_choice;             /* measured as the library chose (no algorithm named): `auto` takes it */
    int line, column;                /* where the group is written (its FILE:LINE:COL in notes) */
    calibrated_protocol protocols[3]; /* simple, ll128, ll */
} calibrated_group;

/* The collective library a platform names (`library:`): NCCL or RCCL, whose
 * defaults a case without `protocol:` or `channels:` gets (auto), or none:
 * the seed's α-β model, no protocol, one channel (docs/platforms.md). */
typedef enum { LIBRARY_NONE, LIBRARY_NCCL, LIBRARY_RCCL } collective_library;
/* The GPUs' generation (`architecture:`), NCCL's compute-capability rows
 * (Volta, Ampere, Hopper, Blackwell) or AMD's CDNA 3; none: not stated. */
typedef enum { ARCH_NONE, ARCH_VOLTA, ARCH_AMPERE, ARCH_HOPPER, ARCH_BLACKWELL, ARCH_CDNA3 } gpu_architecture;

struct topology;
typedef int (*route_fn)(const struct topology *t, int src, int dst, route_hop *hops);
/* A kind with multi-path tiers: the route taking C's choices (clos.c, superpod.c). */
typedef int (*multipath_fn)(const struct topology *t, int src, int dst, route_choices *c, route_hop *hops);
/* The switch above NODE in the in-network aggregation tree of PLANE, or -1
 * (04 §2).  A fabric with two switch hierarchies over the same ranks (a
 * SuperPOD's NVSwitch of each pod and its IB rails) has a plane for each. */
typedef int (*inc_parent_fn)(const struct topology *t, int node, int plane);

typedef struct topology {
    char name[TOPO_NAME_SIZE];
    char kind[24];
    bool lattice;             /* ranks on a grid joined to their neighbours (torus, mesh): ranks act as routers */
    bool wraparound;          /* a lattice whose lines close into rings (torus) */
    int ranks;
    topo_switch *switches;
    int switch_count, switch_capacity;
    topo_link *links;
    int link_count, link_capacity;
    char *link_names;         /* every link's name, each ended by '\0', one after another */
    int names_size, names_capacity;
    bool unnamed_links;       /* links keep no names: built for a command that never names one (predict) */
    topo_tier tiers[TOPO_MAX_TIERS];
    int tier_count;
    routing_mode routing;
    int dims[TOPO_MAX_DIMS];
    int dim_count;
    double launch_s;          /* per-collective launch / synchronisation cost (`launch`, default 0) */
    /* The collective library's protocol limits (NCCL / RCCL tuning.cc, docs/model.md): */
    double ll_max_bw_Bps;     /* `ll_max_bw`: the most bus bandwidth LL reaches (NCCL's llMaxBw), 0: none */
    double ll128_max_bw_Bps;  /* `ll128_max_bw`: the same for LL128 (NCCL's channels x perChMaxRingLL128Bw), 0: none */
    unsigned protocols;       /* `protocols`: the ones the library enables, a bit each in the order of
                                 topology_protocol_names; 0: all */
    collective_library library; /* `library`: which library runs the collectives (library.c) */
    gpu_architecture architecture; /* `architecture`: the GPUs' generation, for the library's figures */
    double nvls_efficiency;   /* NVLS's share of the NVLink tier's rate (NCCL's nvlsEfficiency per
                                 architecture, or `nvls_efficiency`); 1: no derating */
    calibrated_group calibrated[TOPO_MAX_CALIBRATED]; /* fitted costs (`calibrated:`), none by default */
    int calibrated_count;
    double oversubscription;  /* 0 when not a switched multi-tier fabric */
    int domain_ranks;         /* ranks of one inner domain (SuperPOD pod, Clos leaf): the inner
                                 groups of hierarchical schedules (03 §2.1); 0 when single-tier */
    int rails;                /* rail-optimized fabrics: rails (NIC planes) per domain, 0 otherwise */
    int mesh_ranks;           /* ranks joined pairwise by dedicated links, in blocks of this many consecutive
                                 ranks (a full mesh: all of them; a rail cluster's xGMI nodes: a node's);
                                 0: no such blocks */
    int diameter_links;       /* physical links on the longest rank-to-rank route */
    int route_hops_max;       /* most hops (links and switch delays) any route has: what a route buffer holds */
    int route_vcs;            /* virtual channels its routes name (route_hop.vc below it); 0 is taken as 1 */
    double bisection_Bps;     /* one direction, narrowest equal-halves cut */
    char bisection_cut[128];  /* which cut that is */
    char notes[512];          /* kind-specific lines for describe */
    packet_params packet;     /* the packet model's `packet:` mapping (packet_params.h) */
    route_fn route;
    multipath_fn multipath;   /* NULL: one path per pair */
    inc_parent_fn inc_parent; /* NULL: no switches to aggregate in (torus, mesh) */
    int inc_planes;           /* aggregation planes inc_parent answers for (0 is taken as 1) */
    void *kind_data;          /* owned, freed with the topology */
} topology;

/* The protocols a platform's `protocols` names, in the order of its bits. */
#define TOPO_PROTOCOLS 3
extern const char *const topology_protocol_names[TOPO_PROTOCOLS];

void topology_init(topology *t, const char *kind);
void topology_free(topology *t);

/* Room for LINKS links before they are added (a kind that knows its count:
 * no copy of the arrays while they grow). */
void topology_reserve_links(topology *t, double links);
/* snprintf for the names of links and switches: FORMAT's %d and %s only,
 * several times faster (a 2^20-rank fabric names millions of links). */
void topology_format_name(char *out, size_t size, const char *format, ...);
/* Link L's name (its SimGrid id); never asked of unnamed links. */
const char *topology_link_name(const topology *t, int link);
/* Builders' helpers. Return the new index. */
int topology_add_link(topology *t, const char *name, double bandwidth_Bps, double latency_s, int tier);
int topology_add_latency_link(topology *t, const char *name, double latency_s, int tier);
int topology_add_switch(topology *t, const char *name, int tier, unsigned inc);
int topology_add_tier(topology *t, const topo_tier *tier);
/* Record that LINK joins node FROM (the UP direction's source) and node TO. */
void topology_set_link_ends(topology *t, int link, int from, int to);

int topology_node_count(const topology *t);
/* SimGrid host name of NODE ("r12" for ranks, the switch name otherwise). */
void topology_node_name(const topology *t, int node, char *out, int out_size);
/* The node a direction of LINK leaves (END 0) or reaches (END 1), DOWN
 * being the reverse of UP: a node's name, or "TIER tier" where that end is
 * a whole tier (spread routing's aggregated uplinks: the link's own tier
 * above, the tier below it beneath). */
void topology_link_end_name(const topology *t, int link, bool down, int end, char *out, int out_size);

/* Virtual channels T's routes name (a lane's, in the packet model). */
static inline int topology_route_vcs(const topology *t)
{
    return t->route_vcs > 0 ? t->route_vcs : 1;
}

/* Route between two nodes into HOPS (room for t->route_hops_max, see
 * route_buffer); returns the hop count (0 for src == dst). */
int topology_route(const topology *t, int src, int dst, route_hop *hops);
/* The route SRC -> DST taking C's choices (all -1: the ECMP hash's, as
 * topology_route), its forks recorded in C. */
int topology_route_choices(const topology *t, int src, int dst, route_choices *c, route_hop *hops);
/* No choice made yet: every fork takes the ECMP hash's alternative. */
void route_choices_init(route_choices *c);
/* For kind builders, at a fork of C (NULL: none recorded) filling hop HOP,
 * where switch NODE has COUNT equal-cost links: the alternative to take, C's
 * choice or HASHED mod COUNT. */
int route_fork_pick(route_choices *c, int hop, int node, int count, unsigned hashed);

/* A buffer for any route of T; the caller frees it. */
route_hop *route_buffer(const topology *t);
/* The highest tier of any link of a route (0 when none). */
int route_top_tier(const topology *t, const route_hop *hops, int count);
/* How a group of N ranks (MEMBERS, its platform ranks; NULL: ranks 0..N-1)
 * sits on T's inner domains (pods, nodes, leaves: domain_ranks consecutive
 * ranks each): returns the group ranks in each domain it touches.  ORDER (N ranks,
 * may be NULL) gets the group ranks domain by domain, domains in order of
 * first appearance, group order within each.  Returns 0 when T has no
 * domains, -1 when the group's shares of them differ. */
int topology_group_domains(const topology *t, const int *members, int n, int *order);
/* Sum of link latencies, number of physical links, and narrowest bandwidth of a route. */
double route_latency(const topology *t, const route_hop *hops, int count);
int route_physical_links(const topology *t, const route_hop *hops, int count);
double route_bandwidth(const topology *t, const route_hop *hops, int count);

/* Append a hop to HOPS[*count] (skips latency-only links of zero latency and
 * link < 0).  A route longer than t->route_hops_max is a builder's bug: it
 * stops the program rather than write past the buffer. */
void route_push(const topology *t, route_hop *hops, int *count, int link, bool down);

/* An in-network leg between a node and the switch above it: LINK then the
 * switch's PORT_LINK going up, the reverse going down.  Returns the hop count. */
int route_switch_leg(const topology *t, route_hop *hops, int link, int port_link, bool downward);

/* Deterministic per-flow hash for ECMP choices (same inputs, same path). */
unsigned ecmp_hash(int src, int dst, unsigned salt);

#endif
