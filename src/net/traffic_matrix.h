/* traffic_matrix.h — traffic as data: point-to-point flows read from text,
 * for either network model (flow.h).  Two formats, told apart by the first
 * line that is not blank or a comment (#):
 *   rows     `SRC DST SIZE [START]` a line: rank numbers, a size (4096,
 *            4MB, 1MiB) and a time (0, 2us; 0 when absent);
 *   htsim    its connection matrix: `Nodes N`, `Connections C`, then C
 *            lines `SRC->DST [id I] [start PICOSECONDS] size BYTES [prio P]`
 *            (csg-htsim's connection_matrix.cpp; triggers and failures are
 *            refused: nothing here runs a flow on another's completion).
 * A bad line is refused at FILE:LINE:COL. */
#ifndef COLLSIM_TRAFFIC_MATRIX_H
#define COLLSIM_TRAFFIC_MATRIX_H

#include <stdbool.h>

#include "net/flow.h"
#include "util/diag.h"

/* Parse TEXT (named NAME in messages) into *FLOWS (malloc'd, *COUNT of
 * them), every endpoint below RANKS; false with a positioned message. */
bool traffic_matrix_parse(const char *name, const char *text, int ranks, flow **flows, int *count, diag *d);
/* The same from the file PATH. */
bool traffic_matrix_read(const char *path, int ranks, flow **flows, int *count, diag *d);

#endif
