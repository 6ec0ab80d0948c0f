/* platform.h — reading a platform YAML file (docs/platforms.md) into a topology, and the
 * registry of platform kinds (`collsim list platforms`). */
#ifndef COLLSIM_PLATFORM_H
#define COLLSIM_PLATFORM_H

#include <stdbool.h>

#include "platform/topology.h"
#include "util/diag.h"
#include "yaml/yaml_tree.h"

typedef struct platform_reader {
    yaml_tree *tree;
    ynode *root;
    diag *d;
} platform_reader;

typedef struct platform_kind {
    const char *name;
    const char *summary;    /* one line for `collsim list platforms` */
    const char *seed;       /* seed section the kind comes from */
    const char *const *keys; /* keys the kind accepts besides name, kind, routing, description */
    bool (*build)(platform_reader *r, topology *t);
} platform_kind;

/* Load PATH into T.  False, with a positioned message in D, on any bad input. */
bool platform_load(const char *path, topology *t, diag *d);
/* The same, its links named or not. */
bool platform_load_as(const char *path, link_naming naming, topology *t, diag *d);
/* Same from text (NAME is used in messages); for tests and inline platforms. */
bool platform_load_string(const char *name, const char *text, topology *t, diag *d);
/* Build from an already-loaded mapping (a scenario's inline platform). */
bool platform_build(yaml_tree *tree, ynode *map, link_naming naming, topology *t, diag *d);

const platform_kind *platform_kinds(int *count);

/* ---- helpers shared by the kind builders (platform_file.c) ---- */

/* Read a tier's alpha (key ALPHA_KEY), bandwidth, efficiency, overhead,
 * alpha_switch and inc from MAP.  INC_ALLOWED false refuses an `inc` key. */
bool read_tier(platform_reader *r, ynode *map, const char *alpha_key, bool inc_allowed, topo_tier *tier);
/* Read an INC capability list ([reduce, multicast, a2a]) from NODE. */
bool read_inc_list(platform_reader *r, ynode *node, unsigned *mask);
/* Required whole number KEY of MAP, from MIN to MAX. */
bool read_count(platform_reader *r, ynode *map, const char *key, long min, long max, int *out);
/* Before anything is built: the platform's RANKS, SWITCHES and LINKS (as the
 * builder will make them, computed in double so that no product wraps)
 * within TOPO_MAX_*; false with a message naming the limit. */
bool platform_size_allowed(platform_reader *r, double ranks, double switches, double links);
/* Position errors at KEY of MAP (or at MAP when absent). */
bool platform_error_at(platform_reader *r, ynode *map, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The split of one switched hop's alpha (explainer 02 §2: rank -> switch ->
 * rank) into access-link latency, crossbar transit and INC port latency.
 * Without INC the two access links carry alpha/2 each; with INC the access
 * link carries at most alpha_switch so that a rank<->switch leg takes exactly
 * alpha_switch, and the rest of alpha sits in the switch crossbar. */
typedef struct switch_split {
    double access_s, xbar_s, port_s;
} switch_split;
switch_split split_switched_hop(double alpha_s, double alpha_switch_s, bool inc);

/* Latency of the links that climb to TIER from LOWER: a route up to TIER and
 * back down takes TIER's alpha, of which the lower tiers already spend
 * SPENT_S.  With INC on TIER, the link carries at most alpha_switch and the
 * rest moves to TIER's crossbar.  Fails when TIER's alpha is below SPENT_S. */
bool split_uplink(platform_reader *r, const topo_tier *lower, const topo_tier *tier, double spent_s,
                  double *link_s, switch_split *split);

/* Attach a latency-only crossbar / port link to switch S when non-zero. */
void switch_attach_delays(topology *t, int s, const switch_split *split);

#endif
