/* synthetic.h — open-loop synthetic traffic on the packet engine alone, the
 * way switch architectures are measured (Karol, Hluchyj & Morgan 1987;
 * McKeown 1999): N sources each offer single-packet messages at a load (a
 * fraction of its link's packet rate), Bernoulli per packet time or
 * Poisson, to sinks drawn by a pattern; what comes out is the delivered
 * throughput per sink and the delay from arrival at the source to delivery.
 *
 * Source k and sink k are the two sides of one switch port (on a star, two
 * ranks: the one whose link feeds input k and the one output k feeds), so
 * "self-traffic" (k to sink k) is traffic a switch carries like any other.
 * A load of 1 or more keeps every source backlogged: saturation. */
#ifndef COLLSIM_SYNTHETIC_H
#define COLLSIM_SYNTHETIC_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/topology.h"
#include "util/diag.h"

typedef enum { SYNTHETIC_UNIFORM, SYNTHETIC_PERMUTATION, SYNTHETIC_HOTSPOT } synthetic_pattern;
typedef enum { ARRIVALS_BERNOULLI, ARRIVALS_POISSON } synthetic_arrivals;

typedef struct synthetic_spec {
    int ports;                  /* N sources and N sinks */
    const int *sources, *sinks; /* their nodes */
    synthetic_pattern pattern;  /* uniform: each packet to a sink at random; permutation: each source to one
                                   sink, drawn once; hotspot: hotspot_share of packets to sink 0, the rest
                                   uniform */
    bool self_traffic;          /* source k may send to sink k */
    synthetic_arrivals arrivals;
    double load;                /* packets per packet time per source; >= 1: always backlogged */
    double hotspot_share;
    double packet_bytes;        /* each message, one packet at the platform's mtu or less */
    long warmup_slots, slots;   /* packet times (of source 0's link) run before measuring, and measured */
    uint64_t seed;
} synthetic_spec;

typedef struct synthetic_result {
    double throughput;          /* packets delivered per sink per packet time while measured */
    double offered;             /* packets arrived per source per packet time while measured */
    double slot_s;              /* a packet time */
    /* from arrival at the source to delivery, of the packets that arrived while measured (not at
       saturation: a backlogged source's packets have no arrival time) */
    double delay_mean_s, delay_p50_s, delay_p99_s, delay_max_s;
    long delivered;             /* while measured */
} synthetic_result;

/* Run SPEC on T's packet model; false with a message (no route, a
 * deadlock, a bad spec). */
bool synthetic_run(const topology *t, const synthetic_spec *spec, synthetic_result *out, diag *d);

#endif
