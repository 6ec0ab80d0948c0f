/* baseline.c — regression baselines (docs/output.md).  A baseline is the JSON a run
 * writes (docs/output.md), read back with json-c; a later run's simulated
 * rows are matched to its results by (case, primitive, algorithm, platform,
 * size_bytes) — not `group`, which names the slowest group, a result — and every time that moved past the relative
 * tolerance, and every row present on one side only, is a drift.  Simulation
 * is deterministic and the JSON writer prints 17 significant digits, so an
 * unchanged collsim reproduces a baseline to the last bit. */
#include "report/baseline.h"

#include <limits.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"
#include "util/memory.h"

bool baseline_write(const report *r, const char *path, diag *d)
{
    return report_write(r, FORMAT_JSON, path, d);
}

/* One result of the baseline; the strings belong to the parsed document. */
typedef struct baseline_row {
    int case_index, group;
    const char *primitive, *algorithm, *platform;
    double size_bytes;
    double time_s;             /* NaN where the baseline has null */
} baseline_row;

/* A drifted row: NOW is NULL for a baseline row this run lacks, BASE is NULL
 * for a row the baseline lacks. */
typedef struct drift {
    const result_row *now;
    const baseline_row *base;
    double relative;
} drift;

struct baseline {
    char path[512];
    json_object *root;
    const char *model;
    baseline_row *rows;
    int row_count, row_capacity;
};

static const input_kind baseline_file = {
    .name = "a baseline", .example = "a collsim run JSON file (collsim run --write-baseline FILE)",
    .fifo_advice = "a baseline is read whole before anything runs; save it to a file",
    .read_noun = "the baseline", .max_bytes = BASELINE_MAX_BYTES, .max_text = "64 MiB"};

/* Line and column (1-based) of byte OFFSET of TEXT, for the diag. */
static void position_of(const char *text, size_t offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset && text[i]; i++) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else ++*column;
    }
}

/* TEXT parsed as one JSON value with nothing but white space after it. */
static json_object *parse_json(const char *path, const char *text, size_t length, diag *d)
{
    json_tokener *tokener = json_tokener_new();
    json_object *root = json_tokener_parse_ex(tokener, text, (int)length);
    enum json_tokener_error error = json_tokener_get_error(tokener);
    size_t end = json_tokener_get_parse_end(tokener);
    json_tokener_free(tokener);
    int line, column;
    position_of(text, end, &line, &column);
    if (!root || error != json_tokener_success) {
        json_object_put(root);
        if (length == strspn(text, " \t\r\n"))
            diag_at(d, path, 0, 0, "not collsim JSON output: the file is empty");
        else if (error == json_tokener_continue)
            diag_at(d, path, line, column, "not collsim JSON output: the file ends inside a JSON value");
        else diag_at(d, path, line, column, "not collsim JSON output: %s", json_tokener_error_desc(error));
        return NULL;
    }
    end += strspn(text + end, " \t\r\n");
    if (end < length) {
        position_of(text, end, &line, &column);
        diag_at(d, path, line, column, "not collsim JSON output: more text after the JSON value");
        json_object_put(root);
        return NULL;
    }
    return root;
}

/* Whether OBJECT has a member KEY (into *VALUE) of the JSON type TYPE;
 * json_type_double also takes an integer. */
static bool member(json_object *object, const char *key, json_type type, json_object **value)
{
    if (!json_object_object_get_ex(object, key, value)) return false;
    json_type found = json_object_get_type(*value);
    return found == type || (type == json_type_double && found == json_type_int);
}

static bool read_result(json_object *item, baseline_row *row)
{
    json_object *c, *p, *a, *g, *platform, *m, *t;
    if (!member(item, "case", json_type_int, &c) || !member(item, "primitive", json_type_string, &p) ||
        !member(item, "algorithm", json_type_string, &a) || !member(item, "group", json_type_int, &g) ||
        !member(item, "platform", json_type_string, &platform) || !member(item, "size_bytes", json_type_double, &m))
        return false;
    bool timed = member(item, "time_s", json_type_double, &t);
    if (!timed && !member(item, "time_s", json_type_null, &t)) return false;
    double size_bytes = json_object_get_double(m), time_s = timed ? json_object_get_double(t) : 0;
    if (!(size_bytes >= 0) || !isfinite(size_bytes) || !(time_s >= 0) || !isfinite(time_s) ||
        json_object_get_int64(c) < 0 || json_object_get_int64(c) > INT_MAX)
        return false;
    *row = (baseline_row){.case_index = json_object_get_int(c), .group = json_object_get_int(g),
                          .primitive = json_object_get_string(p), .algorithm = json_object_get_string(a),
                          .platform = json_object_get_string(platform), .size_bytes = json_object_get_double(m),
                          .time_s = timed ? json_object_get_double(t) : NAN};
    return true;
}

/* The results of the collsim run output TEXT (LENGTH bytes, named PATH) into B. */
static bool baseline_load(const char *path, const char *text, size_t length, baseline *b, diag *d)
{
    if (length > (size_t)BASELINE_MAX_BYTES)
        return diag_at(d, path, 0, 0, "is larger than 64 MiB, the largest baseline collsim reads");
    b->root = parse_json(path, text, length, d);
    if (!b->root) return false;
    json_object *version, *simulated, *model, *results;
    if (!member(b->root, "collsim", json_type_string, &version) || !member(b->root, "model", json_type_string, &model) ||
        !member(b->root, "simulated", json_type_boolean, &simulated) ||
        !member(b->root, "results", json_type_array, &results))
        return diag_at(d, path, 0, 0,
                       "not collsim JSON output: an object with \"collsim\", \"model\", \"simulated\" and \"results\" "
                       "is expected (record a baseline with collsim run --write-baseline)");
    if (!json_object_get_boolean(simulated))
        return diag_at(d, path, 0, 0,
                       "holds collsim predict output, no simulated times (record a baseline with collsim run --write-baseline)");
    b->model = json_object_get_string(model);
    size_t count = json_object_array_length(results);
    if (count > BASELINE_MAX_ROWS)
        return diag_at(d, path, 0, 0, "holds %zu results; a baseline holds at most %d: split the scenario", count,
                       BASELINE_MAX_ROWS);
    for (size_t i = 0; i < count; i++) {
        baseline_row row;
        if (!read_result(json_object_array_get_idx(results, i), &row))
            return diag_at(d, path, 0, 0,
                           "not collsim JSON output: results[%zu] lacks one of case, primitive, algorithm, group, "
                           "platform, size_bytes, time_s (or has the wrong type, or a negative or non-finite number)", i);
        b->rows = grow_array(b->rows, &b->row_capacity, b->row_count + 1, sizeof *b->rows);
        b->rows[b->row_count++] = row;
    }
    return true;
}

baseline *baseline_parse(const char *path, const char *text, size_t length, diag *d)
{
    baseline *b = calloc(1, sizeof *b);
    if (!b) {
        diag_at(d, path, 0, 0, "not enough memory to read the baseline");
        return NULL;
    }
    if (baseline_load(path, text, length, b, d)) return b;
    baseline_close(b);
    return NULL;
}

baseline *baseline_open(const char *path, diag *d)
{
    size_t length = 0;
    char *text = input_read(path, &baseline_file, &length, d);
    if (!text) return NULL;
    baseline *b = baseline_parse(path, text, length, d);
    free(text);
    if (b) snprintf(b->path, sizeof b->path, "%s", path);
    return b;
}

void baseline_close(baseline *b)
{
    if (!b) return;
    json_object_put(b->root);
    free(b->rows);
    free(b);
}

int baseline_row_count(const baseline *b)
{
    return b->row_count;
}

static bool same_key(const result_row *row, const baseline_row *base)
{
    return row->case_index == base->case_index && row->size_bytes == base->size_bytes &&
           strcmp(primitive_name(row->prim), base->primitive) == 0 && strcmp(row->algorithm, base->algorithm) == 0 &&
           strcmp(row->platform, base->platform) == 0;
}

/* The unmatched baseline row with ROW's key, searched from HINT on (a
 * baseline of the same scenario lists its rows in the same order); -1. */
static int find_match(const result_row *row, const baseline *b, const bool *matched, int hint)
{
    for (int k = 0; k < b->row_count; k++) {
        int i = (hint + k) % b->row_count;
        if (!matched[i] && same_key(row, &b->rows[i])) return i;
    }
    return -1;
}

/* (now − base) / |base|; 0 when equal (both null included); NaN when only
 * one of them is a number. */
static double relative_drift(double now, double base)
{
    if (now == base || (isnan(now) && isnan(base))) return 0;
    return (now - base) / fabs(base);
}

/* A time in µs, the table's unit, with DIGITS significant digits. */
static void print_time(FILE *out, double value, int digits)
{
    if (isfinite(value)) fprintf(out, " %18.*g", digits, value * 1e6);
    else fprintf(out, " %18s", "null");
}

/* The digits that show a drift of RTOL: two past its place (4 to 17). */
static int drift_digits(double rtol)
{
    double digits = rtol > 0 ? ceil(-log10(rtol)) + 2 : 17;
    return digits < 4 ? 4 : digits > 17 ? 17 : (int)digits;
}

/* The key of a row of this run, as the baseline spells it. */
static baseline_row key_of(const result_row *row)
{
    return (baseline_row){.case_index = row->case_index, .group = row->group, .primitive = primitive_name(row->prim),
                          .algorithm = row->algorithm, .platform = row->platform, .size_bytes = row->size_bytes,
                          .time_s = row->time_s};
}

static void print_drift(const drift *x, int digits, FILE *out)
{
    baseline_row key = x->base ? *x->base : key_of(x->now);
    fprintf(out, "  %4d  %-13s %-22s %5d  %-16s %13.0f", key.case_index, key.primitive, key.algorithm, key.group,
            key.platform, key.size_bytes);
    if (x->base) print_time(out, x->base->time_s, digits);
    else fprintf(out, " %18s", "missing");
    if (x->now) print_time(out, x->now->time_s, digits);
    else fprintf(out, " %18s", "missing");
    if (!x->base) fprintf(out, "  new: not in the baseline\n");
    else if (!x->now) fprintf(out, "  gone: not in this run\n");
    else if (isnan(x->relative)) fprintf(out, "  -\n");
    else fprintf(out, "  %+.3e\n", x->relative);
}

int baseline_compare(const report *r, const baseline *b, double rtol, FILE *out)
{
    bool *matched = calloc((size_t)b->row_count + 1, sizeof *matched);
    drift *drifts = NULL;
    int drift_count = 0, drift_capacity = 0, rows = 0, hint = 0;
    double largest = 0;
    if (!matched) out_of_memory();
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (!row->simulated) continue;
        rows++;
        int k = b->row_count ? find_match(row, b, matched, hint) : -1;
        drift x = {.now = row, .base = k >= 0 ? &b->rows[k] : NULL};
        if (k >= 0) {
            matched[k] = true;
            hint = k + 1;
            x.relative = relative_drift(row->time_s, b->rows[k].time_s);
            if (fabs(x.relative) > largest) largest = fabs(x.relative);
            if (fabs(x.relative) <= rtol) continue; /* NaN: drifted */
        }
        drifts = grow_array(drifts, &drift_capacity, drift_count + 1, sizeof *drifts);
        drifts[drift_count++] = x;
    }
    for (int k = 0; k < b->row_count; k++) {
        if (matched[k]) continue;
        drifts = grow_array(drifts, &drift_capacity, drift_count + 1, sizeof *drifts);
        drifts[drift_count++] = (drift){.base = &b->rows[k]};
    }
    fprintf(out, "# baseline %s: %d rows (%d in the baseline), %d drifted past rtol %g, largest relative drift %.3g\n",
            b->path, rows, b->row_count, drift_count, rtol, largest);
    if (strcmp(b->model, r->model ? r->model : "") != 0)
        fprintf(out, "# baseline %s was simulated with network model %s, this run with %s\n", b->path, b->model,
                r->model ? r->model : "");
    if (drift_count)
        fprintf(out, "# %4s  %-13s %-22s %5s  %-16s %13s %18s %18s  %s\n", "case", "primitive", "algorithm", "group",
                "platform", "size(B)", "baseline(us)", "now(us)", "relative drift");
    for (int i = 0; i < drift_count; i++) print_drift(&drifts[i], drift_digits(rtol), out);
    free(drifts);
    free(matched);
    return drift_count;
}
