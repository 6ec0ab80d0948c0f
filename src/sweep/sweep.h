/* sweep.h — a sweep (docs/sweeps.md): a base scenario and the axes to vary
 * over it, as a grid or a list of axis points; each axis point a scenario
 * derived from the base by setting its axis values in the scenario's YAML
 * (the platform file's for platform keys) before it is read, so that every
 * value goes through the checks of a hand-written scenario; each derived
 * scenario's simulations the sweep's points, with ids that depend on what
 * they simulate, never on where they sit in the file.
 *
 * Invariants:
 *   1. Loading a sweep reads and checks every axis point's scenario (and
 *      plan_check's limits) before anything runs: a value the scenario
 *      refuses is reported at its FILE:LINE:COL in the sweep file.
 *   2. A point's id is a hash of its canonical text (its axis values, sorted
 *      by key, and its case, algorithm and size): the same on every machine
 *      and run; no two points of a sweep share one. */
#ifndef COLLSIM_SWEEP_H
#define COLLSIM_SWEEP_H

#include <stdbool.h>

#include "scenario/scenario.h"
#include "util/diag.h"
#include "yaml/yaml_tree.h"

#define SWEEP_MAX_AXES 16
#define SWEEP_MAX_AXIS_POINTS 100000 /* derived scenarios: each is read and kept */
#define SWEEP_MAX_POINTS 1000000     /* simulations */
#define SWEEP_ID_SIZE 17             /* 16 hex digits and a NUL */

typedef struct sweep_axis {
    char key[128];     /* a path into the scenario: network, platform.efficiency, cases.algorithms, cases[1].sizes */
} sweep_axis;

/* One combination of axis values: one derived scenario. */
typedef struct sweep_axis_point {
    int value[SWEEP_MAX_AXES];    /* node ids of the sweep file's values; 0: the axis keeps the base's */
    int key_node[SWEEP_MAX_AXES]; /* where each axis is named (for messages) */
    int node;                     /* the point's own mapping (`points:`), or 0 (`grid:`) */
    char *values[SWEEP_MAX_AXES]; /* each value's canonical text (NULL when not set) */
    char *label;                  /* "key = value, ..." in the sweep's axis order */
    scenario scenario;            /* derived and checked */
    char eta_profile[16];         /* the report's eta_profile for it */
    char model[64];               /* the network model label its rows carry */
    int first_point, point_count; /* its simulations in the sweep's list */
} sweep_axis_point;

/* One simulation: the A-th algorithms of the concurrent block opened by
 * case FIRST of an axis point's scenario, at their M-th sizes. */
typedef struct sweep_point {
    int axis_point, first, a, m;
    char id[SWEEP_ID_SIZE];
    double items;      /* schedule operations, estimated before building (plan_simulation_items) */
} sweep_point;

typedef struct sweep {
    char path[512];    /* the sweep file */
    char name[128];
    char base[512];    /* the base scenario as the sweep file names it */
    char base_path[1024]; /* and as a path from here */
    yaml_tree tree;    /* the sweep file, kept: the values are its nodes */
    int axis_count;
    sweep_axis axes[SWEEP_MAX_AXES];
    int axis_point_count;
    sweep_axis_point *axis_points;
    int point_count;
    sweep_point *points;
} sweep;

/* Read the sweep at PATH, derive and check every axis point's scenario and
 * list its points; false with D set (a position in the sweep file where the
 * mistake is one of its own values). */
bool sweep_load(const char *path, sweep *w, diag *d);
void sweep_free(sweep *w);

/* The scenario of axis point VALUES (node ids per axis, 0: the base's): the
 * base read with those values set; false with D set where the scenario
 * refuses it (at its own position: a value's in the sweep file, else the
 * base's or its platform's). */
bool sweep_derive(sweep *w, const int *values, const int *key_nodes, scenario *s, diag *d);

/* The shard (0 to SHARDS − 1) of each point into SHARD: the points dealt
 * out largest estimate first to the least loaded shard (ties: the lower
 * point, the lower shard), so that shards cost about the same. */
void sweep_shards(const sweep *w, int shards, int *shard);

/* The estimated CPU seconds of ITEMS schedule operations (docs/sweeps.md). */
double sweep_seconds(double items);

#endif
