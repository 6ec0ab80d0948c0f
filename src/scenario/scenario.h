/* scenario.h — a scenario file (SPEC §7): one platform (a file or inline) and
 * cases, each a primitive, its algorithms, sizes, and the groups running it. */
#ifndef COLLSIM_SCENARIO_H
#define COLLSIM_SCENARIO_H

#include <stdbool.h>

#include "algo/algorithm.h"
#include "platform/topology.h"
#include "sched/schedule.h"
#include "util/diag.h"

#define SCENARIO_MAX_ALGORITHMS 16
#define SCENARIO_MAX_SIZES 64

typedef struct scenario_case {
    primitive prim;
    int algorithm_count;
    char algorithms[SCENARIO_MAX_ALGORITHMS][32];
    int size_count;
    double sizes[SCENARIO_MAX_SIZES];
    int segments;      /* 0: the algorithm's default; SEGMENTS_AUTO: P* of 01 App. C.3 per size */
    char inner[32], outer[32]; /* hierarchical tiers' algorithms ("" = ring) */
    int root;
    int peer;          /* sendrecv destination (default 1) */
    int line;          /* where the case starts, for messages */
} scenario_case;

typedef struct scenario {
    char name[128];
    char path[512];
    topology platform;
    int case_count;
    scenario_case *cases;
} scenario;

bool scenario_load(const char *path, scenario *s, diag *d);
void scenario_free(scenario *s);

#endif
