/* command_calibrate.c — `collsim calibrate PLATFORM.yaml LOG... [-o FILE]`
 * (docs/calibration.md): read the logs (calib/log_reader.c), say what was read from
 * each (its collective, its ranks, and how they were recognised), fit the
 * platform's effective costs per size regime (calib/fit.c), print every
 * point's residual on standard error, and write the calibrated platform
 * (calib/platform_writer.c). */
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/fit.h"
#include "calib/log_reader.h"
#include "calib/platform_writer.h"
#include "cli/calibrate_simulated.h"
#include "cli/commands.h"
#include "model/protocol.h"
#include "util/data_path.h"
#include "cli/distinct_files.h"
#include "platform/platform.h"

static void print_note(void *context, const char *file, int line, const char *why)
{
    const bool *quiet = context;
    if (!*quiet) fprintf(stderr, "%s:%d: note: line not read: %s\n", file, line, why);
}

static void print_log(FILE *out, const calib_log *l)
{
    double smallest = l->points[0].size_bytes, largest = smallest;
    for (int p = 1; p < l->point_count; p++) {
        smallest = fmin(smallest, l->points[p].size_bytes);
        largest = fmax(largest, l->points[p].size_bytes);
    }
    fprintf(out, "# %s: %s on %d ranks, %d points from %.0f B to %.0f B (%d lines not read)\n", l->path,
            primitive_name(l->prim), l->ranks, l->point_count, smallest, largest, l->lines_skipped);
    fprintf(out, "#   collective from %s; ranks from %s; algorithm %s%s%s\n", l->prim_from, l->ranks_from,
            l->algorithm[0] ? l->algorithm : "not named: the library's own choice per regime", l->algorithm[0] ? " from " : "",
            l->algorithm_from);
}

/* Which algorithm each regime was fitted as: the log's, or the library's own choice there. */
static void print_choices(FILE *out, const calib_result *r)
{
    for (int k = 0; k < r->fit_count; k++) {
        const calib_regime_fit *f = &r->fits[k];
        fprintf(out, "# %s tier %d regime %d of %d (%.0f B .. %.0f B): %s on %d channel(s)%s%s%s\n", primitive_name(f->prim),
                f->tier, f->regime + 1, f->regime_count, f->from_bytes, f->to_bytes, algorithm_family_name(f->family),
                f->channels, f->library_choice ? ", the library's choice there as collsim's tuner makes it (" : " (named by the log)",
                f->library_choice ? protocol_name((protocol_id)f->tuner_protocol) : "", f->library_choice ? ")" : "");
    }
}

static void print_residuals(FILE *out, const calib_log *logs, int log_count, const calib_result *r)
{
    fprintf(out, "# %-28s %14s %12s %12s %9s %6s\n", "log:line", "size(B)", "measured(us)", "simulated(us)", "error(%)",
            "regime");
    for (int i = 0; i < log_count; i++)
        for (int p = 0; p < logs[i].point_count; p++) {
            const calib_residual *res = &r->residuals[i * CALIB_MAX_POINTS + p];
            const calib_point *pt = &logs[i].points[p];
            char where[600];
            snprintf(where, sizeof where, "%s:%d", logs[i].path, pt->line);
            fprintf(out, "  %-28s %14.0f %12.2f %12.2f %+9.2f %3d/%d\n", where, pt->size_bytes, pt->time_s * 1e6,
                    res->fitted_s * 1e6, (res->fitted_s / pt->time_s - 1) * 100, r->fits[res->fit].regime + 1,
                    r->fits[res->fit].regime_count);
        }
}

int command_calibrate(const cli_args *args)
{
    bool quiet = args->value[OPT_QUIET] != NULL;
    char path[PATH_MAX]; /* found along COLLSIM_PATH and the installed platforms too (util/data_path.h) */
    data_path_find(args->operands[0], NULL, "platforms", path, sizeof path);
    named_file files[CLI_MAX_OPERANDS + 1];
    for (int i = 0; i < args->operand_count; i++)
        files[i] = (named_file){i == 0 ? path : args->operands[i], i == 0 ? "the platform" : "the log", false, NULL};
    files[args->operand_count] = (named_file){args->value[OPT_OUTPUT], "-o", true, NULL};
    if (!files_distinct("calibrate", files, args->operand_count + 1)) return 2;
    diag d = {0};
    topology platform;
    if (!platform_load(path, &platform, &d)) {
        diag_print(&d);
        return 2;
    }
    const char *family = args->value[OPT_ALGORITHM];
    if (family && algorithm_family_from_name(family) < 0) {
        fprintf(stderr, "collsim calibrate: --algorithm %s: expected ring, tree or nvls (NCCL_ALGO's families)\n", family);
        topology_free(&platform);
        return 2;
    }
    platform.calibrated_count = 0; /* a fit is against the published figures: an earlier calibration is replaced */
    int log_count = args->operand_count - 1;
    calib_log *logs = calloc((size_t)log_count, sizeof *logs);
    int status = logs ? 0 : 2;
    for (int i = 0; i < log_count && status == 0; i++) {
        if (!calib_log_read(args->operands[i + 1], &logs[i], print_note, &quiet, &d)) {
            diag_print(&d);
            status = 2;
        } else if (logs[i].ranks > platform.ranks) {
            fprintf(stderr,
                    "%s:1:1: the log ran %d ranks (%s); %s has %d: calibrate on a platform of the measured size\n",
                    logs[i].path, logs[i].ranks, logs[i].ranks_from, args->operands[0], platform.ranks);
            status = 2;
        } else if (family && !logs[i].algorithm[0]) {
            snprintf(logs[i].algorithm, sizeof logs[i].algorithm, "%s", family);
            snprintf(logs[i].algorithm_from, sizeof logs[i].algorithm_from, "--algorithm");
        }
        if (status == 0 && !quiet) print_log(stderr, &logs[i]);
    }
    calib_result result;
    char why[256];
    if (status == 0 && !calib_fit(logs, log_count, path, &platform, &result, why, sizeof why)) {
        fprintf(stderr, "collsim calibrate: %s\n", why);
        status = 2;
    }
    for (int k = 0; status == 0 && k < result.fit_count; k++)
        if (result.fits[k].point_count < 2) {
            fprintf(stderr, "%s: %s has one size in a regime: one size cannot tell latency from bandwidth; "
                            "measure a sweep (nccl-tests -b MIN -e MAX -f 2)\n", result.fits[k].logs,
                    primitive_name(result.fits[k].prim));
            calib_result_free(&result);
            status = 2;
        }
    calib_writer_input in = {.platform_path = path, .platform = &platform, .logs = logs,
                             .log_count = log_count, .result = &result};
    double *slower = calloc((size_t)log_count, sizeof *slower);
    if (status == 0 && (!slower || !calib_fit_simulated(&in, &result, slower, &d))) {
        diag_print(&d);
        status = 2;
    }
    for (int i = 0; status == 0 && !quiet && i < log_count; i++)
        if (slower[i] > 1e-3)
            fprintf(stderr, "collsim calibrate: note: %s: its points simulate up to %.1f %% slower than the model fitted to "
                    "them (what runs shares links: docs/calibration.md); fitted again so that the simulation reproduces "
                    "the log\n", logs[i].path, slower[i] * 100);
    free(slower);
    if (status == 0) {
        if (!quiet) {
            print_choices(stderr, &result);
            print_residuals(stderr, logs, log_count, &result);
        }
        const char *out = args->value[OPT_OUTPUT] ? args->value[OPT_OUTPUT] : "-";
        if (!calib_write_platform(&in, out, &d)) {
            diag_print(&d);
            status = 2;
        }
        calib_result_free(&result);
    }
    free(logs);
    topology_free(&platform);
    return status;
}
