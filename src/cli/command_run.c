/* command_run.c — `collsim run` (simulate every case beside its prediction),
 * `collsim predict` (the analytic model only, nothing simulated) and
 * `collsim verify` (run every schedule on data, no timing). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run_cases.h"
#include "report/baseline.h"
#include "report/report.h"
#include "scenario/scenario.h"

typedef struct run_options {
    report_format format;
    const char *output;
    bool verify;
    bool quiet;
    const char *plot;
    int jobs;
    const char *baseline;       /* --baseline FILE: compare (SPEC §9) */
    const char *write_baseline; /* --write-baseline FILE: record */
    double rtol;                /* --rtol X: relative tolerance of the comparison */
    sim_options sim;
    const char *cfg[16];
} run_options;

static bool parse_options(int argc, char **argv, run_options *o, const char *command)
{
    int cfg_count = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--format") == 0 && i + 1 < argc) {
            const char *f = argv[++i];
            if (strcmp(f, "table") == 0) o->format = FORMAT_TABLE;
            else if (strcmp(f, "csv") == 0) o->format = FORMAT_CSV;
            else if (strcmp(f, "json") == 0) o->format = FORMAT_JSON;
            else {
                fprintf(stderr, "collsim %s: --format takes table, csv or json, not '%s'\n", command, f);
                return false;
            }
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) o->output = argv[++i];
        else if (strcmp(a, "--verify") == 0) o->verify = true;
        else if (strcmp(a, "--plot") == 0 && i + 1 < argc) {
            o->plot = argv[++i];
            size_t length = strlen(o->plot);
            if (length < 5 || strcmp(o->plot + length - 4, ".svg") != 0) {
                fprintf(stderr, "collsim %s: --plot takes an SVG file name ending in .svg, not '%s'\n", command, o->plot);
                return false;
            }
        }
        else if (strcmp(a, "--quiet") == 0) o->quiet = true;
        else if (strcmp(a, "--jobs") == 0 && i + 1 < argc) {
            const char *n = argv[++i];
            char *end = NULL;
            long jobs = strtol(n, &end, 10);
            if (end == n || *end != '\0' || jobs < 1 || jobs > 1024) {
                fprintf(stderr, "collsim %s: --jobs takes a number of simulations at once, 1 to 1024, not '%s'\n", command, n);
                return false;
            }
            o->jobs = (int)jobs;
        }
        else if (strcmp(a, "--model") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            if (strcmp(m, "cm02") == 0) o->sim.model = NETWORK_CM02;
            else if (strcmp(m, "lv08") == 0) o->sim.model = NETWORK_LV08;
            else if (strcmp(m, "packet") == 0) o->sim.model = NETWORK_PACKET;
            else {
                fprintf(stderr, "collsim %s: --model takes cm02, lv08 or packet, not '%s'\n", command, m);
                return false;
            }
        } else if (strcmp(a, "--baseline") == 0 && i + 1 < argc) o->baseline = argv[++i];
        else if (strcmp(a, "--write-baseline") == 0 && i + 1 < argc) o->write_baseline = argv[++i];
        else if (strcmp(a, "--rtol") == 0 && i + 1 < argc) {
            char *end;
            o->rtol = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !isfinite(o->rtol) || o->rtol < 0) {
                fprintf(stderr, "collsim %s: --rtol takes a number >= 0 (1e-9 by default), not '%s'\n", command, argv[i]);
                return false;
            }
        } else if (strncmp(a, "--cfg=", 6) == 0 && cfg_count < 15) o->cfg[cfg_count++] = a;
        else {
            fprintf(stderr, "collsim %s: unknown option '%s' (collsim --help lists them)\n", command, a);
            return false;
        }
    }
    if ((o->baseline || o->write_baseline) && strcmp(command, "run") != 0) {
        fprintf(stderr, "collsim %s: --baseline and --write-baseline go with collsim run: %s simulates nothing\n", command,
                command);
        return false;
    }
    o->cfg[cfg_count] = NULL;
    o->sim.extra_cfg = o->cfg;
    return true;
}

static const char *eta_name(const eta_profile *e)
{
    return e->mode == ETA_SEED ? "seed" : e->mode == ETA_GIVEN ? "given" : "ideal";
}

static int run_scenario(int argc, char **argv, run_mode mode)
{
    const char *command = mode == MODE_RUN ? "run" : mode == MODE_VERIFY ? "verify" : "predict";
    if (argc < 1) {
        fprintf(stderr, "usage: collsim %s SCENARIO.yaml [options]\n", command);
        return 2;
    }
    run_options o = {.rtol = 1e-9};
    if (!parse_options(argc - 1, argv + 1, &o, command)) return 2;
    if (mode == MODE_VERIFY) o.verify = true;
    scenario s;
    diag d = {0};
    if (!scenario_load(argv[0], &s, &d)) {
        diag_print(&d);
        return 2;
    }
    report r = {.scenario = s.name, .platform_name = s.platform.name, .platform_kind = s.platform.kind,
                .model = mode == MODE_PREDICT ? "analytic" : o.sim.model == NETWORK_LV08 ? "lv08" : "cm02",
                .platform_ranks = s.platform.ranks, .simulated = mode == MODE_RUN, .eta = eta_name(&s.eta)};
    for (int c = 0; c < s.case_count; c++)
        if (s.cases[c].eta.mode != s.eta.mode) r.eta = "per case";
    if (o.baseline && access(o.baseline, R_OK) != 0) { /* before a long run, not after */
        fprintf(stderr, "%s: cannot read the baseline: %s\n", o.baseline, strerror(errno));
        scenario_free(&s);
        return 2;
    }
    run_settings settings = {.mode = mode, .verify = o.verify, .quiet = o.quiet, .jobs = o.jobs, .sim = o.sim};
    int status = run_cases(&s, &settings, &r);
    if (mode != MODE_VERIFY && status == 0) {
        report_calibrate(&r);
        /* compare first, so that one FILE can be checked and then re-recorded */
        int drifted = o.baseline ? baseline_compare(&r, o.baseline, o.rtol, stderr, &d) : 0;
        if (drifted >= 0 && o.write_baseline && !baseline_write(&r, o.write_baseline, &d)) drifted = -1;
        if (drifted < 0) diag_print(&d);
        status = drifted < 0 ? 2 : drifted > 0 ? 1 : 0;
        if (!report_write(&r, o.format, o.output, &d) || (o.plot && !report_plot(&r, o.plot, &d))) {
            diag_print(&d);
            status = 2;
        }
    }
    report_free(&r);
    scenario_free(&s);
    return status;
}

int command_run(int argc, char **argv)
{
    return run_scenario(argc, argv, MODE_RUN);
}

int command_verify(int argc, char **argv)
{
    return run_scenario(argc, argv, MODE_VERIFY);
}

int command_predict(int argc, char **argv)
{
    return run_scenario(argc, argv, MODE_PREDICT);
}
