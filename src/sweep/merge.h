/* merge.h — a sweep's points back into one report (docs/sweeps.md): per
 * axis point, the report `collsim run` writes for its scenario (rows in the
 * scenario's order, η fitted per case and algorithm, the crossovers of each
 * case), rebuilt from the points' JSON (report/read_back.c); then all of
 * them as one table, CSV, JSON or plot.  `collsim merge` reads the points
 * from output folders, `collsim sweep` without --shard from memory: the
 * same code, so the same bytes. */
#ifndef COLLSIM_MERGE_H
#define COLLSIM_MERGE_H

#include <stdbool.h>

#include "report/report.h"

/* The text of point ID (allocated), or NULL with WHY: "missing", or why it
 * failed or is not complete. */
typedef char *(*merge_lookup)(void *context, const char *id, char *why, int why_size);

typedef struct merge_output {
    report_format format;
    const char *output;  /* -o FILE ("-" or NULL: standard output) */
    const char *plot;    /* --plot FILE, or NULL */
} merge_output;

/* The sweep of MANIFEST (its text, named WHERE in messages) from the points
 * LOOKUP gives, written as O says.  Exit status: 0; 1 with every missing or
 * failed point named on standard error (nothing written); 2 when MANIFEST
 * or a point is not collsim's, or an output cannot be written. */
int merge_sweep(const char *manifest, const char *where, merge_lookup lookup, void *context, const merge_output *o);

#endif
