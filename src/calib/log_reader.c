/* log_reader.c — the nccl-tests / rccl-tests output format (NVIDIA
 * nccl-tests src/common.cu and src/util.cu; rccl-tests prints the same):
 *
 *   # Collective test starting: all_reduce_perf        (nccl-tests >= 2.13)
 *   # nThread 1 nGpus 8 minBytes 8 maxBytes ... 
 *   #  Rank  0 Group  0 Pid 1234 on host device  0 [0x18] NVIDIA H100 ...
 *   #       size   count  type  redop  root    time  algbw  busbw #wrong    time  algbw  busbw #wrong
 *   #        (B) (elements)                    (us) (GB/s) (GB/s)           (us) (GB/s) (GB/s)
 *              8       2  float    sum    -1   31.2   0.00   0.00      0   30.9   0.00   0.00      0
 *   # Avg bus bandwidth    : 123.4
 *
 * Result rows are read by the column header (older versions have no root
 * column and call #wrong "error"; -I adds per-iteration columns; -T a
 * timestamp); the time unit is
 * the header's "(us)" or "(ms)" (the first versions printed ms), µs when the
 * header is missing.  "#wrong" is a number or N/A (no check); a row with
 * wrong results is left out.  The collective is recognised from, in order:
 * the "Collective test starting" line, a "<name>_perf" word anywhere in the
 * log (an echoed command line), the file name, then the columns (busbw /
 * algbw = C(N) of 01 App. D, redop and root).  The ranks: the "#  Rank"
 * lines (every rank's, gathered to the printing rank), else busbw / algbw,
 * else nThread × nGpus of a single process. */
#include "calib/log_reader.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/topology.h"
#include "util/input_file.h"
#include "util/units.h"

#define MAX_LINE 4096
#define MAX_COLUMNS 48

static const struct {
    const char *binary;
    primitive prim;
} binaries[] = {
    {"all_reduce", PRIM_ALLREDUCE},       {"all_gather", PRIM_ALLGATHER}, {"reduce_scatter", PRIM_REDUCESCATTER},
    {"alltoall", PRIM_ALLTOALL},          {"broadcast", PRIM_BCAST},      {"reduce", PRIM_REDUCE},
    {"sendrecv", PRIM_SENDRECV},
};
#define BINARY_COUNT ((int)(sizeof binaries / sizeof *binaries))

/* Where each field of a result row sits (token index, -1 when absent). */
typedef struct layout {
    int redop, root;      /* the size is always the first column */
    int time[2], algbw[2], busbw[2], wrong[2];
    int columns;
    bool from_header;
} layout;

typedef struct reader {
    const char *name;
    calib_log *log;
    calib_note_fn note;
    void *context;
    diag *d;
    layout columns;
    double time_unit_s;
    bool unit_seen;
    int max_rank;          /* highest "#  Rank R" seen, -1 none */
    int threads, gpus;     /* the "# nThread T nGpus G" line, 0 when absent */
    int prim_found;        /* 0 none, 1 from the test line, 2 from a _perf word */
    char redop[16];
    int root;
    double bus_over_alg;   /* busbw / algbw of the row of largest algbw, 0 none */
    double largest_algbw;
    char row[MAX_LINE];    /* a copy of the row being read, which its tokens point into */
} reader;

static const layout default_layout = {.redop = 3, .root = 4, .time = {5, 9}, .algbw = {6, 10},
                                      .busbw = {7, 11}, .wrong = {8, 12}, .columns = 13, .from_header = false};

static void note(reader *r, int line, const char *why)
{
    r->log->lines_skipped++;
    if (r->note) r->note(r->context, r->name, line, why);
}

static int split(char *line, char **tokens, int max)
{
    int n = 0;
    for (char *p = line; *p;) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        if (n == max) return n + 1;
        tokens[n++] = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (*p) *p++ = '\0';
    }
    return n;
}

/* The collective named by a word such as "./build/all_reduce_perf" or
 * "all_reduce_perf_mpi"; false when none. */
static bool binary_in(const char *text, primitive *prim, char *which, int which_size)
{
    /* the longest name first: "reduce" is inside "all_reduce" and "reduce_scatter" */
    int best = -1;
    size_t best_length = 0;
    for (int i = 0; i < BINARY_COUNT; i++) {
        char word[40];
        snprintf(word, sizeof word, "%s_perf", binaries[i].binary);
        for (const char *at = strstr(text, word); at; at = strstr(at + 1, word)) {
            bool starts = at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
            if (starts && strlen(word) > best_length) best = i, best_length = strlen(word);
        }
    }
    if (best < 0) return false;
    *prim = binaries[best].prim;
    snprintf(which, (size_t)which_size, "%s_perf", binaries[best].binary);
    return true;
}

static bool parse_number(const char *token, double *value)
{
    char *end;
    errno = 0;
    double v = strtod(token, &end);
    if (end == token || *end || errno || !isfinite(v)) return false;
    *value = v;
    return true;
}

static bool parse_integer(const char *token, long long *value)
{
    char *end;
    errno = 0;
    long long v = strtoll(token, &end, 10);
    if (end == token || *end || errno) return false;
    *value = v;
    return true;
}

static int find_column(char **tokens, int count, const char *name, int occurrence)
{
    for (int i = 0; i < count; i++)
        if (strcmp(tokens[i], name) == 0 && occurrence-- == 0) return i;
    return -1;
}

/* A second test (a 'Collective test starting' line or a column header) after
 * the first one's: one log holds one collective's rows. */
static bool second_test(reader *r, int number)
{
    return diag_at(r->d, r->name, number, 1,
                   "a second test starts here, after %d result rows of the first: collsim reads one collective per "
                   "log; split the file at this line (one nccl-tests run per file) and give both files",
                   r->log->point_count);
}

/* "# size count type redop root time algbw busbw #wrong time ..." (tokens after '#'). */
static void read_column_header(reader *r, char **tokens, int count)
{
    layout c = {.redop = find_column(tokens, count, "redop", 0),
                .root = find_column(tokens, count, "root", 0), .columns = 0, .from_header = true};
    const char *time_name = find_column(tokens, count, "time", 0) >= 0 ? "time" : "cputime";
    for (int k = 0; k < 2; k++) {
        c.time[k] = find_column(tokens, count, time_name, k);
        c.algbw[k] = find_column(tokens, count, "algbw", k);
        c.busbw[k] = find_column(tokens, count, "busbw", k);
        c.wrong[k] = find_column(tokens, count, "#wrong", k);
        if (c.wrong[k] < 0) c.wrong[k] = find_column(tokens, count, "error", k); /* before nccl-tests 2.0 */
    }
    int last = 0;
    for (int i = 0; i < count; i++)
        if (strcmp(tokens[i], "timestamp") != 0) last = i;
    c.columns = last + 1;
    r->columns = c;
}

/* NCCL_ALGO on LINE (`NCCL INFO NCCL_ALGO set by environment to Ring`, an echoed `NCCL_ALGO=Ring`, a
 * header `# NCCL_ALGO Ring`): the family it names, when one (a list leaves the choice to NCCL). */
static void read_algorithm(reader *r, const char *line, int number)
{
    static const char *const families[][2] = {{"ring", "ring"}, {"tree", "tree"}, {"nvls", "nvls"}, {"nvlstree", "nvls"}};
    const char *at = strstr(line, "NCCL_ALGO");
    if (!at) return;
    at += strlen("NCCL_ALGO");
    const char *to = strstr(at, " to ");
    at = to ? to + 4 : at;
    while (*at == ' ' || *at == '=' || *at == ':' || *at == '\t') at++;
    char word[16];
    size_t n = 0;
    while (n + 1 < sizeof word && isalnum((unsigned char)at[n])) word[n] = (char)tolower((unsigned char)at[n]), n++;
    word[n] = '\0';
    if (at[n] == ',' || at[n] == ';') return; /* several allowed: NCCL's own choice among them */
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        if (strcmp(word, families[f][0]) == 0) {
            snprintf(r->log->algorithm, sizeof r->log->algorithm, "%s", families[f][1]);
            snprintf(r->log->algorithm_from, sizeof r->log->algorithm_from, "line %d: NCCL_ALGO %s", number, word);
        }
}

/* A line starting with '#'; false (D set) when a count in it is out of range
 * or it starts a second test. */
static bool read_comment(reader *r, const char *line, int number)
{
    char copy[MAX_LINE];
    snprintf(copy, sizeof copy, "%s", line + 1);
    char *tokens[MAX_COLUMNS];
    int count = split(copy, tokens, MAX_COLUMNS);
    if (count > MAX_COLUMNS) count = MAX_COLUMNS;
    const char *starting = strstr(line, "Collective test starting:");
    if (starting && (r->prim_found == 1 || r->log->point_count > 0))
        return second_test(r, number);
    if (starting) {
        if (binary_in(starting, &r->log->prim, r->log->prim_from, sizeof r->log->prim_from)) {
            char which[64];
            snprintf(which, sizeof which, "%s", r->log->prim_from);
            snprintf(r->log->prim_from, sizeof r->log->prim_from, "line %d: 'Collective test starting: %s'", number,
                     which);
            r->prim_found = 1;
        }
        return true;
    }
    if (count >= 4 && strcmp(tokens[0], "nThread") == 0 && strcmp(tokens[2], "nGpus") == 0) {
        long long threads, gpus;
        if (!parse_integer(tokens[1], &threads) || !parse_integer(tokens[3], &gpus) || threads < 1 || gpus < 1 ||
            threads > TOPO_MAX_RANKS || gpus > TOPO_MAX_RANKS || threads * gpus > TOPO_MAX_RANKS)
            return diag_at(r->d, r->name, number, 1,
                           "'nThread %s nGpus %s': each a whole number from 1, their product at most %d ranks, the "
                           "most collsim simulates (keep the line nccl-tests printed)", tokens[1], tokens[3],
                           TOPO_MAX_RANKS);
        r->threads = (int)threads;
        r->gpus = (int)gpus;
        return true;
    }
    long long rank;
    if (count >= 2 && strcmp(tokens[0], "Rank") == 0 && parse_integer(tokens[1], &rank)) {
        if (rank < 0 || rank >= TOPO_MAX_RANKS)
            return diag_at(r->d, r->name, number, 1,
                           "'Rank %s': a rank from 0 to %d, the most collsim simulates (keep the lines nccl-tests "
                           "printed)", tokens[1], TOPO_MAX_RANKS - 1);
        if (rank > r->max_rank) r->max_rank = (int)rank;
        return true;
    }
    if (find_column(tokens, count, "size", 0) == 0 && find_column(tokens, count, "algbw", 0) > 0) {
        if (r->log->point_count > 0) return second_test(r, number);
        read_column_header(r, tokens, count);
        return true;
    }
    if (count >= 1 && strcmp(tokens[0], "(B)") == 0) {
        if (strstr(line, "(ms)")) r->time_unit_s = 1e-3, r->unit_seen = true;
        else if (strstr(line, "(us)")) r->time_unit_s = 1e-6, r->unit_seen = true;
    }
    return true;
}

/* 1-based column of AT in the row being read (its tokens point into a copy of the line). */
static int column_of(const reader *r, const char *at)
{
    return (int)(at - r->row) + 1;
}

/* One of the two times of a row: false (D set) when malformed; *TIME 0 when the row has no such column. */
static bool row_time(reader *r, char **tokens, int count, int k, int number, double *time_s, bool *wrong)
{
    *time_s = 0;
    *wrong = false;
    int at = r->columns.time[k];
    if (at < 0 || at >= count) return true;
    double t;
    if (!parse_number(tokens[at], &t) || t <= 0)
        return diag_at(r->d, r->name, number, column_of(r, tokens[at]),
                       "the %s time '%s' is not a positive number of %s (a result row is: size count type redop "
                       "root time algbw busbw #wrong time algbw busbw #wrong)",
                       k == 0 ? "out-of-place" : "in-place", tokens[at], r->time_unit_s == 1e-3 ? "ms" : "us");
    int w = r->columns.wrong[k];
    double wrong_count;
    if (w >= 0 && w < count && strcmp(tokens[w], "N/A") != 0) {
        if (!parse_number(tokens[w], &wrong_count) || wrong_count < 0)
            return diag_at(r->d, r->name, number, column_of(r, tokens[w]),
                           "'#wrong' is '%s': a count of wrong elements or N/A", tokens[w]);
        *wrong = wrong_count > 0;
    }
    *time_s = t * r->time_unit_s;
    if (*time_s < CALIB_MIN_TIME_S || *time_s > UNITS_MAX_TIME_S)
        return diag_at(r->d, r->name, number, column_of(r, tokens[at]),
                       "the %s time '%s' %s is outside 1 ps .. 1000 s, the times collsim fits (is the unit line "
                       "'(us)' or '(ms)' right?)", k == 0 ? "out-of-place" : "in-place", tokens[at],
                       r->time_unit_s == 1e-3 ? "ms" : "us");
    return true;
}

static void remember_ratio(reader *r, char **tokens, int count)
{
    int a = r->columns.algbw[0], b = r->columns.busbw[0];
    double alg, bus;
    if (a < 0 || b < 0 || a >= count || b >= count) return;
    if (!parse_number(tokens[a], &alg) || !parse_number(tokens[b], &bus) || alg <= 0) return;
    if (alg > r->largest_algbw) r->largest_algbw = alg, r->bus_over_alg = bus / alg;
}

static bool read_row(reader *r, char *line, int number)
{
    char *tokens[MAX_COLUMNS];
    snprintf(r->row, sizeof r->row, "%s", line);
    int count = split(r->row, tokens, MAX_COLUMNS);
    if (count > MAX_COLUMNS) {
        note(r, number, "more than 48 columns: not a result row");
        return true;
    }
    long long size;
    if (count == 0) return true;
    if (!parse_integer(tokens[0], &size)) {
        if (tokens[0][strspn(tokens[0], "0123456789")] == '\0') /* digits only: a size past 64 bits */
            return diag_at(r->d, r->name, number, 1, "the size '%s' is larger than 1 PiB (2^50 B), the largest size "
                           "collsim reads", tokens[0]);
        note(r, number, "not a result row (it does not start with a size in bytes)");
        return true;
    }
    if (!r->columns.from_header && r->columns.columns == default_layout.columns && count != default_layout.columns)
        return diag_at(r->d, r->name, number, 1,
                       "a result row before any column header must have the 13 columns of nccl-tests "
                       "(size count type redop root time algbw busbw #wrong time algbw busbw #wrong); it has %d",
                       count);
    if (count < r->columns.columns)
        return diag_at(r->d, r->name, number, 1,
                       "the result row has %d columns; the column header above it names %d (a truncated line?)",
                       count, r->columns.columns);
    if (size < 0) return diag_at(r->d, r->name, number, 1, "the size '%s' is negative", tokens[0]);
    if (size > (long long)UNITS_MAX_SIZE_BYTES)
        return diag_at(r->d, r->name, number, 1, "the size '%s' is larger than 1 PiB (2^50 B), the largest size "
                       "collsim reads", tokens[0]);
    if (size == 0) {
        note(r, number, "a 0-byte row carries no time to fit");
        return true;
    }
    double t[2];
    bool wrong[2];
    if (!row_time(r, tokens, count, 0, number, &t[0], &wrong[0]) ||
        !row_time(r, tokens, count, 1, number, &t[1], &wrong[1]))
        return false;
    if (t[0] == 0 && t[1] == 0)
        return diag_at(r->d, r->name, number, 1, "the result row has no time column (the header names none)");
    if (wrong[0] || wrong[1]) {
        note(r, number, "#wrong is not 0: the collective returned wrong data, the row is left out");
        return true;
    }
    if (r->log->point_count == CALIB_MAX_POINTS)
        return diag_at(r->d, r->name, number, 1, "more than %d result rows: split the log", CALIB_MAX_POINTS);
    calib_point *p = &r->log->points[r->log->point_count++];
    int both = (t[0] > 0) + (t[1] > 0);
    p->size_bytes = (double)size;
    p->time_s = (t[0] + t[1]) / both;
    p->line = number;
    p->busbw_Bps = 0;
    double bus;
    if (r->columns.busbw[0] >= 0 && r->columns.busbw[0] < count && parse_number(tokens[r->columns.busbw[0]], &bus) &&
        bus >= 0 && bus * 1e9 <= UNITS_MAX_BANDWIDTH_BPS)
        p->busbw_Bps = bus * 1e9;
    if (r->redop[0] == '\0' && r->columns.redop >= 0 && r->columns.redop < count)
        snprintf(r->redop, sizeof r->redop, "%s", tokens[r->columns.redop]);
    long long root;
    if (r->columns.root >= 0 && r->columns.root < count && parse_integer(tokens[r->columns.root], &root) &&
        root >= -1 && root < TOPO_MAX_RANKS)
        r->root = (int)root;
    remember_ratio(r, tokens, count);
    return true;
}

/* The rank count from busbw / algbw = C(N) (01 App. D), when PRIM's factor depends on N. */
static int ranks_from_ratio(primitive prim, double ratio)
{
    double n = 0;
    if (prim == PRIM_ALLREDUCE && ratio < 2) n = 2 / (2 - ratio);
    else if ((prim == PRIM_ALLGATHER || prim == PRIM_REDUCESCATTER || prim == PRIM_ALLTOALL) && ratio < 1)
        n = 1 / (1 - ratio);
    if (!(n >= 1.5) || n > TOPO_MAX_RANKS) return 0;
    int rounded = (int)lround(n);
    /* the log prints 2 decimals: accept N only when its factor matches them */
    return fabs(primitive_busbw_factor(prim, rounded) - ratio) < 0.02 ? rounded : 0;
}

static bool recognise_collective(reader *r)
{
    calib_log *log = r->log;
    if (r->prim_found) return true;
    char which[64];
    const char *base = strrchr(r->name, '/');
    base = base ? base + 1 : r->name;
    if (binary_in(base, &log->prim, which, sizeof which)) {
        snprintf(log->prim_from, sizeof log->prim_from, "the file name ('%s')", which);
        return true;
    }
    double ratio = r->bus_over_alg;
    bool none = strcmp(r->redop, "none") == 0;
    if (ratio > 1.01) {
        log->prim = PRIM_ALLREDUCE;
        snprintf(log->prim_from, sizeof log->prim_from, "busbw / algbw = %.3f > 1 (all-reduce's 2(N-1)/N)", ratio);
        return true;
    }
    if (ratio > 0.99 && r->root >= 0) {
        log->prim = none ? PRIM_BCAST : PRIM_REDUCE;
        snprintf(log->prim_from, sizeof log->prim_from, "busbw = algbw with a root and redop '%s'", r->redop);
        return true;
    }
    if (ratio > 0 && ratio < 0.99 && !none) {
        log->prim = PRIM_REDUCESCATTER;
        snprintf(log->prim_from, sizeof log->prim_from, "busbw / algbw = %.3f < 1 with redop '%s'", ratio, r->redop);
        return true;
    }
    return diag_at(r->d, r->name, 1, 1,
                   "cannot tell which collective this log measured (no '# Collective test starting' line, no "
                   "<collective>_perf in the log or its file name, and its columns fit several): name the file "
                   "after the binary, e.g. all_gather_perf.log");
}

static bool recognise_ranks(reader *r)
{
    calib_log *log = r->log;
    if (r->max_rank >= 0) {
        log->ranks = r->max_rank + 1;
        snprintf(log->ranks_from, sizeof log->ranks_from, "the '#  Rank' lines (0..%d)", r->max_rank);
        return true;
    }
    int n = ranks_from_ratio(log->prim, r->bus_over_alg);
    if (n > 0) {
        log->ranks = n;
        snprintf(log->ranks_from, sizeof log->ranks_from, "busbw / algbw = %.3f = C(N) at N = %d (01 App. D)",
                 r->bus_over_alg, n);
        return true;
    }
    if (r->threads > 0 && r->gpus > 0) {
        log->ranks = r->threads * r->gpus;
        snprintf(log->ranks_from, sizeof log->ranks_from, "nThread %d x nGpus %d (one process)", r->threads,
                 r->gpus);
        return true;
    }
    return diag_at(r->d, r->name, 1, 1,
                   "cannot tell the number of ranks: the log has no '#  Rank' lines, no '# nThread T nGpus G' "
                   "line, and busbw / algbw does not give it (keep the header nccl-tests prints)");
}

bool calib_log_parse(const char *name, const char *text, size_t length, calib_log *log, calib_note_fn note_fn,
                     void *context, diag *d)
{
    memset(log, 0, sizeof *log);
    snprintf(log->path, sizeof log->path, "%s", name);
    reader r = {.name = name, .log = log, .note = note_fn, .context = context, .d = d, .columns = default_layout,
                .time_unit_s = 1e-6, .max_rank = -1, .root = -1};
    char line[MAX_LINE];
    int number = 0;
    for (size_t at = 0; at < length;) {
        size_t end = at;
        while (end < length && text[end] != '\n') end++;
        number++;
        size_t n = end - at;
        bool too_long = n >= MAX_LINE;
        if (too_long) n = MAX_LINE - 1;
        memcpy(line, text + at, n);
        line[n] = '\0';
        if (n > 0 && line[n - 1] == '\r') line[n - 1] = '\0';
        at = end + 1;
        if (memchr(line, '\0', n) != NULL && strlen(line) < n) {
            note(&r, number, "a NUL byte in the line");
            continue;
        }
        if (too_long) {
            note(&r, number, "longer than 4095 characters");
            continue;
        }
        const char *first = line;
        while (isspace((unsigned char)*first)) first++;
        if (*first == '\0') continue;
        read_algorithm(&r, first, number);
        if (*first == '#') {
            if (!read_comment(&r, first, number)) return false;
            continue;
        }
        if (r.prim_found == 0 && binary_in(first, &log->prim, log->prim_from, sizeof log->prim_from)) {
            char which[64];
            snprintf(which, sizeof which, "%s", log->prim_from);
            snprintf(log->prim_from, sizeof log->prim_from, "line %d: '%s' (the command line)", number, which);
            r.prim_found = 2;
        }
        if (!read_row(&r, line, number)) return false;
    }
    if (log->point_count == 0)
        return diag_at(d, name, number > 0 ? number : 1, 1,
                       "no result row: an nccl-tests / rccl-tests log has rows 'size count type redop root time "
                       "algbw busbw #wrong ...' under its '# size' header");
    if (!r.unit_seen && note_fn)
        note_fn(context, name, log->points[0].line, "no '(us)' / '(ms)' unit line under the column header: times taken as us");
    return recognise_collective(&r) && recognise_ranks(&r);
}

static const input_kind log_file = {
    .name = "an nccl-tests log", .example = "an nccl-tests / rccl-tests output file (all_reduce_perf ... > FILE)",
    .fifo_advice = "a log is read whole before anything runs; save it to a file",
    .read_noun = "the log", .max_bytes = CALIB_MAX_LOG_BYTES, .max_text = "64 MiB"};

bool calib_log_read(const char *path, calib_log *log, calib_note_fn note_fn, void *context, diag *d)
{
    size_t length = 0;
    char *text = input_read(path, &log_file, &length, d);
    if (!text) return false;
    bool ok = calib_log_parse(path, text, length, log, note_fn, context, d);
    free(text);
    return ok;
}
