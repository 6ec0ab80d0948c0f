/* command_run.c — `collsim run` (simulate every case beside its prediction),
 * `collsim predict` (the analytic model only, nothing simulated) and
 * `collsim verify` (run every schedule on data, no timing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "cli/commands.h"
#include "exec/executor.h"
#include "model/model.h"
#include "report/baseline.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "sched/verify.h"

typedef struct run_options {
    report_format format;
    const char *output;
    bool verify;
    bool quiet;
    const char *plot;
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
        else if (strcmp(a, "--model") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            if (strcmp(m, "cm02") == 0) o->sim.model = NETWORK_CM02;
            else if (strcmp(m, "lv08") == 0) o->sim.model = NETWORK_LV08;
            else {
                fprintf(stderr, "collsim %s: --model takes cm02 or lv08, not '%s'\n", command, m);
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

/* The schedule of algorithm A of case C for SIZE_BYTES (which matters only to
 * `segments: auto`).  Tier α and BW for P* are the platform's first tier's. */
static schedule *build_case(const scenario *s, int c, int a, double size_bytes, char *why, int why_size)
{
    const scenario_case *k = &s->cases[c];
    const topology *t = scenario_platform(s, k);
    const algorithm *algo = algorithm_find(k->prim, k->algorithms[a]);
    algo_params p = {.ranks = t->ranks, .segments = k->segments, .root = k->root, .peer = k->peer, .size_bytes = size_bytes,
                     .alpha_s = t->tiers[0].alpha_s, .bandwidth_Bps = t->tiers[0].bandwidth_Bps,
                     .domain_ranks = t->domain_ranks, .inner = k->inner[0] ? k->inner : NULL,
                     .outer = k->outer[0] ? k->outer : NULL};
    for (int i = 0; i < t->dim_count; i++) p.dims[i] = t->dims[i];
    p.dim_count = t->dim_count;
    unsigned capabilities = algorithm_inc_capabilities(algo);
    if (!capabilities) return algo->build(&p, why, why_size);
    p.alpha_s = t->tiers[0].alpha_switch_s; /* INC pipelines pay α_switch per leg (04 §2) */
    int *members = malloc(sizeof(int) * (size_t)p.ranks);
    for (int i = 0; i < p.ranks; i++) members[i] = i;
    inc_tree tree;
    bool found = inc_tree_build(t, members, p.ranks, capabilities, &tree, why, why_size);
    free(members);
    if (!found) return NULL;
    p.inc = &tree;
    schedule *built = algo->build(&p, why, why_size);
    inc_tree_free(&tree);
    return built;
}

/* Build (and with --verify, check) the schedule of one case; exit status. */
static int prepare_case(const scenario *s, int c, int a, double size_bytes, const run_options *o, schedule **out)
{
    const scenario_case *k = &s->cases[c];
    char why[512] = "";
    *out = build_case(s, c, a, size_bytes, why, sizeof why);
    if (!*out) {
        fprintf(stderr, "%s:%d:1: %s %s cannot run on %d ranks: %s\n", s->path, k->line, primitive_name(k->prim),
                k->algorithms[a], scenario_platform(s, k)->ranks, why);
        return 2;
    }
    if (!o->verify) return 0;
    bool ok = schedule_verify(*out, why, sizeof why);
    if (!o->quiet || !ok)
        fprintf(ok ? stdout : stderr, "verify case %d %s %s on %d ranks (P = %d): %s%s\n", c, primitive_name(k->prim),
                k->algorithms[a], scenario_platform(s, k)->ranks, (*out)->segments, ok ? "ok" : "FAILED: ", ok ? "" : why);
    return ok ? 0 : 1;
}

typedef enum { MODE_RUN, MODE_VERIFY, MODE_PREDICT } run_mode;

/* The analytic model's view of case C, algorithm A at SIZE_BYTES, with the P
 * the schedule runs. */
static bool predict_case(const scenario *s, int c, int a, double size_bytes, int segments, prediction *out)
{
    const scenario_case *k = &s->cases[c];
    model_case m = scenario_model_case(s, c, a, size_bytes, segments);
    char why[256];
    if (model_predict(&m, out, why, sizeof why)) return true;
    fprintf(stderr, "%s:%d:1: no prediction for %s %s: %s\n", s->path, k->line, primitive_name(k->prim), k->algorithms[a], why);
    return false;
}

/* A report row: the prediction, and the simulation when RESULT is not NULL
 * (each term timed by its schedule phase). */
static result_row make_row(const scenario *s, int c, int a, double size_bytes, int segments, const prediction *pr,
                           const exec_result *result)
{
    const scenario_case *k = &s->cases[c];
    const topology *platform = scenario_platform(s, k);
    result_row row = {.case_index = c, .prim = k->prim, .ranks = platform->ranks, .size_bytes = size_bytes,
                      .segments = segments, .simulated = result != NULL, .predicted_s = pr->time_s, .ideal_s = pr->ideal_s,
                      .n_alpha = pr->n_alpha, .n_beta = pr->n_beta, .alpha_s = pr->alpha_s,
                      .bandwidth_Bps = pr->bandwidth_Bps, .term_count = pr->term_count};
    snprintf(row.algorithm, sizeof row.algorithm, "%s", k->algorithms[a]);
    snprintf(row.platform, sizeof row.platform, "%s", platform->name);
    for (int i = 0; i < pr->term_count && i < REPORT_MAX_TERMS; i++) {
        const model_term *t = &pr->terms[i];
        row_term *out = &row.terms[i];
        snprintf(out->tier, sizeof out->tier, "%s", platform->tiers[t->tier].name);
        snprintf(out->label, sizeof out->label, "%s", t->label);
        out->n_alpha = t->n_alpha;
        out->n_beta = t->n_beta;
        out->alpha_s = t->alpha_s;
        out->bandwidth_Bps = t->bandwidth_Bps;
        out->predicted_s = model_term_time(t, size_bytes, true);
        out->time_s = -1;
        if (result && t->phase >= 0 && t->phase < SCHED_MAX_PHASES)
            out->time_s = result->phase_end_s[t->phase] - (t->phase > 0 ? result->phase_end_s[t->phase - 1] : 0);
    }
    double t = result ? result->time_s : pr->time_s;
    row.time_s = result ? result->time_s : 0;
    row.ratio = result && pr->time_s > 0 ? result->time_s / pr->time_s : 0;
    row.algbw_Bps = t > 0 ? size_bytes / t : 0; /* 01 App. D */
    row.busbw_Bps = row.algbw_Bps * primitive_busbw_factor(k->prim, platform->ranks);
    return row;
}

/* Build, verify, predict and simulate (as MODE asks) one (case, algorithm, size). */
static int run_one(const scenario *s, int c, int a, double size_bytes, const run_options *o, run_mode mode, report *r,
                   prediction *kept)
{
    const topology *t = scenario_platform(s, &s->cases[c]);
    schedule *sched = NULL;
    int status = prepare_case(s, c, a, size_bytes, o, &sched);
    prediction pr;
    if (status == 0 && mode != MODE_VERIFY && !predict_case(s, c, a, size_bytes, sched->segments, &pr)) status = 2;
    if (status == 0 && mode != MODE_VERIFY) *kept = pr;
    if (status != 0 || mode == MODE_VERIFY) {
        schedule_free(sched);
        return status;
    }
    exec_result result;
    diag d = {0};
    bool ran = true;
    if (mode == MODE_RUN) {
        int *nodes = malloc(sizeof(int) * (size_t)topology_node_count(t));
        for (int i = 0; i < topology_node_count(t); i++) nodes[i] = i;
        int *actor_nodes = exec_actor_nodes(sched, nodes);
        ran = execute_schedule(t, sched, actor_nodes, size_bytes, &o->sim, &result, &d);
        free(actor_nodes);
        free(nodes);
    }
    if (!ran) diag_print(&d);
    else {
        result_row row = make_row(s, c, a, size_bytes, sched->segments, &pr, mode == MODE_RUN ? &result : NULL);
        report_add(r, &row);
        if (mode == MODE_RUN) exec_result_free(&result);
    }
    schedule_free(sched);
    return ran ? 0 : 2;
}

static int largest_size(const scenario_case *k)
{
    int best = 0;
    for (int m = 1; m < k->size_count; m++)
        if (k->sizes[m] > k->sizes[best]) best = m;
    return best;
}

/* Where each pair of the case's algorithms cross, at their largest-size
 * predictions (01 §5.3, App. B.3). */
static void add_crossovers(report *r, int c, const scenario_case *k, const prediction *largest)
{
    for (int a = 0; a < k->algorithm_count; a++)
        for (int b = a + 1; b < k->algorithm_count; b++) {
            crossover_row x = {.case_index = c};
            if (!model_crossover(&largest[a], &largest[b], &x.size_bytes)) continue;
            snprintf(x.a, sizeof x.a, "%s", k->algorithms[a]);
            snprintf(x.b, sizeof x.b, "%s", k->algorithms[b]);
            report_add_crossover(r, &x);
        }
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
    int status = 0;
    for (int c = 0; c < s.case_count && status == 0; c++) {
        const scenario_case *k = &s.cases[c];
        if (k->eta.mode != s.eta.mode) r.eta = "per case";
        /* built per size: P* (01 App. C.3) depends on it */
        prediction largest[SCENARIO_MAX_ALGORITHMS];
        for (int a = 0; a < k->algorithm_count && status == 0; a++)
            for (int m = 0; status == 0 && m < k->size_count; m++) {
                prediction p;
                status = run_one(&s, c, a, k->sizes[m], &o, mode, &r, &p);
                if (status == 0 && m == largest_size(k)) largest[a] = p;
            }
        if (status == 0 && mode != MODE_VERIFY) add_crossovers(&r, c, k, largest);
    }
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
