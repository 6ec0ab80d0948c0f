/* log_reader.h — nccl-tests / rccl-tests result logs (all_reduce_perf,
 * all_gather_perf, reduce_scatter_perf, alltoall_perf, broadcast_perf,
 * reduce_perf, sendrecv_perf) read into measured points: the collective and
 * the number of ranks recognised from the log itself, one point per result
 * row (size in bytes, time per collective), every line that is not read
 * named with its line number and why. */
#ifndef COLLSIM_CALIB_LOG_READER_H
#define COLLSIM_CALIB_LOG_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "sched/schedule.h"
#include "util/diag.h"

#define CALIB_MAX_POINTS 256
#define CALIB_MAX_LOG_BYTES (64L << 20) /* 64 MiB: a log of 256 rows with 1024 ranks' lines is under 1 MB */
#define CALIB_MIN_TIME_S 1e-12          /* 1 ps: nccl-tests prints times in us with two decimals */

typedef struct calib_point {
    double size_bytes;
    double time_s;    /* per collective: the mean of the out-of-place and in-place times the row gives */
    double busbw_Bps; /* as the log printed it (0 when N/A) */
    int line;
} calib_point;

typedef struct calib_log {
    char path[512];
    primitive prim;
    char prim_from[160];  /* how the collective was recognised */
    int ranks;
    char ranks_from[160]; /* how the number of ranks was recognised */
    int point_count;
    calib_point points[CALIB_MAX_POINTS]; /* in the log's order */
    int lines_skipped;    /* lines neither header nor result (each passed to the note callback) */
    char algorithm[8];    /* the algorithm family the log names (NCCL_ALGO: ring, tree, nvls), "" when none */
    char algorithm_from[160]; /* where it was named */
} calib_log;

/* Told about each line that is not read: FILE:LINE and why. */
typedef void (*calib_note_fn)(void *context, const char *file, int line, const char *why);

/* Read the log at PATH (a regular file of at most CALIB_MAX_LOG_BYTES).
 * False with D set (FILE:LINE:COL and the fix) when a result row is
 * malformed, a count (size, rank, nThread x nGpus) or a time is out of its
 * range (docs/reliability.md), a second test starts after the first one's
 * rows (one collective per log), the log has no result row, or its
 * collective or rank count cannot be told.  NOTE may be NULL. */
bool calib_log_read(const char *path, calib_log *log, calib_note_fn note, void *context, diag *d);

/* The same on TEXT (LENGTH bytes, need not be NUL-terminated), named NAME. */
bool calib_log_parse(const char *name, const char *text, size_t length, calib_log *log, calib_note_fn note,
                     void *context, diag *d);

#endif
