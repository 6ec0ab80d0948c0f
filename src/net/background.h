/* background.h — open-loop background traffic (docs/scenarios.md): while a measured
 * case runs, chosen ranks send messages of one size at random (Poisson) or
 * regular times to destinations drawn from a pattern, at a rate that loads
 * the busiest link they cross (of a chosen tier) to a chosen utilization.
 * `concurrent:` cases cannot do this: a collective runs flat out and stops
 * when it is done, whatever the measured case does.
 *
 * Both network models inject the same messages at the same times (each
 * source draws from its own seeded sequence).  The traffic is open-loop: a
 * message leaves at its arrival whatever the source's earlier messages are
 * doing (many queue pairs, interleaved as a NIC does), so the load offered
 * is the load asked for, and beyond what the fabric carries queues grow.
 * No schedule actor waits for them, and they stop when the measured case
 * ends.  The packet model also runs the
 * background alone for `warmup_s` first, so that the case meets queues in
 * their steady state; the fluid model has no queues to fill. */
#ifndef COLLSIM_BACKGROUND_H
#define COLLSIM_BACKGROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/topology.h"

typedef enum { BACKGROUND_UNIFORM, BACKGROUND_PERMUTATION, BACKGROUND_INCAST } background_pattern;

/* What a scenario asks for (docs/scenarios.md, `background:`). */
typedef struct background_spec {
    const int *ranks;          /* the platform ranks that send */
    int rank_count;
    background_pattern pattern; /* uniform: each message to another of RANKS at random; permutation: each
                                   rank to one other (a seeded derangement); incast: all to TO */
    int to;                    /* incast's destination rank */
    double load;               /* offered utilization of the busiest link crossed (> 0; above 1 overloads it) */
    int tier;                  /* whose links LOAD refers to; -1: any tier's */
    double message_bytes;
    bool periodic;             /* arrivals evenly spaced (at a random phase), else Poisson */
    uint64_t seed;
    double warmup_s;           /* packet model: the background alone before the case; < 0: the default */
    int virtual_lane;          /* packet model: the links' virtual lane its messages take */
} background_spec;

typedef struct background_source {
    int node;                  /* topology node that sends */
    int target_first, target_count; /* its destinations, in the background's targets[] */
    double rate_per_s;         /* message arrivals per second */
    double message_bytes;
    bool periodic;
    uint64_t seed;
} background_source;

typedef struct background {
    background_source *sources;
    int source_count;
    int *targets;              /* topology nodes */
    int target_count;
    double warmup_s;
    double load;               /* as asked: the offered utilization of the busiest link */
    double busiest_Bps;        /* that link's bandwidth */
    int virtual_lane;          /* as asked (packet model) */
} background;

/* Build B from SPEC on T: every source gets the rate that puts LOAD on the
 * busiest link of SPEC's tier that the pattern's routes cross (each source
 * spreads its messages evenly over its destinations).  False with WHY when
 * the background crosses no link of that tier. */
bool background_build(background *b, const topology *t, const background_spec *spec, char *why, int why_size);
void background_free(background *b);

/* One source's arrival sequence: NEXT_S is when its next message leaves. */
typedef struct background_clock {
    uint64_t state;
    double next_s;
} background_clock;
void background_clock_start(background_clock *c, const background_source *s);
/* The destination (an index into the source's targets) of the message
 * leaving at c->next_s; c->next_s moves on to the following one. */
int background_clock_tick(background_clock *c, const background_source *s);

/* All sources' arrivals merged in time order (the packet fabric injects
 * them so): a binary heap of the sources by their next arrival. */
typedef struct background_stream {
    const background *b;
    background_clock *clocks;  /* per source */
    int *heap;                 /* source indices, earliest next arrival (then lowest index) first */
} background_stream;
void background_stream_start(background_stream *s, const background *b);
/* When the next message leaves. */
double background_stream_next_s(const background_stream *s);
/* Take that message: its source (an index into b->sources) and its
 * destination (an index into that source's targets). */
void background_stream_pop(background_stream *s, int *source, int *target);
void background_stream_free(background_stream *s);

#endif
