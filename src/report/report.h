/* report.h — results as a table (nccl-tests style), CSV or JSON (SPEC §8),
 * written whole or not at all (temporary file, then rename). */
#ifndef COLLSIM_REPORT_H
#define COLLSIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sched/schedule.h"
#include "util/diag.h"

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } report_format;

typedef struct result_row {
    int case_index;
    primitive prim;
    char algorithm[32];
    int group;
    int ranks;
    double size_bytes;
    double time_s;
    double algbw_Bps, busbw_Bps;
    int segments;      /* pipelining segments P of the schedule that ran */
} result_row;

typedef struct report {
    const char *scenario, *platform_name, *platform_kind, *model;
    int platform_ranks;
    result_row *rows;
    int row_count, row_capacity;
} report;

void report_add(report *r, const result_row *row);
void report_free(report *r);
void report_print(const report *r, report_format format, FILE *out);
/* Write to PATH atomically, or to stdout when PATH is NULL. */
bool report_write(const report *r, report_format format, const char *path, diag *d);

#endif
