/* protocol.h — NCCL-style protocols (Simple, LL128, LL) as costs at the
 * endpoints of a collective: bytes on the wire per byte of data (the flags),
 * a per-message latency added to each tier's sender overhead, and a
 * per-collective base latency added to the platform's launch cost.  The
 * figures are NCCL's published tuning model (docs/model.md says which figure
 * comes from where); the executor and the analytic model read the same
 * endpoint_costs, so prediction and simulation charge the same. */
#ifndef COLLSIM_PROTOCOL_H
#define COLLSIM_PROTOCOL_H

#include <stdbool.h>

#include "platform/topology.h"

typedef enum { PROTOCOL_NONE, PROTOCOL_SIMPLE, PROTOCOL_LL128, PROTOCOL_LL, PROTOCOL_AUTO } protocol_id;
#define PROTOCOL_CHOICES 3 /* simple, ll128, ll: what `auto` chooses among */

/* NCCL's algorithm rows of its tuning tables. */
typedef enum { FAMILY_RING, FAMILY_TREE, FAMILY_NVLS } algorithm_family;

typedef struct endpoint_costs {
    double launch_s;                    /* per collective: platform launch + the protocol's base latency */
    double overhead_s[TOPO_MAX_TIERS];  /* per message at the sender: tier overhead + the protocol's per-hop latency */
    int wire_numerator, wire_denominator; /* wire bytes per data byte */
} endpoint_costs;

const char *protocol_name(protocol_id p);
bool protocol_from_name(const char *name, protocol_id *p);
/* The NCCL row an algorithm's schedule belongs to (ring for all but trees and INC). */
algorithm_family algorithm_family_of(const char *algorithm);
/* The costs of running ALGORITHM under protocol P on T for a group whose
 * routes climb to tier TOP_TIER (PROTOCOL_NONE: the platform's own launch and
 * overheads alone). */
void endpoint_costs_of(const topology *t, const char *algorithm, protocol_id p, int top_tier, endpoint_costs *out);

#endif
