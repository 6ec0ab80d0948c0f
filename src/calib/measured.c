/* measured.c — the measured column of `run` and `predict` (measured.h): a
 * row takes the time of the first log point with its collective, its
 * number of ranks and its size (to 1e-9, sizes being whole bytes). */
#include "calib/measured.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

static void print_note(void *context, const char *file, int line, const char *why)
{
    const bool *quiet = context;
    if (!*quiet) fprintf(stderr, "%s:%d: note: line not read: %s\n", file, line, why);
}

static bool same_size(double a, double b)
{
    return fabs(a - b) <= 1e-9 * b;
}

/* The measured time of ROW, from the first log that has it (0: none);
 * USED[i] is set for the log that gave it. */
static double measured_time(const calib_log *logs, int count, const result_row *row, bool *used)
{
    for (int i = 0; i < count; i++) {
        if (logs[i].prim != row->prim || logs[i].ranks != row->ranks) continue;
        for (int p = 0; p < logs[i].point_count; p++)
            if (same_size(logs[i].points[p].size_bytes, row->size_bytes)) {
                used[i] = true;
                return logs[i].points[p].time_s;
            }
    }
    return 0;
}

static void print_size(double bytes, bool first)
{
    char text[32];
    units_format(bytes, UNIT_SIZE, text, sizeof text);
    fprintf(stderr, "%s%s", first ? "" : ", ", text);
}

static bool same_series(const result_row *a, const result_row *b)
{
    return a->case_index == b->case_index && strcmp(a->algorithm, b->algorithm) == 0;
}

/* LOG matched no row of R: what it measured beside what the run has, one
 * entry per (case, algorithm) with its sizes. */
static void note_unmatched(const calib_log *log, const report *r)
{
    fprintf(stderr, "%s: note: no result of this run matches the log: it measured %s on %d ranks at ", log->path,
            primitive_name(log->prim), log->ranks);
    for (int p = 0; p < log->point_count; p++) print_size(log->points[p].size_bytes, p == 0);
    fprintf(stderr, "; the run has");
    for (int k = 0, entries = 0; k < r->row_count; k++) {
        const result_row *row = &r->rows[k];
        bool seen = false;
        for (int j = 0; j < k && !seen; j++) seen = same_series(&r->rows[j], row);
        if (seen) continue;
        fprintf(stderr, "%s case %d %s %s on %d ranks at ", entries++ ? ";" : "", row->case_index,
                primitive_name(row->prim), row->algorithm, row->ranks);
        for (int j = k; j < r->row_count; j++)
            if (same_series(&r->rows[j], row)) print_size(r->rows[j].size_bytes, j == k);
    }
    fprintf(stderr, " (a result takes a log's time when its collective, ranks and size all match)\n");
}

bool calib_attach_measured(report *r, const char *const *paths, int count, bool quiet, diag *d)
{
    calib_log *logs = calloc((size_t)count, sizeof *logs);
    if (!logs) return diag_fail(d, "out of memory");
    bool ok = true;
    for (int i = 0; i < count && ok; i++) ok = calib_log_read(paths[i], &logs[i], print_note, &quiet, d);
    bool *used = calloc((size_t)count + 1, sizeof *used);
    for (int k = 0; k < r->row_count && ok; k++) r->rows[k].measured_s = measured_time(logs, count, &r->rows[k], used);
    for (int i = 0; i < count && ok && !quiet && r->row_count > 0; i++)
        if (!used[i]) note_unmatched(&logs[i], r);
    free(used);
    r->measured = ok;
    free(logs);
    return ok;
}
