/* command_run.c — `collsim run` (simulate every case beside its prediction),
 * `collsim predict` (the analytic model only, nothing simulated) and
 * `collsim verify` (run every schedule on data, no timing): their options
 * read and checked, then the cases run (run_cases.c) and reported. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/measured.h"
#include "cli/commands.h"
#include "cli/distinct_files.h"
#include "cli/run_cases.h"
#include "net/network.h"
#include "report/baseline.h"
#include "analysis/eta_fits.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "util/data_path.h"
#include "util/shuffle.h"

typedef struct run_options {
    report_format format;
    const char *output;
    const char *plot;
    const char *baseline;       /* --baseline FILE: compare (docs/output.md) */
    const char *write_baseline; /* --write-baseline FILE: record */
    double rtol;                /* --rtol X: relative tolerance of the comparison */
    run_settings settings;
} run_options;

static bool bad_option(const char *command, const char *fmt, const char *value)
{
    fprintf(stderr, "collsim %s: ", command);
    fprintf(stderr, fmt, value);
    fputc('\n', stderr);
    return false;
}


static bool read_options(const cli_args *a, run_mode mode, run_options *o)
{
    const char *command = cli_command_name(a->command);
    const char *const *v = a->value;
    *o = (run_options){.rtol = 1e-9, .output = v[OPT_OUTPUT], .plot = v[OPT_PLOT], .baseline = v[OPT_BASELINE],
                       .write_baseline = v[OPT_WRITE_BASELINE]};
    run_settings *s = &o->settings;
    *s = (run_settings){.mode = mode, .verify = mode == MODE_VERIFY || v[OPT_VERIFY], .quiet = v[OPT_QUIET] != NULL,
                        .jobs = 1, .all_links = v[OPT_LINKS] != NULL, .trace_path = v[OPT_TRACE], .sim = {.model = NETWORK_DEFAULT, .extra_cfg = a->cfg}};
    /* without --format, -o FILE.csv or FILE.json says which */
    if (!report_format_named(v[OPT_FORMAT], o->output, &o->format))
        return bad_option(command, "--format takes " REPORT_FORMAT_NAMES ", not '%s'", v[OPT_FORMAT]);
    if (o->plot && !report_plot_format_known(o->plot))
        return bad_option(command, "--plot draws .svg, .png or .pdf: name a file ending in one of them, not '%s'", o->plot);
    if (v[OPT_JOBS]) {
        char *end = NULL;
        long jobs = strtol(v[OPT_JOBS], &end, 10);
        if (end == v[OPT_JOBS] || *end != '\0' || jobs < 1 || jobs > 1024)
            return bad_option(command, "--jobs takes a number of simulations at once, 1 to 1024, not '%s'", v[OPT_JOBS]);
        s->jobs = (int)jobs;
    }
    if (v[OPT_MODEL]) {
        if (strcmp(v[OPT_MODEL], "cm02") == 0) s->sim.model = NETWORK_CM02;
        else if (strcmp(v[OPT_MODEL], "lv08") == 0) s->sim.model = NETWORK_LV08;
        else if (strcmp(v[OPT_MODEL], "packet") == 0) s->sim.model = NETWORK_PACKET;
        else return bad_option(command, "--model takes cm02, lv08 or packet, not '%s'", v[OPT_MODEL]);
    }
    if (v[OPT_TIES]) {
        s->ties_given = true;
        if (strcmp(v[OPT_TIES], "scheduled") == 0) s->sim.ties_shuffled = false;
        else if (seeded_name(v[OPT_TIES], "shuffled", &s->sim.tie_seed)) s->sim.ties_shuffled = true;
        else return bad_option(command, "--ties takes scheduled or shuffled(SEED), SEED a whole number (e.g. shuffled(7)), "
                               "not '%s'", v[OPT_TIES]);
    }
    if (v[OPT_RTOL]) {
        if (!o->baseline) return bad_option(command, "--rtol%s is the tolerance of --baseline: give --baseline FILE too", "");
        char *end;
        o->rtol = strtod(v[OPT_RTOL], &end);
        if (end == v[OPT_RTOL] || *end || !isfinite(o->rtol) || o->rtol < 0)
            return bad_option(command, "--rtol takes a number >= 0 (1e-9 by default), not '%s'", v[OPT_RTOL]);
    }
    if (v[OPT_QUIET] && v[OPT_PROGRESS]) return bad_option(command, "--quiet and --progress contradict each other%s", "");
    s->progress = mode == MODE_RUN && (v[OPT_PROGRESS] || (!s->quiet && isatty(STDERR_FILENO)));
    return true;
}

static const char *eta_name(const eta_profile *e)
{
    return e->mode == ETA_SEED ? "seed" : e->mode == ETA_GIVEN ? "given" : "ideal";
}

/* The scenario, the logs and the baseline read, the results, their CSV
 * blocks, the trace, the recorded baseline and the plot written: no output
 * may be one of the others (docs/output.md). */
static bool files_apart(const cli_args *a, const char *scenario_path, const run_options *o)
{
    named_file files[4 + CLI_MAX_CFG + CSV_BLOCK_COUNT + 4];
    int n = 0;
    files[n++] = (named_file){scenario_path, "the scenario", false, NULL};
    for (int i = 0; i < a->measured_count; i++) files[n++] = (named_file){a->measured[i], "--measured", false, NULL};
    /* one FILE can be checked and then re-recorded (compared before it is written) */
    files[n++] = (named_file){o->baseline, "--baseline", false, "--write-baseline"};
    files[n++] = (named_file){o->output, "-o", true, NULL};
    char blocks[CSV_BLOCK_COUNT][PATH_MAX + 32];
    bool blocks_written = o->output && strcmp(o->output, "-") != 0 && o->format == FORMAT_CSV;
    for (int b = 0; blocks_written && b < report_csv_block_count(o->settings.all_links); b++) {
        report_csv_block_path(o->output, (csv_block)b, blocks[b], sizeof blocks[b]);
        files[n++] = (named_file){blocks[b], "-o's CSV block", true, NULL};
    }
    files[n++] = (named_file){o->settings.trace_path, "--trace", true, NULL};
    files[n++] = (named_file){o->write_baseline, "--write-baseline", true, NULL};
    files[n++] = (named_file){o->plot, "--plot", true, NULL};
    return files_distinct(cli_command_name(a->command), files, n);
}

/* Report, compare with the baseline B, record it, plot; exit status. */
static int write_results(report *r, const run_options *o, const baseline *b)
{
    diag d = {0};
    analysis_fit_eta(r);
    analysis_best_per_size(r);
    /* compare first, so that one FILE can be checked and then re-recorded */
    int drifted = b ? baseline_compare(r, b, o->rtol, stderr) : 0;
    if (o->write_baseline && !baseline_write(r, o->write_baseline, &d)) drifted = -1;
    if (drifted < 0) diag_print(&d);
    int status = drifted < 0 ? 2 : drifted > 0 ? 1 : 0;
    if (!report_write(r, o->format, o->output, &d) || (o->plot && !report_plot(r, o->plot, &d))) {
        diag_print(&d);
        status = 2;
    }
    return status;
}

int command_scenario(const cli_args *a)
{
    run_mode mode = a->command == CMD_RUN ? MODE_RUN : a->command == CMD_VERIFY ? MODE_VERIFY : MODE_PREDICT;
    run_options o;
    /* a scenario or a baseline named by a relative path is looked for along
     * COLLSIM_PATH and the installed ones too (util/data_path.h) */
    char scenario_path[PATH_MAX], baseline_path[PATH_MAX];
    data_path_find(a->operands[0], NULL, "scenarios", scenario_path, sizeof scenario_path);
    if (!read_options(a, mode, &o)) return 2;
    if (o.baseline) {
        data_path_find(o.baseline, NULL, "baselines", baseline_path, sizeof baseline_path);
        o.baseline = baseline_path;
    }
    if (!files_apart(a, scenario_path, &o)) return 2;
    scenario s;
    diag d = {0};
    /* a prediction never names a link: its platforms keep none (a third of a large fabric) */
    if (!scenario_load_as(scenario_path, mode == MODE_PREDICT ? LINKS_UNNAMED : LINKS_NAMED, &s, &d)) {
        diag_print(&d);
        return 2;
    }
    report r = {.scenario = s.name, .platform_name = s.platform.name, .platform_kind = s.platform.kind,
                .model = mode == MODE_PREDICT ? "analytic" : network_model_name(scenario_network(&s, o.settings.sim.model)),
                .platform_ranks = s.platform.ranks, .simulated = mode == MODE_RUN, .eta = eta_name(&s.eta),
                .all_links = o.settings.all_links};
    for (int c = 0; c < s.case_count; c++)
        if (s.cases[c].eta.mode != s.eta.mode) r.eta = "per case";
    int status = 0;
    baseline *b = NULL;
    if (status == 0 && o.baseline && !(b = baseline_open(o.baseline, &d))) { /* before a long run, not after */
        diag_print(&d);
        status = 2;
    }
    /* a malformed log is refused before a long run, not after (r has no rows yet) */
    if (status == 0 && a->measured_count > 0 && !calib_attach_measured(&r, a->measured, a->measured_count, true, &d)) {
        diag_print(&d);
        status = 2;
    }
    if (status == 0) status = run_cases(&s, &o.settings, &r);
    if (status == 0 && a->measured_count > 0 && !calib_attach_measured(&r, a->measured, a->measured_count, o.settings.quiet, &d)) {
        diag_print(&d);
        status = 2;
    }
    if (mode != MODE_VERIFY && status == 0) status = write_results(&r, &o, b);
    baseline_close(b);
    report_free(&r);
    scenario_free(&s);
    return status;
}
