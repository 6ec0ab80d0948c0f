/* command_sweep.c — `collsim sweep` (list, plan, run a sweep or its share
 * into an output folder, or all of it into one report) and `collsim merge`
 * (output folders back into that report): docs/sweeps.md. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run_cases.h"
#include "report/report.h"
#include "sweep/merge.h"
#include "sweep/point_file.h"
#include "sweep/sweep.h"
#include "util/units.h"

typedef struct sweep_run {
    const sweep *w;
    const char *out;          /* --out DIR, or NULL */
    const int *order;         /* the run's list: point indices */
    char **texts;             /* per point: its JSON once simulated here (for the report), or NULL */
    bool keep_texts;
    int failed;
} sweep_run;

static int refuse(const char *fmt, const char *value)
{
    fputs("collsim sweep: ", stderr);
    fprintf(stderr, fmt, value);
    fputc('\n', stderr);
    return 2;
}

/* --shard K/N into *SHARD and *SHARDS. */
static bool read_shard(const char *text, int *shard, int *shards)
{
    char *end;
    long k = strtol(text, &end, 10);
    if (end == text || *end != '/') return false;
    const char *rest = end + 1;
    long n = strtol(rest, &end, 10);
    if (end == rest || *end || n < 1 || n > 100000 || k < 0 || k >= n) return false;
    *shard = (int)k;
    *shards = (int)n;
    return true;
}

/* --budget X: a number of schedule operations, or CPU time with a unit (s, min, h): into operations. */
static bool read_budget(const char *text, double *items)
{
    char *end;
    double value = strtod(text, &end);
    if (end == text || !isfinite(value) || value <= 0) return false;
    double seconds = strcmp(end, "s") == 0 ? 1 : strcmp(end, "min") == 0 ? 60 : strcmp(end, "h") == 0 ? 3600 : 0;
    if (*end && seconds == 0) return false;
    *items = *end ? value * seconds / sweep_seconds(1) : value;
    return true;
}

/* Which points the command is for: all, a shard's (--shard), or those named (--id); their count. */
static int select_points(const sweep *w, const cli_args *a, bool *selected)
{
    const char *shard_text = a->value[OPT_SHARD], *ids = a->value[OPT_ID];
    int shard = 0, shards = 1, count = 0;
    int *of = calloc((size_t)w->point_count + 1, sizeof *of);
    if (shard_text && !read_shard(shard_text, &shard, &shards)) {
        free(of);
        return refuse("--shard takes K/N, 0 <= K < N (e.g. --shard 0/4, or $SLURM_ARRAY_TASK_ID/N), not '%s'",
                      shard_text) * -1;
    }
    if (shard_text) sweep_shards(w, shards, of);
    for (int p = 0; p < w->point_count; p++) {
        selected[p] = of[p] == shard;
        if (ids) {
            const char *at = strstr(ids, w->points[p].id);
            selected[p] = at && (at == ids || at[-1] == ',') && (at[SWEEP_ID_SIZE - 1] == ',' || !at[SWEEP_ID_SIZE - 1]);
        }
        count += selected[p];
    }
    free(of);
    if (ids && count == 0) return -refuse("--id names no point of this sweep ('%s'): collsim sweep --list lists them", ids);
    return count;
}

static void describe_point(const sweep *w, int p, char *out, size_t size)
{
    const sweep_point *t = &w->points[p];
    const scenario_case *k = &w->axis_points[t->axis_point].scenario.cases[t->first];
    char bytes[32];
    units_format(k->sizes[t->m], UNIT_SIZE, bytes, sizeof bytes);
    snprintf(out, size, "case %d %s %s %s", t->first, primitive_name(k->prim), k->algorithms[t->a], bytes);
}

static void print_list(const sweep *w, const bool *selected)
{
    for (int p = 0; p < w->point_count; p++) {
        if (!selected[p]) continue;
        char what[160];
        describe_point(w, p, what, sizeof what);
        const sweep_axis_point *v = &w->axis_points[w->points[p].axis_point];
        printf("%s  axis point %d: %s  %s\n", w->points[p].id, w->points[p].axis_point + 1, v->label, what);
    }
}

static void print_plan(const sweep *w, const bool *selected, int count, double items, const char *shard)
{
    int points = 0;
    for (int p = 0; p < w->point_count; p++) points += selected[p];
    printf("sweep %s of scenario %s: %d axis point%s, %d simulation%s\n", w->name, w->base, w->axis_point_count,
           w->axis_point_count == 1 ? "" : "s", w->point_count, w->point_count == 1 ? "" : "s");
    if (shard) printf("shard %s: %d simulation%s\n", shard, count, count == 1 ? "" : "s");
    int largest = -1;
    for (int p = 0; p < w->point_count; p++)
        if (selected[p] && (largest < 0 || w->points[p].items > w->points[largest].items)) largest = p;
    printf("estimated cost: %.4g schedule operations, about %.3g CPU seconds\n", items, sweep_seconds(items));
    if (largest >= 0) {
        char what[160];
        describe_point(w, largest, what, sizeof what);
        printf("largest simulation: %.4g operations (%s, axis point %d: %s)\n", w->points[largest].items,
               w->points[largest].id, w->points[largest].axis_point + 1, w->axis_points[w->points[largest].axis_point].label);
    }
    (void)points;
}

/* run_simulation_done: the INDEX-th point of the run finished: its file
 * written (ID.json, or ID.failed naming why), its text kept for the report. */
static void point_done(void *context, int index, int status, const plan_member *members, const result_row *rows, int count)
{
    sweep_run *x = context;
    int p = x->order[index];
    const char *id = x->w->points[p].id;
    char name[SWEEP_ID_SIZE + 8], what[160];
    diag d = {0};
    if (status != 0) {
        x->failed++;
        describe_point(x->w, p, what, sizeof what);
        fprintf(stderr, "collsim sweep: point %s (%s) failed (exit status %d)\n", id, what, status);
        if (!x->out) return;
        char text[256];
        snprintf(text, sizeof text, "point %s (%s): the simulation failed, exit status %d\n", id, what, status);
        snprintf(name, sizeof name, "%s.failed", id);
        if (!point_file_write(x->out, name, text, &d)) diag_print(&d);
        return;
    }
    char *text = point_text(x->w, p, members, rows, count);
    snprintf(name, sizeof name, "%s.json", id);
    if (x->out && !point_file_write(x->out, name, text, &d)) {
        diag_print(&d);
        x->failed++;
    } else if (x->out) {
        char stale[PATH_MAX];
        snprintf(stale, sizeof stale, "%s/%s.failed", x->out, id);
        unlink(stale); /* an earlier failure of this point is over */
    }
    if (x->keep_texts) x->texts[p] = text;
    else free(text);
}

/* merge_lookup: the text of point ID, from this run or from --out DIR. */
static char *lookup_point(void *context, const char *id, char *why, int why_size)
{
    sweep_run *x = context;
    for (int p = 0; p < x->w->point_count; p++) {
        if (strcmp(x->w->points[p].id, id) != 0) continue;
        if (x->texts[p]) return strdup(x->texts[p]);
        char name[SWEEP_ID_SIZE + 8];
        snprintf(name, sizeof name, "%s.json", id);
        char *text = x->out ? point_file_read(x->out, name) : NULL;
        if (text && point_text_complete(text, id, why, why_size)) return text;
        free(text);
        return NULL;
    }
    return NULL;
}

/* DIR exists as a folder (made when absent; its parent must exist). */
static bool output_folder(const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) return true;
    fprintf(stderr, "collsim sweep: --out %s: %s\n", dir, errno == EEXIST ? "exists and is not a folder" : strerror(errno));
    return false;
}

/* The options that do not go together; exit status 2 when some do not, else 0. */
static int check_options(const cli_args *a, bool share)
{
    const char *const *v = a->value;
    if (v[OPT_LIST] && v[OPT_PLAN]) return refuse("--list and --plan print different things: give one%s", "");
    if (share && v[OPT_SHARD] && v[OPT_ID]) return refuse("--shard and --id both choose points: give one%s", "");
    if (share && !v[OPT_OUT] && !v[OPT_LIST] && !v[OPT_PLAN])
        return refuse("%s runs a share of the sweep: give --out DIR for its points (collsim merge DIR then makes the "
                      "report)", v[OPT_SHARD] ? "--shard" : "--id");
    if (share && (v[OPT_OUTPUT] || v[OPT_PLOT] || v[OPT_FORMAT]))
        return refuse("%s runs a share of the sweep, which makes no report: drop -o, --format and --plot, and run "
                      "collsim merge DIR... once every share is done", v[OPT_SHARD] ? "--shard" : "--id");
    if ((v[OPT_LIST] || v[OPT_PLAN]) && (v[OPT_OUTPUT] || v[OPT_PLOT] || v[OPT_OUT]))
        return refuse("--list and --plan run nothing: drop -o, --plot and --out%s", "");
    return 0;
}

/* The report's format: --format, else -o's extension, else the table. */
static bool read_format(const cli_args *a, report_format *format)
{
    if (!report_format_named(a->value[OPT_FORMAT], a->value[OPT_OUTPUT], format)) {
        fprintf(stderr, "collsim %s: --format takes " REPORT_FORMAT_NAMES ", not '%s'\n", cli_command_name(a->command),
                a->value[OPT_FORMAT]);
        return false;
    }
    if (a->value[OPT_PLOT] && !report_plot_format_known(a->value[OPT_PLOT])) {
        fprintf(stderr, "collsim %s: --plot draws .svg, .png or .pdf: name a file ending in one of them, not '%s'\n",
                cli_command_name(a->command), a->value[OPT_PLOT]);
        return false;
    }
    return true;
}

/* Run the selected points that are not complete in --out; exit status. */
static int run_points(const cli_args *a, sweep_run *x, const bool *selected)
{
    const sweep *w = x->w;
    run_settings o = {.mode = MODE_RUN, .quiet = a->value[OPT_QUIET] != NULL, .jobs = 1,
                      .sim = {.model = NETWORK_DEFAULT, .extra_cfg = a->cfg}};
    o.progress = a->value[OPT_PROGRESS] || (!o.quiet && isatty(STDERR_FILENO));
    if (a->value[OPT_JOBS]) {
        char *end;
        long jobs = strtol(a->value[OPT_JOBS], &end, 10);
        if (end == a->value[OPT_JOBS] || *end || jobs < 1 || jobs > 1024)
            return refuse("--jobs takes a number of simulations at once, 1 to 1024, not '%s'", a->value[OPT_JOBS]);
        o.jobs = (int)jobs;
    }
    run_simulation *list = calloc((size_t)w->point_count + 1, sizeof *list);
    int *order = calloc((size_t)w->point_count + 1, sizeof *order);
    int count = 0, done = 0;
    for (int p = 0; p < w->point_count; p++) {
        if (!selected[p]) continue;
        if (x->out && point_file_complete(x->out, w, p)) {
            done++;
            continue;
        }
        const sweep_point *t = &w->points[p];
        list[count] = (run_simulation){&w->axis_points[t->axis_point].scenario, t->first, t->a, t->m};
        order[count++] = p;
    }
    if (!o.quiet && x->out)
        fprintf(stderr, "collsim sweep: %d of %d point%s already complete in %s; running %d\n", done, done + count,
                done + count == 1 ? "" : "s", x->out, count);
    x->order = order;
    int status = count ? run_simulations(list, count, &o, point_done, x) : 0;
    free(list);
    free(order);
    if (status == 2) return 2;
    if (x->failed) {
        fprintf(stderr, "collsim sweep: %d point%s failed; run the sweep again to retry them\n", x->failed,
                x->failed == 1 ? "" : "s");
        return 3;
    }
    return status;
}

int command_sweep(const cli_args *a)
{
    bool share = a->value[OPT_SHARD] || a->value[OPT_ID];
    report_format format;
    if (check_options(a, share) || !read_format(a, &format)) return 2;
    double budget = 0;
    if (a->value[OPT_BUDGET] && !read_budget(a->value[OPT_BUDGET], &budget))
        return refuse("--budget takes a number of schedule operations (2e9) or CPU time (3600s, 90min, 12h), not '%s'",
                      a->value[OPT_BUDGET]);
    sweep w;
    diag d = {0};
    if (!sweep_load(a->operands[0], &w, &d)) {
        diag_print(&d);
        return 2;
    }
    bool *selected = calloc((size_t)w.point_count + 1, sizeof *selected);
    int count = select_points(&w, a, selected), status = count < 0 ? -count : 0;
    double items = 0;
    for (int p = 0; p < w.point_count; p++) items += selected[p] ? w.points[p].items : 0;
    if (status == 0 && budget > 0 && items > budget) {
        fprintf(stderr, "collsim sweep: %s: the estimated cost of %s, %.4g schedule operations (about %.3g CPU seconds), "
                "exceeds --budget %s (%.4g operations); nothing was run: narrow the sweep or raise the budget\n",
                a->operands[0], share ? "this share" : "the sweep", items, sweep_seconds(items), a->value[OPT_BUDGET], budget);
        status = 2;
    }
    if (status == 0 && a->value[OPT_LIST]) print_list(&w, selected);
    else if (status == 0 && a->value[OPT_PLAN]) print_plan(&w, selected, count, items, a->value[OPT_SHARD]);
    else if (status == 0) {
        sweep_run x = {.w = &w, .out = a->value[OPT_OUT], .keep_texts = !share};
        x.texts = calloc((size_t)w.point_count + 1, sizeof *x.texts);
        char *manifest = manifest_text(&w);
        if (x.out && (!output_folder(x.out) || !point_file_write(x.out, SWEEP_MANIFEST, manifest, &d))) {
            if (d.set) diag_print(&d);
            status = 2;
        }
        if (status == 0) status = run_points(a, &x, selected);
        merge_output o = {format, a->value[OPT_OUTPUT], a->value[OPT_PLOT]};
        if (status == 0 && !share) status = merge_sweep(manifest, a->operands[0], lookup_point, &x, &o);
        for (int p = 0; p < w.point_count; p++) free(x.texts[p]);
        free(x.texts);
        free(manifest);
    }
    free(selected);
    sweep_free(&w);
    return status;
}

/* ---- collsim merge DIR... ---- */

typedef struct merge_folders {
    const char *const *dirs;
    int count;
} merge_folders;

/* merge_lookup: ID.json complete in one of the folders, else why not. */
static char *lookup_in_folders(void *context, const char *id, char *why, int why_size)
{
    const merge_folders *x = context;
    char name[SWEEP_ID_SIZE + 8];
    for (int i = 0; i < x->count; i++) {
        snprintf(name, sizeof name, "%s.json", id);
        char *text = point_file_read(x->dirs[i], name);
        char reason[128];
        if (text && point_text_complete(text, id, reason, sizeof reason)) return text;
        if (text) snprintf(why, (size_t)why_size, "%s/%s: %s", x->dirs[i], name, reason);
        free(text);
        snprintf(name, sizeof name, "%s.failed", id);
        char *failure = point_file_read(x->dirs[i], name);
        if (failure) {
            failure[strcspn(failure, "\n")] = '\0';
            snprintf(why, (size_t)why_size, "failed (%s/%s: %s)", x->dirs[i], name, failure);
            free(failure);
        }
    }
    return NULL;
}

int command_merge(const cli_args *a)
{
    report_format format;
    if (!read_format(a, &format)) return 2;
    char *manifest = NULL;
    int status = 0;
    for (int i = 0; i < a->operand_count && status == 0; i++) {
        char *text = point_file_read(a->operands[i], SWEEP_MANIFEST);
        if (!text || !text_sealed(text)) {
            fprintf(stderr, "collsim merge: %s/%s: %s\n", a->operands[i], SWEEP_MANIFEST,
                    text ? "not a complete sweep manifest" : "cannot be read: is this a folder collsim sweep --out wrote?");
            status = 2;
        } else if (manifest && strcmp(manifest, text) != 0) {
            fprintf(stderr, "collsim merge: %s and %s hold different sweeps (their %s differ): merge the folders of one "
                    "sweep\n", a->operands[0], a->operands[i], SWEEP_MANIFEST);
            status = 2;
        }
        if (!manifest) manifest = text;
        else free(text);
    }
    merge_folders folders = {a->operands, a->operand_count};
    merge_output o = {format, a->value[OPT_OUTPUT], a->value[OPT_PLOT]};
    if (status == 0) status = merge_sweep(manifest, a->operands[0], lookup_in_folders, &folders, &o);
    free(manifest);
    return status;
}
