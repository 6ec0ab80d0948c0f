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

typedef enum { SWITCHING_CUT_THROUGH, SWITCHING_STORE_AND_FORWARD } packet_switching;
typedef enum { FLOW_CONTROL_CREDIT, FLOW_CONTROL_NONE } packet_flow_control;
typedef enum { PACKET_ROUTING_ECMP, PACKET_ROUTING_SPRAY, PACKET_ROUTING_ADAPTIVE } packet_routing;
typedef enum { SWITCH_FIFO, SWITCH_VOQ } switch_architecture;

typedef struct packet_params {
    double mtu_bytes;                      /* payload per packet: 4 KiB (InfiniBand / RoCE MTU) */
    double header_bytes;                   /* per packet on the wire: 0 B (exact forms as the fluid model) */
    double buffer_bytes[PACKET_MAX_TIERS]; /* per input port, by the tier of the link feeding it;
                                              0: the tier's credit loop (packet_credit_loop_bytes) */
    packet_switching switching;
    packet_flow_control flow_control;
    packet_routing routing;
    switch_architecture architecture;      /* how a switch queues at its inputs: fifo (one queue per input) or
                                              voq (one per input and output) */
    double speedup;                        /* crossbar speedup: an input feeds the crossbar at most this
                                              times its link's bandwidth; 1 (a real number >= 1) */
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

/* Bytes of one full packet on the wire: mtu + header. */
double packet_wire_bytes(const packet_params *p);

/* The input buffer with which a lone flow streams at full rate over every
 * link of TIER: one credit round trip of sending (data latency, crossbar
 * delay, the packet's own time, credit latency) in whole packets,
 * (ceil((2l + d)·b / w) + 1)·w for cut-through and one packet more for
 * store-and-forward (derivation in docs/packet.md).  0 when the tier has no
 * link. */
double packet_credit_loop_bytes(const struct topology *t, int tier);

/* The buffer of TIER's input ports: the file's, or the credit loop. */
double packet_buffer_bytes(const struct topology *t, int tier);

const char *packet_switching_name(packet_switching s);
const char *packet_flow_control_name(packet_flow_control f);
const char *packet_routing_name(packet_routing r);
const char *switch_architecture_name(switch_architecture a);

#endif
