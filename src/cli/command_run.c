/* command_run.c — `collsim run` (simulate every case) and `collsim verify`
 * (run every schedule on data, no timing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "cli/commands.h"
#include "exec/executor.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "sched/verify.h"

typedef struct run_options {
    report_format format;
    const char *output;
    const char *plot;
    bool verify;
    bool quiet;
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
        else if (strcmp(a, "--plot") == 0 && i + 1 < argc) {
            o->plot = argv[++i];
            size_t length = strlen(o->plot);
            if (length < 5 || strcmp(o->plot + length - 4, ".svg") != 0) {
                fprintf(stderr, "collsim %s: --plot writes an SVG file: its name must end in .svg, not '%s'\n", command, o->plot);
                return false;
            }
        }
        else if (strcmp(a, "--verify") == 0) o->verify = true;
        else if (strcmp(a, "--quiet") == 0) o->quiet = true;
        else if (strcmp(a, "--model") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            if (strcmp(m, "cm02") == 0) o->sim.model = NETWORK_CM02;
            else if (strcmp(m, "lv08") == 0) o->sim.model = NETWORK_LV08;
            else {
                fprintf(stderr, "collsim %s: --model takes cm02 or lv08, not '%s'\n", command, m);
                return false;
            }
        } else if (strncmp(a, "--cfg=", 6) == 0 && cfg_count < 15) o->cfg[cfg_count++] = a;
        else {
            fprintf(stderr, "collsim %s: unknown option '%s' (collsim --help lists them)\n", command, a);
            return false;
        }
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
    const algorithm *algo = algorithm_find(k->prim, k->algorithms[a]);
    algo_params p = {.ranks = s->platform.ranks, .segments = k->segments, .root = k->root, .peer = k->peer, .size_bytes = size_bytes,
                     .alpha_s = s->platform.tiers[0].alpha_s, .bandwidth_Bps = s->platform.tiers[0].bandwidth_Bps,
                     .domain_ranks = s->platform.domain_ranks, .inner = k->inner[0] ? k->inner : NULL,
                     .outer = k->outer[0] ? k->outer : NULL};
    for (int i = 0; i < s->platform.dim_count; i++) p.dims[i] = s->platform.dims[i];
    p.dim_count = s->platform.dim_count;
    unsigned capabilities = algorithm_inc_capabilities(algo);
    if (!capabilities) return algo->build(&p, why, why_size);
    p.alpha_s = s->platform.tiers[0].alpha_switch_s; /* INC pipelines pay α_switch per leg (04 §2) */
    int *members = malloc(sizeof(int) * (size_t)p.ranks);
    for (int i = 0; i < p.ranks; i++) members[i] = i;
    inc_tree tree;
    bool found = inc_tree_build(&s->platform, members, p.ranks, capabilities, &tree, why, why_size);
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
                k->algorithms[a], s->platform.ranks, why);
        return 2;
    }
    if (!o->verify) return 0;
    bool ok = schedule_verify(*out, why, sizeof why);
    if (!o->quiet || !ok)
        fprintf(ok ? stdout : stderr, "verify case %d %s %s on %d ranks (P = %d): %s%s\n", c, primitive_name(k->prim),
                k->algorithms[a], s->platform.ranks, (*out)->segments, ok ? "ok" : "FAILED: ", ok ? "" : why);
    return ok ? 0 : 1;
}

static int run_or_verify(int argc, char **argv, bool simulate)
{
    const char *command = simulate ? "run" : "verify";
    if (argc < 1) {
        fprintf(stderr, "usage: collsim %s SCENARIO.yaml [options]\n", command);
        return 2;
    }
    run_options o = {0};
    if (!parse_options(argc - 1, argv + 1, &o, command)) return 2;
    if (!simulate) o.verify = true;
    scenario s;
    diag d = {0};
    if (!scenario_load(argv[0], &s, &d)) {
        diag_print(&d);
        return 2;
    }
    report r = {.scenario = s.name, .platform_name = s.platform.name, .platform_kind = s.platform.kind,
                .model = o.sim.model == NETWORK_LV08 ? "lv08" : "cm02", .platform_ranks = s.platform.ranks,
                .simulated = true, .eta = "ideal"};
    int status = 0;
    int *nodes = malloc(sizeof(int) * (size_t)topology_node_count(&s.platform));
    for (int i = 0; i < topology_node_count(&s.platform); i++) nodes[i] = i;
    for (int c = 0; c < s.case_count && status == 0; c++) {
        const scenario_case *k = &s.cases[c];
        for (int a = 0; a < k->algorithm_count && status == 0; a++) {
            /* built per size: P* (01 App. C.3) depends on it */
            for (int m = 0; status == 0 && m < k->size_count; m++) {
                schedule *sched = NULL;
                status = prepare_case(&s, c, a, k->sizes[m], &o, &sched);
                if (status != 0 || !simulate) {
                    schedule_free(sched);
                    continue;
                }
                exec_result result;
                int *actor_nodes = exec_actor_nodes(sched, nodes);
                bool ran = execute_schedule(&s.platform, sched, actor_nodes, k->sizes[m], &o.sim, &result, &d);
                free(actor_nodes);
                if (!ran) {
                    diag_print(&d);
                    schedule_free(sched);
                    status = 2;
                    break;
                }
                /* predicted_s, ideal_s, ratio, n_alpha, n_beta, terms: zero until the model fills them */
                result_row row = {.case_index = c, .prim = k->prim, .ranks = s.platform.ranks, .size_bytes = k->sizes[m],
                                  .segments = sched->segments, .simulated = true, .time_s = result.time_s};
                snprintf(row.algorithm, sizeof row.algorithm, "%s", k->algorithms[a]);
                row.algbw_Bps = k->sizes[m] / result.time_s;                        /* 01 App. D */
                row.busbw_Bps = row.algbw_Bps * primitive_busbw_factor(k->prim, s.platform.ranks);
                report_add(&r, &row);
                exec_result_free(&result);
                schedule_free(sched);
            }
        }
    }
    if (simulate && status == 0) {
        report_calibrate(&r);
        if (!report_write(&r, o.format, o.output, &d) || (o.plot && !report_plot(&r, o.plot, &d))) {
            diag_print(&d);
            status = 2;
        }
    }
    free(nodes);
    report_free(&r);
    scenario_free(&s);
    return status;
}

int command_run(int argc, char **argv)
{
    return run_or_verify(argc, argv, true);
}

int command_verify(int argc, char **argv)
{
    return run_or_verify(argc, argv, false);
}
