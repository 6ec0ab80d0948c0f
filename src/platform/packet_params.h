/* packet_params.h — the platform file's `packet:` mapping (docs/packet.md): how
 * the packet model cuts messages (mtu, header), switches (cut-through or
 * store-and-forward), buffers and flow control (credit or none) and routes
 * on multi-path tiers (ecmp, spray, adaptive), and how fast a switch's
 * crossbar moves packets (speedup).  Defaults and their sources
 * are in docs/packet.md.  The fluid model reads none of it. */
#ifndef COLLSIM_PACKET_PARAMS_H
#define COLLSIM_PACKET_PARAMS_H

#include <stdbool.h>

#define PACKET_MAX_TIERS 4 /* = TOPO_MAX_TIERS */
/* The most bytes a packet (mtu + header) or a unit may have on the wire: the
 * engine keeps a packet's wire bytes times the executor's scale (at most
 * 2^10) in 32 unsigned bits. */
#define PACKET_MAX_WIRE_BYTES (1 << 22)
#define PACKET_MAX_LANES 8 /* virtual lanes a link may have (InfiniBand's data VL counts: 1, 2, 4, 8) */

typedef enum { SWITCHING_CUT_THROUGH, SWITCHING_STORE_AND_FORWARD } packet_switching;
typedef enum { FLOW_CONTROL_CREDIT, FLOW_CONTROL_NONE } packet_flow_control;
typedef enum { PACKET_ROUTING_ECMP, PACKET_ROUTING_SPRAY, PACKET_ROUTING_ADAPTIVE } packet_routing;
typedef enum { SWITCH_FIFO, SWITCH_VOQ, SWITCH_SHARED } switch_architecture;
typedef enum { SCHEDULER_ROUND_ROBIN, SCHEDULER_ISLIP } voq_scheduler;
typedef enum { TRANSIT_ROUND_ROBIN, TRANSIT_PRIORITY, TRANSIT_BUBBLE, TRANSIT_AGE } router_transit;
typedef enum { INJECTION_FARTHEST, INJECTION_IN_TURN } injection_order;
typedef enum { CHANNELS_DEFAULT, CHANNELS_BALANCED, CHANNELS_DATELINE } dateline_channels;

/* How ranks that route (torus, mesh) treat packets (`router:`;
 * src/net/packet/router.h). */
typedef struct router_params {
    int injection;                   /* injection queues per outgoing link: a rank's messages join them in
                                        turn, each queue one input of the link */
    injection_order order;           /* which message of a queue sends its packet next: the farthest (in turn
                                        among messages as far), or every message in turn */
    dateline_channels channels;      /* a torus ring's two channels: an arc that does not cross the dateline
                                        on either (balanced: the one its flow hashes to), or on the first
                                        (dateline); default: balanced under dimension order, dateline under
                                        adaptive routing (router_channels) */
    router_transit transit;          /* at an outgoing link, packets passing through before injected ones,
                                        the oldest first (age) or in turn (priority); in turn with them; or
                                        in turn with injected ones that leave room for another packet
                                        behind them (bubble) */
    switch_architecture architecture; /* fifo: a queue per input buffer; voq: per input buffer and output */
    int adaptive_channels;           /* minimal adaptive routing's channels per lane beside the escape's, each
                                        with its own buffer (Blue Gene/L's two dynamic channels); 0: not given */
} router_params;

typedef struct packet_params {
    double mtu_bytes;                      /* payload per packet: 4 KiB (InfiniBand / RoCE MTU) */
    double header_bytes;                   /* per packet on the wire: 0 B (exact forms as the fluid model) */
    double unit_bytes;                     /* payload the engine moves as one unit: a train of unit / mtu packets
                                              cut through together (docs/scale.md, "Coarse units"); 0: the mtu */
    double buffer_bytes[PACKET_MAX_TIERS]; /* per input port, by the tier of the link feeding it;
                                              0: the tier's credit loop (packet_credit_loop_bytes) */
    packet_switching switching;
    packet_flow_control flow_control;
    packet_routing routing;
    int entropies;                         /* spray: the entropy values a sender's packets cycle through, each
                                              switch hashing a packet's flow and entropy to its uplink: 64 */
    switch_architecture architecture[PACKET_MAX_TIERS]; /* by the tier of the switch: fifo (a queue per
                                              input), voq (a queue per input and output), shared (output
                                              queues in one pool per switch) */
    voq_scheduler scheduler;               /* how voq switches match inputs to outputs */
    int iterations;                        /* islip's iterations per cell time: 1 */
    double speedup;                        /* crossbar speedup: an input feeds the crossbar, and an output
                                              drains it, at most this times its link's bandwidth; 1 (a real
                                              number >= 1); above 1 every switch has output queues */
    double output_buffer_bytes[PACKET_MAX_TIERS]; /* an output queue's room (speedup > 1, fifo and voq), by
                                              the tier of the switch; 0: the tier's input buffer */
    double shared_buffer_bytes[PACKET_MAX_TIERS]; /* a shared switch's pool, by its tier; 0: the default
                                              (packet_shared_buffer_bytes) */
    double alpha;                          /* shared: an output queue admits a packet while it holds less
                                              than alpha x the pool's free room (dynamic threshold): 1 */
    int virtual_lanes[PACKET_MAX_TIERS];   /* lanes of each link, by its tier: 1; each its own buffer and
                                              credits (src/net/packet/lanes.h) */
    unsigned char lane_weights[PACKET_MAX_LANES]; /* packets a lane sends in its turn at a port: 1 (round
                                              robin) */
    router_params router;                  /* ranks that route (torus, mesh) */
} packet_params;

struct topology;
struct yaml_tree;
struct yaml_node_s;
struct diag;

/* The defaults (docs/packet.md). */
void packet_params_default(packet_params *p);

/* Read the `packet:` mapping NODE of a platform into T->packet (after the
 * kind built T's tiers).  False with a positioned message on a bad value. */
bool packet_params_read(struct yaml_tree *tree, struct yaml_node_s *node, struct topology *t, struct diag *d);

/* The most virtual lanes any link of the first TIERS tiers has. */
int packet_max_lanes(const packet_params *p, int tiers);

/* `virtual_lane: L` of traffic (a case's, a background's) on T: a lane
 * from 0 to T's most lanes - 1, into *OUT. */
bool packet_read_virtual_lane(struct yaml_tree *tree, struct yaml_node_s *node, const struct topology *t, int *out,
                              struct diag *d);

/* Bytes of one full packet on the wire: mtu + header. */
double packet_wire_bytes(const packet_params *p);
/* The engine's unit: its payload (the mtu unless `unit` is given), and its
 * bytes on the wire (a header for each mtu it holds). */
double packet_unit_bytes(const packet_params *p);
double packet_unit_wire_bytes(const packet_params *p);

/* The input buffer with which a lone flow streams at full rate over every
 * link of TIER: one credit round trip of sending (data latency, crossbar
 * delay, the packet's own time, credit latency) in whole packets,
 * (ceil((2l + d)·b / w) + 1)·w for cut-through and one packet more for
 * store-and-forward (derivation in docs/packet.md).  0 when the tier has no
 * link. */
double packet_credit_loop_bytes(const struct topology *t, int tier);

/* The buffer of TIER's input ports: the file's, or the credit loop. */
double packet_buffer_bytes(const struct topology *t, int tier);
/* Whether switches have output queues: shared ones always, every one
 * when the crossbar is faster than the links (a combined input- and
 * output-queued switch). */
bool packet_output_queues(const packet_params *p, int tier);
/* The room of an output queue of a switch of TIER (fifo, voq). */
double packet_output_buffer_bytes(const struct topology *t, int tier);
/* The pool of a shared switch of TIER with PORTS ports: the file's, or
 * the room of the input buffers it stands for (PORTS x the tier's lanes x
 * the tier's buffer). */
double packet_shared_buffer_bytes(const struct topology *t, int tier, int ports);

const char *packet_switching_name(packet_switching s);
const char *packet_flow_control_name(packet_flow_control f);
const char *packet_routing_name(packet_routing r);
const char *switch_architecture_name(switch_architecture a);
const char *voq_scheduler_name(voq_scheduler s);
const char *router_transit_name(router_transit r);
const char *injection_order_name(injection_order o);
/* Minimal adaptive routing's channels per lane P's routers have (its
 * `adaptive_channels`, or 2). */
int router_adaptive_channels(const packet_params *p);
/* The dateline channels' rule P's routers use (its `channels`, or its routing's default). */
dateline_channels router_channels(const packet_params *p);
const char *dateline_channels_name(dateline_channels c);

#endif
