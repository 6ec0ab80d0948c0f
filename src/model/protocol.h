/* protocol.h — NCCL-style protocols (Simple, LL128, LL) as costs at the
 * endpoints of a collective: bytes on the wire per byte of data (the flags),
 * a latency per step of the collective, a per-collective base latency added
 * to the platform's launch cost, and a cap on the bus bandwidth the protocol
 * reaches.  The figures are NCCL's published tuning model (docs/model.md
 * says which figure comes from where).  The steps and the cap depend on the
 * algorithm's form: model_case_costs (model.h) folds them into the launch
 * and the wire ratio, and the executor and the analytic model read that
 * same endpoint_costs, so prediction and simulation charge the same. */
#ifndef COLLSIM_PROTOCOL_H
#define COLLSIM_PROTOCOL_H

#include <stdbool.h>

#include "algo/algorithm.h"
#include "platform/topology.h"
#include "sched/schedule.h"

typedef enum { PROTOCOL_NONE, PROTOCOL_SIMPLE, PROTOCOL_LL128, PROTOCOL_LL, PROTOCOL_AUTO } protocol_id;
#define PROTOCOL_CHOICES 3 /* simple, ll128, ll: what `auto` chooses among */

typedef struct endpoint_costs {
    double launch_s;                    /* per collective: platform launch + the protocol's base latency */
    double overhead_s[TOPO_MAX_TIERS];  /* per message at the sender: tier overhead (+ a calibrated protocol's) */
    double step_s[TOPO_MAX_TIERS];      /* per step of the collective on tier k: NCCL's hwLat[p] - hwLat[LL]
                                           (model_case_costs charges the steps once, in launch_s, and zeroes these) */
    double bus_cap_Bps;                 /* the protocol's bus-bandwidth cap on the platform, 0: none
                                           (model_case_costs turns it into the wire ratio) */
    int wire_numerator, wire_denominator; /* wire bytes per data byte */
} endpoint_costs;

const char *protocol_name(protocol_id p);
bool protocol_from_name(const char *name, protocol_id *p);
/* The algorithm a calibrated group of FAMILY (FAMILY_*) measured for PRIM:
 * the family's flat algorithm (ring, or pairwise all-to-all and direct
 * sendrecv; NCCL's tree; NVLS, collsim's inc), or NULL. */
const algorithm *calibrated_algorithm(primitive prim, int family);
/* The calibrated group that covers algorithm A running PRIM on a group whose
 * routes climb to tier TOP_TIER on T: the one of that primitive, that tier
 * and A's family whose flat algorithm A is (the one-table form covers the
 * ring of every primitive and tier); NULL when none does (the published
 * figures apply).  Resolved once per case, by enum and pointer: nothing on
 * the per-message path looks it up. */
const calibrated_group *calibrated_group_for(const topology *t, primitive prim, int top_tier, const algorithm *a);

/* The costs of running an algorithm of FAMILY (its NCCL row) under protocol P on T for a group whose
 * routes climb to tier TOP_TIER, with the calibrated group CALIBRATED (NULL:
 * NCCL's figures; calibrated_group_for) (PROTOCOL_NONE: the platform's own
 * launch and overheads alone). */
void endpoint_costs_of(const topology *t, const calibrated_group *calibrated, algorithm_family family, protocol_id p,
                       int top_tier, endpoint_costs *out);

/* Set C's wire ratio to NUMERATOR / DENOMINATOR wire bytes per data byte, reduced. */
void endpoint_costs_set_wire(endpoint_costs *c, int numerator, int denominator);

/* Whether the platform's collective library enables P (its `protocols`; all when unset). */
bool protocol_enabled(const topology *t, protocol_id p);

/* Whether `auto` may pick P at SIZE_BYTES under the calibrated group
 * CALIBRATED: always when NULL (NCCL's figures), else the group offers each fitted protocol in the size range it
 * was measured at, and between two measured ranges (or beyond them) the
 * protocols on either side, so that the tuner takes the faster there: where
 * the switch falls between two measured sizes is not known.  A protocol it
 * did not fit is not offered. */
bool protocol_available(const calibrated_group *calibrated, protocol_id p, double size_bytes);

#endif
