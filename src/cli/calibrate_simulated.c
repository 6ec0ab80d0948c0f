/* calibrate_simulated.c — the logs' points simulated on a calibrated
 * platform (calibrate_simulated.h), one scenario per log, run as
 * `collsim run` runs it (cli/run_cases.c) under the scenario's network model. */
#include "cli/calibrate_simulated.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/fit.h"
#include "calib/platform_writer.h"
#include "cli/run_cases.h"
#include "scenario/scenario.h"

bool calib_simulate_logs(const char *platform_path, int platform_ranks, const calib_log *logs, int log_count,
                         double *simulated, diag *d)
{
    for (int i = 0; i < log_count; i++) {
        const calib_log *l = &logs[i];
        scenario s;
        char why[512];
        if (!calib_log_scenario(platform_path, platform_ranks, l, &s, why, sizeof why))
            return diag_at(d, l->path, 0, 0, "cannot simulate it on the calibrated platform: %s", why);
        run_settings o = {.mode = MODE_RUN, .quiet = true, .jobs = 1, .sim = {.model = NETWORK_DEFAULT}};
        report r = {.simulated = true};
        int status = run_cases(&s, &o, &r);
        for (int p = 0; p < l->point_count; p++) {
            simulated[i * CALIB_MAX_POINTS + p] = 0;
            for (int k = 0; k < r.row_count; k++)
                if (r.rows[k].size_bytes == l->points[p].size_bytes && r.rows[k].simulated)
                    simulated[i * CALIB_MAX_POINTS + p] = r.rows[k].time_s;
            if (status == 0 && !(simulated[i * CALIB_MAX_POINTS + p] > 0)) status = 3;
        }
        report_free(&r);
        scenario_free(&s);
        if (status != 0)
            return diag_at(d, l->path, 0, 0, "its points did not simulate on the calibrated platform (status %d)", status);
    }
    return true;
}

/* At most this many refits: each moves the targets by the simulation's
 * contention at the last fit; two settle the cases seen (docs/calibration.md). */
#define REFITS 3
/* The simulation agrees with the fitted model within this: nothing to correct. */
#define AGREES 1e-6

bool calib_fit_simulated(const calib_writer_input *in, calib_result *result, double *slower, diag *d)
{
    const char *tmp = getenv("TMPDIR");
    char platform_path[4096];
    snprintf(platform_path, sizeof platform_path, "%s/collsim-calibrate-XXXXXX.yaml", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemps(platform_path, 5);
    if (fd < 0) return diag_at(d, platform_path, 0, 0, "cannot create the calibrated platform to simulate it");
    close(fd);
    int count = in->log_count;
    double *scale = malloc((size_t)count * CALIB_MAX_POINTS * sizeof *scale);
    double *simulated = calloc((size_t)count * CALIB_MAX_POINTS, sizeof *simulated);
    bool ok = scale && simulated;
    if (!ok) diag_at(d, in->platform_path, 0, 0, "out of memory");
    for (int k = 0; ok && k < count * CALIB_MAX_POINTS; k++) scale[k] = 1;
    for (int refit = 0; ok; refit++) {
        calib_writer_input now = *in;
        now.result = result;
        ok = calib_write_platform(&now, platform_path, d) &&
             calib_simulate_logs(platform_path, in->platform->ranks, in->logs, count, simulated, d);
        if (!ok) break;
        bool agrees = true;
        for (int i = 0; i < count; i++)
            for (int p = 0; p < in->logs[i].point_count; p++) {
                calib_residual *r = &result->residuals[i * CALIB_MAX_POINTS + p];
                double sim = simulated[i * CALIB_MAX_POINTS + p];
                agrees &= fabs(sim / r->fitted_s - 1) <= AGREES;
                if (refit == 0) slower[i] = fmax(p ? slower[i] : 0, sim / r->fitted_s - 1);
                r->fitted_s = sim; /* what the calibrated platform gives, as reported */
                scale[i * CALIB_MAX_POINTS + p] *= in->logs[i].points[p].time_s / sim;
            }
        if (agrees || refit == REFITS) break;
        calib_result_free(result);
        char why[256];
        if (!(ok = calib_fit_scaled(in->logs, count, in->platform_path, in->platform, scale, result, why, sizeof why)))
            diag_at(d, in->platform_path, 0, 0, "%s", why);
    }
    unlink(platform_path);
    free(scale);
    free(simulated);
    return ok;
}
