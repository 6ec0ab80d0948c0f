/* scenario.h — a scenario file (docs/scenarios.md): one platform (a file or inline) and
 * cases, each a primitive, its algorithms, sizes, and the groups running it. */
#ifndef COLLSIM_SCENARIO_H
#define COLLSIM_SCENARIO_H

#include <stdbool.h>

#include "algo/algorithm.h"
#include "model/model.h"
#include "net/background.h"
#include "net/sim_options.h"
#include "platform/topology.h"
#include "scenario/groups.h"
#include "scenario/skew.h"
#include "scenario/traffic_spec.h"
#include "sched/schedule.h"
#include "util/diag.h"

#define SCENARIO_MAX_ALGORITHMS 16
#define SCENARIO_MAX_SIZES 64   /* sweep points of a case */
#define SCENARIO_MAX_CASES 1024 /* cases of a scenario (a case is ~1.6 KB here) */
#define CHANNELS_AUTO (-1)
#define ALGORITHM_AUTO "auto" /* `algorithms: [auto]`: the tuner picks per size (model/tuner.h) */

typedef struct scenario_case {
    primitive prim;
    int algorithm_count;
    char algorithms[SCENARIO_MAX_ALGORITHMS][32];
    const algorithm *records[SCENARIO_MAX_ALGORITHMS]; /* each one's registry record; NULL: `auto`, the tuner's */
    struct msccl_program *programs[SCENARIO_MAX_ALGORITHMS]; /* `msccl:FILE`: its program, whose record it runs (owned) */
    int size_count;
    double sizes[SCENARIO_MAX_SIZES];
    double sweep_to_bytes;   /* a sweep's `to` when its last size falls short of it (0: it does not) */
    int sizes_line, sizes_column; /* where that sweep is */
    int segments;      /* 0: the algorithm's default; SEGMENTS_AUTO: P* of 01 App. C.3 per size */
    char inner[32], outer[32]; /* hierarchical tiers' algorithms ("" = ring) */
    int root;
    int peer;          /* sendrecv destination (default 1) */
    unsigned long long seed; /* permutation: its derangement's seed (`seed:`, default 1) */
    int platform;      /* 0: the scenario's platform; k > 0: its case_platforms[k-1] (`platform:` of the case) */
    double c_real;     /* `c_real:` DBT's BW coefficient (01 §5.3); 0: 00 §4's 2 */
    protocol_id protocol; /* `protocol: simple | ll128 | ll | auto` (PROTOCOL_NONE: the seed's model) */
    int channels;      /* `channels: K | auto` (0: one; CHANNELS_AUTO: the platform's rails the group crosses) */
    model_form form;   /* `form: exact | asymptotic`: how pipelined schedules are predicted */
    eta_profile eta;   /* `eta:` of the case, else of the scenario (ideal by default) */
    group_set groups;  /* `groups:` (all by default): they run at the same time */
    int groups_line, groups_column; /* where `groups:` is (the case's start when absent), for messages */
    a2a_skew skew;     /* `skew:` of an all-to-all (uniform by default) */
    background background; /* `background:` traffic while the case runs (no sources: none) */
    char background_text[112]; /* what it is, for the report ("" when none) */
    int virtual_lane;  /* `virtual_lane:` the links' lane its messages take (packet model; 0 by default) */
    int virtual_lane_line, virtual_lane_column; /* where it is, for messages (line 0: absent) */
    traffic_case traffic; /* `traffic:` (kind TRAFFIC_NONE: a collective): prim is PRIM_TRAFFIC, no algorithms, no sizes */
    int together_first, together_count; /* the cases simulated with this one (`concurrent:`), itself included:
                                          their k-th algorithms at their m-th sizes run together */
    int line;          /* where the case starts, for messages */
} scenario_case;

typedef struct scenario {
    char name[128];
    char path[512];
    topology platform;
    bool platform_loaded;
    topology *case_platforms; /* platforms named by cases (`platform:` in a case), compared side by side */
    int case_platform_count;
    long links_total;  /* links, switches and ranks of all its platforms (bounded) */
    eta_profile eta;   /* the scenario-level `eta:` */
    network_model network; /* `network: cm02 | lv08 | packet` (NETWORK_DEFAULT when absent) */
    link_naming link_naming; /* whether its platforms' links keep their names (platform.h) */
    int case_count;
    scenario_case *cases;
} scenario;

bool scenario_load(const char *path, scenario *s, diag *d);
/* The same, its platforms' links named or not (platform.h). */
bool scenario_load_as(const char *path, link_naming naming, scenario *s, diag *d);
/* The network model a run uses: REQUESTED (--model) if given, else the
 * scenario's `network:`, else CM02. */
network_model scenario_network(const scenario *s, network_model requested);
/* The background traffic case C's simulation runs with: its concurrent
 * block's (at most one case of a block has one), or NULL. */
const scenario_case *scenario_background_case(const scenario *s, const scenario_case *c);
/* The same from TEXT; NAME is used in messages and platform paths are
 * relative to its folder (tests, fuzzing). */
bool scenario_load_string(const char *name, const char *text, scenario *s, diag *d);
/* The same from TREE, a scenario document loaded (and perhaps edited: a
 * sweep's axis values) from PATH; TREE is freed either way. */
struct yaml_tree;
bool scenario_load_tree(struct yaml_tree *tree, const char *path, scenario *s, diag *d);
/* The platform case C runs on. */
const topology *scenario_platform(const scenario *s, const scenario_case *c);
/* The analytic model's view of case C running algorithm A under PROTOCOL on
 * CHANNELS channels at SIZE_BYTES, with the P the schedule runs (SEGMENTS; 0
 * for the algorithm's default). */
model_case scenario_model_case(const scenario *s, int c, const algorithm *a, protocol_id protocol, int channels,
                               double size_bytes, int segments);
void scenario_free(scenario *s);

#endif
