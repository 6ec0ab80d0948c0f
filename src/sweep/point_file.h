/* point_file.h — a sweep's results on disk (docs/sweeps.md): one JSON file
 * per point, ID.json in the output folder, self-describing (the sweep, the
 * axis values, what it simulated, collsim's version, its rows as `collsim
 * run --format json` writes them) and ending in a checksum of everything
 * before it; ID.failed for a point whose simulation failed; and sweep.json,
 * the manifest: every axis point and its point ids, which `collsim merge`
 * reads to know what a complete sweep holds.  Every file is written whole
 * or not at all (util/output_file.h). */
#ifndef COLLSIM_POINT_FILE_H
#define COLLSIM_POINT_FILE_H

#include <stdbool.h>

#include "plan/plan.h"
#include "report/results.h"
#include "sweep/sweep.h"
#include "util/diag.h"

#define SWEEP_MANIFEST "sweep.json"

/* Point P of W's JSON text with its ROWS (and MEMBERS' predictions), COUNT
 * of them, allocated. */
char *point_text(const sweep *w, int p, const plan_member *members, const result_row *rows, int count);
/* W's manifest, allocated. */
char *manifest_text(const sweep *w);

/* Whether TEXT (a point file or a manifest) ends in its checksum and the
 * checksum holds. */
bool text_sealed(const char *text);
/* Whether TEXT is a complete point file of point ID: its checksum holds and
 * it names ID and this collsim's version.  False with WHY. */
bool point_text_complete(const char *text, const char *id, char *why, int why_size);
/* Whether DIR/ID.json is a complete result of point P of W (its axis values
 * and simulation W's too). */
bool point_file_complete(const char *dir, const sweep *w, int p);

/* TEXT into DIR/NAME, whole or not at all; false with D set. */
bool point_file_write(const char *dir, const char *name, const char *text, diag *d);
/* DIR/NAME's whole text (NULL when it cannot be read). */
char *point_file_read(const char *dir, const char *name);

#endif
