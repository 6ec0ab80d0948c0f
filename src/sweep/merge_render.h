/* merge_render.h — a merged sweep (merge.c) as a table, CSV, JSON or plot
 * (docs/sweeps.md, "Merged output"): each axis point's report as `collsim
 * run` writes it, under its axis values. */
#ifndef COLLSIM_MERGE_RENDER_H
#define COLLSIM_MERGE_RENDER_H

#include <json-c/json.h>

#include "report/report.h"
#include "sweep/merge.h"

#define MERGED_MAX_AXES 16

typedef struct merged_axis_point {
    json_object *object;  /* the manifest's entry */
    json_object *axes;    /* its axis values */
    char *label;          /* "key = value, ..." */
    json_object **points; /* each point parsed, in run order */
    int point_count;
    report report;        /* as `collsim run` of its scenario makes it */
} merged_axis_point;

typedef struct merged {
    json_object *manifest;
    const char *name, *base;
    int axis_count;
    const char *axes[MERGED_MAX_AXES];
    int axis_point_count;
    merged_axis_point *axis_points;
} merged;

/* M written as O says; exit status 0, or 2 (D printed) when it cannot be. */
int merge_render(const merged *m, const merge_output *o);

#endif
