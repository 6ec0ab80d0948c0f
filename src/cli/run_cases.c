/* run_cases.c — from scenario cases to report rows.
 *
 * A task is one simulation: the k-th algorithm at the m-th size of every case
 * of a concurrent block (a lone case is a block of one), each case with all
 * its groups.  Tasks are prepared (schedules built, checked, predicted) and
 * started in order; at most `jobs` run at once; each is collected in order.
 * Rows are then added case by case, algorithm by algorithm, size by size. */
#include "cli/run_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "cli/progress.h"
#include "exec/coupling.h"
#include "exec/executor.h"
#include "exec/op_times.h"
#include "model/model.h"
#include "model/tuner.h"
#include "net/fluid/simgrid_run.h"
#include "net/network.h"
#include "report/links.h"
#include "report/trace.h"
#include "sched/verify.h"
#include "util/units.h"

/* One case's share of a task. */
typedef struct member {
    int c, a;              /* the case and its algorithm index */
    double size_bytes;
    tuner_choice run;      /* what runs: the case's algorithm, protocol and channels, or the tuner's pick */
    bool tuned;            /* picked by the tuner (`auto`) */
    schedule **scheds;     /* per group; one shared schedule unless the algorithm runs switch actors */
    int **nodes;           /* per group: where each schedule actor runs */
    double *weights;       /* all-to-all skew block weights, or NULL */
    prediction pr;
    exec_result *results;  /* per group, once simulated */
} member;

typedef struct task {
    int first, a, m;       /* the block's first case, algorithm and size index */
    int member_count;
    member *members;
    exec_part *parts;
    exec_run *run;
    exec_views views;      /* once simulated */
    double end_s;          /* the simulation's time: its last op */
    result_row *rows;      /* per member, once done */
} task;

/* Platform rank of group G's rank I in case K. */
static const int *group_members(const scenario_case *k, int g)
{
    return k->groups.members + (size_t)g * (size_t)k->groups.size;
}

/* The channels `channels: auto` gives case K on T (channels.h): one per rail
 * the group's rings cross nodes on, one per disjoint ring of a full mesh,
 * else one. */
static int natural_channels(const topology *t, const scenario_case *k)
{
    int rail_ranks;
    channel_layout layout = channel_layout_of(t, k->groups.whole ? NULL : group_members(k, 0), k->groups.size, &rail_ranks);
    return channel_natural_count(layout, k->groups.size, rail_ranks, t->rails, SCHED_MAX_CHANNELS);
}

/* inc_tree_fn for hierarchical parts: the tree over group ranks of a group
 * whose platform ranks are MEMBERS. */
typedef struct group_trees {
    const topology *t;
    const int *members;
} group_trees;

static bool sub_group_tree(const void *context, const int *ranks, int n, unsigned capabilities, inc_tree *out,
                           char *why, int why_size)
{
    const group_trees *x = context;
    int *nodes = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) nodes[i] = x->members[ranks[i]];
    bool ok = inc_tree_build(x->t, nodes, n, capabilities, out, why, why_size);
    free(nodes);
    return ok;
}

/* Whether each group of a case needs a schedule of its own: INC trees and
 * hierarchical domains depend on where the group sits. */
static bool per_group_schedules(const scenario_case *k, const char *name)
{
    const algorithm *algo = algorithm_find(k->prim, name);
    return algo && (algorithm_inc_capabilities(algo) != 0 || strncmp(name, "hierarchical", 12) == 0 ||
                    strcmp(name, "tree") == 0);
}

/* The parameters of ALGORITHM of case C on CHANNELS channels for group G at
 * SIZE_BYTES (which matters only to `segments: auto`; P* uses the first
 * tier's α and BW, or the α_switch of the tier an INC tree climbs to).
 * ORDER (the group's ranks, may be NULL) receives the group's domain order;
 * p.domain_order points to it unless rank order already is. */
static algo_params case_params(const scenario *s, int c, const char *name, int channels, int g, double size_bytes,
                               int *order)
{
    const scenario_case *k = &s->cases[c];
    const topology *t = scenario_platform(s, k);
    algo_params p = {.ranks = k->groups.size, .segments = k->segments, .root = k->root, .peer = k->peer, .seed = k->seed,
                     .size_bytes = size_bytes, .alpha_s = t->tiers[0].alpha_s, .bandwidth_Bps = t->tiers[0].bandwidth_Bps,
                     .inner = k->inner[0] ? k->inner : NULL, .outer = k->outer[0] ? k->outer : NULL,
                     .tiers = t->tier_count, .channels = channels};
    p.layout = channel_layout_of(t, k->groups.whole ? NULL : group_members(k, g), p.ranks, &p.rail_ranks);
    p.domain_ranks = topology_group_domains(t, group_members(k, g), p.ranks, order);
    bool in_order = true;
    for (int i = 0; order && i < p.ranks && p.domain_ranks > 0; i++) in_order &= order[i] == i;
    p.domain_order = in_order || !order ? NULL : order;
    if (k->groups.whole) {
        for (int i = 0; i < t->dim_count; i++) p.dims[i] = t->dims[i];
        p.dim_count = t->dim_count;
    } else { /* a group's torus shape is 1-D: its ranks in order (predict.c says the same) */
        p.dims[0] = k->groups.size;
        p.dim_count = 1;
    }
    const algorithm *algo = algorithm_find(k->prim, name);
    if (algo && algorithm_inc_capabilities(algo)) p.alpha_s = t->tiers[0].alpha_switch_s; /* INC legs pay α_switch (04 §2) */
    return p;
}

/* The schedule of ALGORITHM on CHANNELS channels for group G of case C at
 * SIZE_BYTES; GENERATE: as a generator where the algorithm has one (only
 * for the executor: algorithm_generate). */
static schedule *build_schedule(const scenario *s, int c, const char *name, int channels, int g, double size_bytes,
                                bool generate, char *why, int why_size)
{
    const scenario_case *k = &s->cases[c];
    const topology *t = scenario_platform(s, k);
    const algorithm *algo = algorithm_find(k->prim, name);
    if (!algo) {
        snprintf(why, (size_t)why_size, "no %s algorithm '%s'", primitive_name(k->prim), name);
        return NULL;
    }
    int *order = malloc(sizeof(int) * (size_t)k->groups.size);
    algo_params p = case_params(s, c, name, channels, g, size_bytes, order);
    group_trees trees = {t, group_members(k, g)};
    p.inc_tree_of = sub_group_tree;
    p.inc_context = &trees;
    unsigned capabilities = algorithm_inc_capabilities(algo);
    schedule *built = NULL;
    inc_tree tree;
    if (!capabilities) built = generate ? algorithm_generate(algo, &p, why, why_size) : algorithm_build(algo, &p, why, why_size);
    else if (inc_tree_build(t, group_members(k, g), p.ranks, capabilities, &tree, why, why_size)) {
        p.alpha_s = t->tiers[tree.root_tier].alpha_switch_s; /* the tier the tree climbs to */
        p.inc = &tree;
        built = algorithm_build(algo, &p, why, why_size);
        inc_tree_free(&tree);
    }
    free(order);
    return built;
}

typedef struct support_check {
    const scenario *s;
    int c;
    double size_bytes;
} support_check;

/* tuner_supports: the schedule builds for every group of the case (its
 * generated form where there is one: built to be checked, not run). */
static bool case_supports(void *ctx, const char *name, int channels)
{
    const support_check *x = ctx;
    const scenario_case *k = &x->s->cases[x->c];
    const algorithm *algo = algorithm_find(k->prim, name);
    if (!algo) return false;
    int groups = per_group_schedules(k, name) ? k->groups.count : 1;
    for (int g = 0; g < groups; g++) {
        char why[512];
        schedule *built = build_schedule(x->s, x->c, name, channels, g, x->size_bytes, true, why, sizeof why);
        if (!built) return false;
        schedule_free(built);
    }
    return true;
}

/* What runs for algorithm A of case C at SIZE_BYTES: the case's own
 * algorithm, protocol and channels, or the tuner's pick when the algorithm
 * or the protocol is `auto`.  False when the tuner finds nothing. */
static bool choose(const scenario *s, int c, int a, double size_bytes, member *m)
{
    const scenario_case *k = &s->cases[c];
    const char *name = k->algorithms[a];
    int natural = natural_channels(scenario_platform(s, k), k);
    int channels = k->channels == CHANNELS_AUTO ? natural : k->channels > 1 ? k->channels : 1;
    bool auto_algorithm = strcmp(name, ALGORITHM_AUTO) == 0;
    m->tuned = auto_algorithm || k->protocol == PROTOCOL_AUTO;
    if (!m->tuned) {
        m->run = (tuner_choice){.protocol = k->protocol, .channels = channels};
        snprintf(m->run.algorithm, sizeof m->run.algorithm, "%s", name);
        return true;
    }
    int count = 1, options[2] = {channels, natural};
    const char *const *candidates = auto_algorithm ? tuner_candidates(k->prim, &count) : &name;
    int option_count = auto_algorithm && k->channels == 0 && natural > 1 ? 2 : 1;
    model_case base = scenario_model_case(s, c, name, k->protocol == PROTOCOL_NONE ? PROTOCOL_AUTO : k->protocol, 1,
                                          size_bytes, k->segments > 0 ? k->segments : 0);
    support_check ctx = {s, c, size_bytes};
    return tuner_pick(&base, candidates, count, options, option_count, case_supports, &ctx, &m->run);
}

static void report_unbuildable(const scenario *s, int c, int a, const char *why)
{
    const scenario_case *k = &s->cases[c];
    fprintf(stderr, "%s:%d:%d: %s %s cannot run on a group of %d ranks: %s; choose another algorithm or group size\n",
            s->path, k->groups_line, k->groups_column, primitive_name(k->prim), k->algorithms[a], k->groups.size, why);
}

static int largest_size(const scenario_case *k)
{
    int best = 0;
    for (int m = 1; m < k->size_count; m++)
        if (k->sizes[m] > k->sizes[best]) best = m;
    return best;
}

/* The schedule operations algorithm NAME of case C on CHANNELS channels
 * needs at its largest size over all its groups (algorithm_schedule_size). */
static double case_items(const scenario *s, int c, const char *name, int channels)
{
    const scenario_case *k = &s->cases[c];
    const algorithm *algo = algorithm_find(k->prim, name);
    if (!algo) return 0;
    algo_params p = case_params(s, c, name, channels, 0, k->sizes[largest_size(k)], NULL);
    return algorithm_schedule_size(algo, &p) * k->groups.count;
}

/* The same for algorithm A of case C, or under `auto` the largest of the
 * tuner's candidates on the channels it may pick. */
static double algorithm_items(const scenario *s, int c, int a)
{
    const scenario_case *k = &s->cases[c];
    int natural = natural_channels(scenario_platform(s, k), k);
    int channels = k->channels == CHANNELS_AUTO ? natural : k->channels > 1 ? k->channels : 1;
    if (strcmp(k->algorithms[a], ALGORITHM_AUTO) != 0) return case_items(s, c, k->algorithms[a], channels);
    int count;
    const char *const *candidates = tuner_candidates(k->prim, &count);
    double most = 0;
    for (int i = 0; i < count; i++) {
        double items = case_items(s, c, candidates[i], channels > natural ? channels : natural);
        if (items > most) most = items;
    }
    return most;
}

/* The k-th algorithms of a concurrent block (all their groups) in one
 * simulation within SCHEDULE_MAX_ITEMS, estimated before anything is built,
 * and, when simulated, on at most SIM_MAX_HOSTS hosts. */
static bool check_sizes(const scenario *s, int first, run_mode mode)
{
    const scenario_case *lead = &s->cases[first];
    for (int a = 0; a < lead->algorithm_count; a++) {
        double items = 0;
        for (int c = first; c < first + lead->together_count; c++) items += algorithm_items(s, c, a);
        if (items <= (double)SCHEDULE_MAX_ITEMS) continue;
        fprintf(stderr, "%s:%d:%d: %s %s on %d group(s) of %d ranks%s would need about %.3g schedule operations; collsim "
                "builds at most %ld per simulation (docs/reliability.md): use fewer or smaller groups%s\n", s->path,
                lead->groups_line, lead->groups_column, primitive_name(lead->prim), lead->algorithms[a],
                lead->groups.count, lead->groups.size, lead->together_count > 1 ? " and its concurrent cases" : "", items,
                SCHEDULE_MAX_ITEMS, lead->segments ? " or fewer segments" : " or another algorithm");
        return false;
    }
    double hosts = 0;
    for (int c = first; c < first + lead->together_count; c++) hosts += (double)s->cases[c].groups.count * s->cases[c].groups.size;
    if (mode == MODE_RUN && hosts > SIM_MAX_HOSTS) {
        fprintf(stderr, "%s:%d:%d: %d group(s) of %d ranks%s place %.0f ranks in one simulation; collsim simulates at "
                "most %d at once (SimGrid's routing table grows as their square, docs/reliability.md): use fewer or "
                "smaller groups, or collsim predict\n", s->path, lead->groups_line, lead->groups_column, lead->groups.count,
                lead->groups.size, lead->together_count > 1 ? " and its concurrent cases" : "", hosts, SIM_MAX_HOSTS);
        return false;
    }
    return true;
}

/* Every algorithm of every case must accept its groups, before anything runs
 * (generated forms where there are: nothing stored only to be freed). */
static bool check_cases(const scenario *s, run_mode mode)
{
    for (int c = 0; c < s->case_count; c++)
        if (s->cases[c].together_first == c && !check_sizes(s, c, mode)) return false;
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        for (int a = 0; a < k->algorithm_count; a++) {
            char why[512] = "";
            member m = {0};
            if (!choose(s, c, a, k->sizes[0], &m)) {
                report_unbuildable(s, c, a, "the tuner found no algorithm the group supports");
                return false;
            }
            int groups = per_group_schedules(k, m.run.algorithm) ? k->groups.count : 1;
            for (int g = 0; g < groups; g++) {
                schedule *sched = build_schedule(s, c, m.run.algorithm, m.run.channels, g, k->sizes[0], true, why,
                                                  sizeof why);
                if (!sched) {
                    report_unbuildable(s, c, a, why);
                    return false;
                }
                schedule_free(sched);
            }
        }
    }
    return true;
}

static void free_member(member *m, int groups)
{
    if (m->scheds)
        for (int g = 0; g < groups; g++)
            if (g == 0 || m->scheds[g] != m->scheds[0]) schedule_free(m->scheds[g]);
    if (m->nodes)
        for (int g = 0; g < groups; g++) free(m->nodes[g]);
    if (m->results)
        for (int g = 0; g < groups; g++) exec_result_free(&m->results[g]);
    free(m->scheds);
    free(m->nodes);
    free(m->weights);
    free(m->results);
    m->scheds = NULL;
    m->nodes = NULL;
    m->weights = NULL;
    m->results = NULL;
}

static void free_task_work(const scenario *s, task *t)
{
    for (int i = 0; i < t->member_count; i++) free_member(&t->members[i], s->cases[t->members[i].c].groups.count);
    free(t->parts);
    t->parts = NULL;
}

/* Build, verify and predict one member; exit status. */
static int prepare_member(const scenario *s, const run_settings *o, member *m)
{
    const scenario_case *k = &s->cases[m->c];
    int groups = k->groups.count;
    char why[512] = "";
    if (!choose(s, m->c, m->a, m->size_bytes, m)) {
        report_unbuildable(s, m->c, m->a, "the tuner found no algorithm the group supports");
        return 2;
    }
    m->scheds = calloc((size_t)groups, sizeof *m->scheds);
    m->nodes = calloc((size_t)groups, sizeof *m->nodes);
    bool per_group = per_group_schedules(k, m->run.algorithm);
    for (int g = 0; g < groups; g++) {
        m->scheds[g] = g == 0 || per_group ? build_schedule(s, m->c, m->run.algorithm, m->run.channels, g, m->size_bytes,
                                                            !o->verify, why, sizeof why)
                                           : m->scheds[0];
        if (!m->scheds[g]) {
            report_unbuildable(s, m->c, m->a, why);
            return 2;
        }
        m->nodes[g] = exec_actor_nodes(m->scheds[g], group_members(k, g));
    }
    if (o->verify) {
        if (!schedule_verifiable(m->scheds[0], why, sizeof why)) {
            fprintf(stderr, "%s:%d:%d: cannot verify %s %s on %d ranks: %s; verify a smaller group\n", s->path,
                    k->groups_line, k->groups_column, primitive_name(k->prim), m->run.algorithm, k->groups.size, why);
            return 2;
        }
        bool ok = schedule_verify(m->scheds[0], why, sizeof why);
        char size[32];
        units_format(m->size_bytes, UNIT_SIZE, size, sizeof size);
        if (!o->quiet || !ok)
            fprintf(stderr, "verify case %d %s %s on %d ranks, %s (P = %d): %s%s\n", m->c, primitive_name(k->prim),
                    m->run.algorithm, k->groups.size, size, m->scheds[0]->segments, ok ? "ok" : "FAILED: ", ok ? "" : why);
        if (!ok) return 1;
    }
    if (o->mode == MODE_VERIFY) return 0;
    model_case mc = scenario_model_case(s, m->c, m->run.algorithm, m->run.protocol, m->run.channels, m->size_bytes,
                                        m->scheds[0]->segments);
    if (!model_predict(&mc, &m->pr, why, sizeof why)) {
        fprintf(stderr, "%s:%d:1: no prediction for %s %s: %s\n", s->path, k->line, primitive_name(k->prim),
                m->run.algorithm, why);
        return 2;
    }
    m->weights = k->prim == PRIM_ALLTOALL ? skew_block_weights(&k->skew, k->groups.size) : NULL;
    return 0;
}

/* ROW's message latencies over all of case K's groups (RESULTS), and the
 * spread of its slowest group's rank finishes (ROW->group). */
static void add_message_views(const scenario_case *k, const exec_result *results, result_row *row)
{
    double **latency = malloc(sizeof *latency * (size_t)k->groups.count);
    long *messages = malloc(sizeof *messages * (size_t)k->groups.count);
    for (int g = 0; g < k->groups.count; g++) {
        latency[g] = results[g].latency_s; /* sorted in place: nothing reads their order after this */
        messages[g] = results[g].messages;
    }
    latency_summary l = latency_summarize_parts(latency, messages, k->groups.count);
    free(latency);
    free(messages);
    row->messages = l.count;
    row->latency_p50_s = l.p50_s;
    row->latency_p99_s = l.p99_s;
    row->latency_max_s = l.max_s;
    const exec_result *slowest = &results[row->group];
    double first = slowest->rank_finish_s[0], last = first;
    for (int r = 1; r < slowest->ranks; r++) {
        first = fmin(first, slowest->rank_finish_s[r]);
        last = fmax(last, slowest->rank_finish_s[r]);
    }
    row->rank_spread_s = last - first;
}

/* A report row: the prediction, and the simulation of the member's slowest
 * group when simulated (each term timed by its schedule phase). */
static result_row make_row(const scenario *s, const member *m)
{
    const scenario_case *k = &s->cases[m->c];
    const topology *platform = scenario_platform(s, k);
    const prediction *pr = &m->pr;
    const exec_result *slowest = NULL;
    double fastest = 0;
    int group = 0;
    for (int g = 0; m->results && g < k->groups.count; g++) {
        if (!slowest || m->results[g].time_s > slowest->time_s) {
            slowest = &m->results[g];
            group = g;
        }
        if (g == 0 || m->results[g].time_s < fastest) fastest = m->results[g].time_s;
    }
    result_row row = {.case_index = m->c, .prim = k->prim, .group = group, .groups = k->groups.count,
                      .block_first = k->together_first, .block_count = k->together_count, .ranks = k->groups.size,
                      .size_bytes = m->size_bytes, .segments = m->scheds[0]->segments, .simulated = slowest != NULL,
                      .predicted_s = pr->time_s, .ideal_s = pr->ideal_s, .n_alpha = pr->n_alpha, .n_beta = pr->n_beta,
                      .alpha_s = pr->alpha_s, .bandwidth_Bps = pr->bandwidth_Bps, .term_count = pr->term_count};
    snprintf(row.algorithm, sizeof row.algorithm, "%s", m->run.algorithm);
    snprintf(row.protocol, sizeof row.protocol, "%s", protocol_name(m->run.protocol));
    row.channels = m->run.channels;
    row.tuned = m->tuned;
    row.launch_s = pr->launch_s;
    snprintf(row.platform, sizeof row.platform, "%s", platform->name);
    snprintf(row.layout, sizeof row.layout, "%s", k->groups.layout);
    if (k->prim == PRIM_ALLTOALL && k->skew.kind != SKEW_UNIFORM) snprintf(row.skew, sizeof row.skew, "%s", k->skew.text);
    const scenario_case *traffic = scenario_background_case(s, k);
    snprintf(row.background, sizeof row.background, "%s", traffic ? traffic->background_text : "");
    row.background_load = traffic ? traffic->background.load : NAN;
    for (int i = 0; i < pr->term_count && i < REPORT_MAX_TERMS; i++) {
        const model_term *t = &pr->terms[i];
        row_term *out = &row.terms[i];
        snprintf(out->tier, sizeof out->tier, "%s", platform->tiers[t->tier].name);
        snprintf(out->label, sizeof out->label, "%s", t->label);
        out->n_alpha = t->n_alpha;
        out->n_beta = t->n_beta;
        out->alpha_s = t->alpha_s;
        out->bandwidth_Bps = t->bandwidth_Bps;
        out->predicted_s = model_term_time(t, m->size_bytes, true);
        out->time_s = -1;
        if (slowest && t->phase >= 0 && t->phase < SCHED_MAX_PHASES)
            out->time_s = slowest->phase_end_s[t->phase] - (t->phase > 0 ? slowest->phase_end_s[t->phase - 1] : 0);
    }
    if (slowest) add_message_views(k, m->results, &row);
    double t = slowest ? slowest->time_s : pr->time_s;
    row.time_s = slowest ? slowest->time_s : 0;
    row.time_fastest_s = slowest ? fastest : 0;
    row.ratio = slowest && pr->time_s > 0 ? slowest->time_s / pr->time_s : 0;
    row.algbw_Bps = t > 0 ? m->size_bytes / t : 0; /* 01 App. D */
    row.busbw_Bps = row.algbw_Bps * primitive_busbw_factor(k->prim, k->groups.size);
    return row;
}

/* Before a fluid-model simulation whose concurrent parts SimGrid's solver
 * couples past what it finished in about a minute (coupling.h): say so, and
 * which model will finish. */
static void note_coupling(const run_settings *o, network_model model, const topology *t, const exec_part *parts,
                          int count, const char *label)
{
    if (o->quiet || model == NETWORK_PACKET || count < 2) return;
    coupling c = exec_coupling(t, parts, count);
    if (c.flows <= FLUID_COUPLED_FLOWS_MAX) return;
    fprintf(stderr, "collsim: note: %s: %d concurrent groups with %ld flows share links as one max-min system, which "
            "SimGrid's fluid model (%s) solves again at every flow event; past %d such flows it took from a minute "
            "(2560) to more than ten (4096). The packet model finishes such runs sooner: its cost grows with the "
            "bytes moved, not with the coupling (--model packet; 4096 flows of 16 MB groups: under 3 minutes of CPU, "
            "docs/scale.md)\n",
            label, c.parts, c.flows, network_model_name(model), FLUID_COUPLED_FLOWS_MAX);
}

/* Prepare task T's members and, under run, start its simulation; exit status. */
static int start_task(const scenario *s, const run_settings *o, task *t, const sim_options *sim)
{
    const scenario_case *first = &s->cases[t->first];
    t->member_count = first->together_count;
    t->members = calloc((size_t)t->member_count, sizeof *t->members);
    t->rows = calloc((size_t)t->member_count, sizeof *t->rows);
    int parts = 0, status = 0;
    for (int i = 0; i < t->member_count && status == 0; i++) {
        member *m = &t->members[i];
        m->c = t->first + i;
        m->a = t->a;
        m->size_bytes = s->cases[m->c].sizes[t->m];
        status = prepare_member(s, o, m);
        parts += s->cases[m->c].groups.count;
    }
    if (status != 0 || o->mode != MODE_RUN) return status;
    t->parts = calloc((size_t)parts, sizeof *t->parts);
    int n = 0;
    for (int i = 0; i < t->member_count; i++) {
        member *m = &t->members[i];
        endpoint_costs costs;
        model_case mc = scenario_model_case(s, m->c, m->run.algorithm, m->run.protocol, m->run.channels, m->size_bytes, 0);
        char why[256];
        if (!model_case_costs(&mc, &costs, why, sizeof why)) { /* the algorithm has no formula: no steps, no cap */
            int tier = model_group_tier(&mc);
            endpoint_costs_of(mc.platform, calibrated_group_for(mc.platform, mc.prim, tier), m->run.algorithm,
                              m->run.protocol, tier, &costs);
        }
        for (int g = 0; g < s->cases[m->c].groups.count; g++) {
            exec_part *part = &t->parts[n++];
            *part = (exec_part){m->scheds[g], m->nodes[g], m->size_bytes, m->weights, costs.launch_s, {0},
                                costs.wire_numerator, costs.wire_denominator};
            memcpy(part->overhead_s, costs.overhead_s, sizeof part->overhead_s);
        }
    }
    diag d = {0};
    char label[160], size[32];
    units_format(first->sizes[t->m], UNIT_SIZE, size, sizeof size);
    snprintf(label, sizeof label, "case %d%s (%s %s at %s)", t->first, t->member_count > 1 ? " and its concurrent cases" : "",
             primitive_name(first->prim), t->members[0].run.algorithm, size);
    sim_options with = *sim;
    const scenario_case *traffic = scenario_background_case(s, first);
    with.background = traffic ? &traffic->background : NULL;
    note_coupling(o, with.model, scenario_platform(s, first), t->parts, parts, label);
    t->run = exec_start(scenario_platform(s, first), t->parts, parts, &with, label, &d);
    if (!t->run) {
        diag_print(&d);
        return 3;
    }
    return 0;
}

/* The link view of task T's simulation on every row it made: its busiest
 * links, and all of them when ALL_LINKS. */
static void add_link_views(const scenario *s, const run_settings *o, task *t)
{
    const topology *platform = scenario_platform(s, &s->cases[t->first]);
    for (int i = 0; i < t->member_count; i++)
        for (int g = 0; g < s->cases[t->members[i].c].groups.count; g++)
            t->end_s = fmax(t->end_s, t->members[i].results[g].time_s);
    link_row *all = malloc(sizeof *all * (size_t)(2 * platform->link_count + 1));
    bool packet = scenario_network(s, o->sim.model) == NETWORK_PACKET;
    int count = links_view(platform, t->views.links, t->end_s, packet, all);
    for (int i = 0; i < t->member_count; i++) {
        result_row *row = &t->rows[i];
        row->hot_count = links_hottest(all, count, row->hot, REPORT_HOT_LINKS);
        if (!o->all_links) continue;
        row->links = malloc(sizeof *row->links * (size_t)(count + 1));
        memcpy(row->links, all, sizeof *all * (size_t)count);
        row->link_count = count;
    }
    free(all);
}

/* Collect task T (when it was simulated) and make its rows; exit status. */
static int finish_task(const scenario *s, const run_settings *o, task *t, bool keep)
{
    int status = 0;
    if (t->run) {
        int parts = 0;
        for (int i = 0; i < t->member_count; i++) parts += s->cases[t->members[i].c].groups.count;
        exec_result *results = calloc((size_t)parts, sizeof *results);
        diag d = {0};
        if (!exec_finish(t->run, results, &t->views, &d)) {
            if (keep) diag_print(&d);
            status = 3; /* the input was valid: the simulation failed (docs/reliability.md) */
        }
        t->run = NULL;
        for (int i = 0, n = 0; i < t->member_count; i++) {
            member *m = &t->members[i];
            int groups = s->cases[m->c].groups.count;
            m->results = calloc((size_t)groups, sizeof *m->results);
            if (status == 0) memcpy(m->results, results + n, sizeof *results * (size_t)groups);
            n += groups;
        }
        free(results);
    }
    if (status == 0 && keep) {
        for (int i = 0; i < t->member_count; i++) t->rows[i] = make_row(s, &t->members[i]);
        if (t->views.links) add_link_views(s, o, t);
    }
    exec_views_free(&t->views);
    free_task_work(s, t);
    return status;
}


/* Where each pair of case C's algorithms cross, at their largest-size
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

/* Rows in the scenario's order: case, algorithm, size; then crossovers. */
static void add_rows(const scenario *s, const task *tasks, int task_count, report *r)
{
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        prediction largest[SCENARIO_MAX_ALGORITHMS];
        for (int i = 0; i < task_count; i++) {
            const task *t = &tasks[i];
            if (t->first != k->together_first) continue;
            const result_row *row = &t->rows[c - t->first];
            report_add(r, row);
            if (t->m == largest_size(k)) largest[t->a] = t->members[c - t->first].pr;
        }
        add_crossovers(r, c, k, largest);
    }
}

/* "case 1 allreduce dbt 4 MB" (and the concurrent cases of its block). */
static void describe_task(const scenario *s, const task *t, char *out, size_t size)
{
    const scenario_case *k = &s->cases[t->first];
    char bytes[32];
    units_format(k->sizes[t->m], UNIT_SIZE, bytes, sizeof bytes);
    int used = snprintf(out, size, "case %d", t->first);
    for (int c = t->first + 1; c < t->first + k->together_count && used < (int)size; c++)
        used += snprintf(out + used, size - (size_t)used, "+%d", c);
    if (used < (int)size)
        snprintf(out + used, size - (size_t)used, " %s %s %s", primitive_name(k->prim), k->algorithms[t->a], bytes);
}

/* A case on a calibrated platform without a group of its own primitive and tier is told, on
 * standard error, which group stands in (model/protocol.c, docs/model.md). */
static void note_calibrated_stand_ins(const scenario *s)
{
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        const topology *t = scenario_platform(s, k);
        if (t->calibrated_count == 0 || k->size_count == 0) continue;
        model_case mc = scenario_model_case(s, c, k->algorithms[0], PROTOCOL_AUTO, 1, k->sizes[0], 0);
        int tier = model_group_tier(&mc);
        const calibrated_group *g = calibrated_group_for(t, k->prim, tier);
        if ((g->prim < 0 || g->prim == (int)k->prim) && (g->tier < 0 || g->tier == tier)) continue;
        fprintf(stderr, "%s:%d:1: note: %s on groups of %d ranks (tier %d) has no calibrated group of its own on %s: it "
                "takes the group of %s, tier %d (docs/model.md, \"Calibrated protocols\"); calibrate with its own logs to fit it\n",
                s->path, k->line, primitive_name(k->prim), k->groups.size, tier, t->name,
                g->prim < 0 ? "every collective" : primitive_name((primitive)g->prim), g->tier < 0 ? tier : g->tier);
    }
}

#define TRACE_SAMPLES 1000 /* per queue, evenly over the simulation */

/* Simulate task FIRST (already run) again, keeping every op's times and
 * sampling the queues of its busiest links (packet model), and write it as
 * a trace to o->trace_path; exit status. */
static int write_trace(const scenario *s, const run_settings *o, const sim_options *base, const task *first)
{
    run_settings quiet = *o;
    quiet.verify = false;
    task t = {.first = first->first, .a = first->a, .m = first->m};
    const link_row *hot = first->rows[0].hot;
    int hot_count = base->model == NETWORK_PACKET ? first->rows[0].hot_count : 0;
    int ports[REPORT_HOT_LINKS];
    for (int i = 0; i < hot_count; i++) ports[i] = hot[i].port;
    queue_sampling sampling = {ports, hot_count, first->end_s / (TRACE_SAMPLES - 1), TRACE_SAMPLES};
    sim_options sim = *base;
    sim.keep_op_times = true;
    sim.queue_samples = hot_count ? &sampling : NULL;
    int status = start_task(s, &quiet, &t, &sim);
    int parts = 0;
    for (int i = 0; i < t.member_count; i++) parts += s->cases[t.first + i].groups.count;
    exec_result *results = calloc((size_t)parts + 1, sizeof *results);
    trace_part *traced = calloc((size_t)parts + 1, sizeof *traced);
    diag d = {0};
    if (status == 0 && !exec_finish(t.run, results, &t.views, &d)) status = 2;
    for (int i = 0, n = 0; status == 0 && i < t.member_count; i++) {
        const scenario_case *k = &s->cases[t.members[i].c];
        char size[32];
        units_format(t.members[i].size_bytes, UNIT_SIZE, size, sizeof size);
        for (int g = 0; g < k->groups.count; g++, n++) {
            const exec_part *part = &t.parts[n];
            trace_part *p = &traced[n];
            *p = (trace_part){part->s, part->actor_nodes, results[n].op_times, NULL, ""};
            snprintf(p->label, sizeof p->label, "case %d %s %s %s, group %d", t.members[i].c, primitive_name(k->prim),
                     k->algorithms[t.a], size, g);
            long ops = 0;
            for (int a = 0; a < part->s->actors; a++) ops += part->s->actor[a].op_count;
            double *bytes = malloc(sizeof *bytes * (size_t)(ops + 1));
            for (int a = 0, j = 0; a < part->s->actors; a++)
                for (int op = 0; op < part->s->actor[a].op_count; op++) bytes[j++] = exec_op_bytes(part, a, op);
            p->op_bytes = bytes;
        }
    }
    if (status == 0) {
        char title[256], model[64];
        snprintf(title, sizeof title, "collsim %s, network model %s", s->name, network_label(base, model, sizeof model));
        trace tr = {scenario_platform(s, &s->cases[t.first]), title, traced, parts, hot, t.views.queue_bytes,
                    hot_count, TRACE_SAMPLES, sampling.interval_s};
        if (!trace_write(&tr, o->trace_path, &d)) status = 2;
    }
    if (status != 0 && d.set) diag_print(&d);
    for (int n = 0; n < parts; n++) {
        free((double *)traced[n].op_bytes);
        exec_result_free(&results[n]);
    }
    free(traced);
    free(results);
    exec_views_free(&t.views);
    free_task_work(s, &t);
    free(t.members);
    free(t.rows);
    return status;
}

int run_cases(const scenario *s, const run_settings *o, report *r)
{
    if (!check_cases(s, o->mode)) return 2;
    static char label[64]; /* the report keeps it to the end: one run per process */
    sim_options sim = o->sim;
    sim.model = scenario_network(s, o->sim.model);
    if (o->mode == MODE_RUN && o->ties_given && sim.model != NETWORK_PACKET) {
        fprintf(stderr, "collsim run: --ties orders the packet model's events at one attosecond; this run uses the %s "
                "model: add --model packet, or drop --ties\n", network_model_name(sim.model));
        return 2;
    }
    if (!o->quiet) note_calibrated_stand_ins(s);
    diag d = {0};
    if (o->mode == MODE_RUN && !simgrid_check_options(&o->sim, &d)) {
        diag_print(&d);
        return 2;
    }
    if (o->mode == MODE_RUN) r->model = network_label(&sim, label, sizeof label); /* every row's model */
    int task_count = 0;
    for (int c = 0; c < s->case_count; c++)
        if (s->cases[c].together_first == c) task_count += s->cases[c].algorithm_count * s->cases[c].size_count;
    task *tasks = calloc((size_t)task_count + 1, sizeof *tasks);
    for (int c = 0, n = 0; c < s->case_count; c++)
        if (s->cases[c].together_first == c)
            for (int a = 0; a < s->cases[c].algorithm_count; a++)
                for (int m = 0; m < s->cases[c].size_count; m++) tasks[n++] = (task){.first = c, .a = a, .m = m};
    int status = 0, started = 0, finished = 0;
    int jobs = o->mode == MODE_RUN && o->jobs > 1 ? o->jobs : 1;
    progress bar;
    progress_start(&bar, o->progress, task_count);
    while (finished < task_count) {
        if (status == 0 && started < task_count && started - finished < jobs) {
            progress_clear(&bar); /* verification lines and notes print on a line of their own */
            status = start_task(s, o, &tasks[started++], &sim);
            continue;
        }
        char current[160];
        describe_task(s, &tasks[finished], current, sizeof current);
        if (status == 0) progress_show(&bar, finished, current);
        int done = finish_task(s, o, &tasks[finished++], status == 0);
        if (status == 0) status = done;
        if (status != 0 && started == finished) break;
    }
    for (int i = finished; i < started; i++) finish_task(s, o, &tasks[i], false);
    if (status == 0) progress_show(&bar, finished, NULL);
    progress_clear(&bar);
    if (status == 0 && o->mode != MODE_VERIFY) add_rows(s, tasks, task_count, r);
    bool rows_reported = status == 0 && o->mode != MODE_VERIFY; /* the report owns their link lists */
    if (status == 0 && o->mode == MODE_RUN && o->trace_path && task_count > 0) status = write_trace(s, o, &sim, &tasks[0]);
    for (int i = 0; i < task_count; i++) {
        for (int k = 0; !rows_reported && tasks[i].rows && k < tasks[i].member_count; k++) free(tasks[i].rows[k].links);
        free(tasks[i].members);
        free(tasks[i].rows);
    }
    free(tasks);
    return status;
}
