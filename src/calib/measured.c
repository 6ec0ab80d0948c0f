/* measured.c — the measured column of `run` and `predict` (measured.h): a
 * row takes the time of the first log point with its collective, its
 * number of ranks and its size (to 1e-9, sizes being whole bytes). */
#include "calib/measured.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void print_note(void *context, const char *file, int line, const char *why)
{
    const bool *quiet = context;
    if (!*quiet) fprintf(stderr, "%s:%d: note: line not read: %s\n", file, line, why);
}

static double measured_time(const calib_log *logs, int count, const result_row *row)
{
    for (int i = 0; i < count; i++) {
        if (logs[i].prim != row->prim || logs[i].ranks != row->ranks) continue;
        for (int p = 0; p < logs[i].point_count; p++)
            if (fabs(logs[i].points[p].size_bytes - row->size_bytes) <= 1e-9 * row->size_bytes)
                return logs[i].points[p].time_s;
    }
    return 0;
}

bool calib_attach_measured(report *r, const char *const *paths, int count, bool quiet, diag *d)
{
    calib_log *logs = calloc((size_t)count, sizeof *logs);
    if (!logs) return diag_fail(d, "out of memory");
    bool ok = true;
    for (int i = 0; i < count && ok; i++) ok = calib_log_read(paths[i], &logs[i], print_note, &quiet, d);
    for (int k = 0; k < r->row_count && ok; k++) r->rows[k].measured_s = measured_time(logs, count, &r->rows[k]);
    r->measured = ok;
    free(logs);
    return ok;
}
