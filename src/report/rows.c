/* rows.c — a report row from a member of a simulation: the prediction's
 * figures and terms, the slowest group's time (and the fastest's), each
 * term's phase time, the latencies of every message of every group, the
 * spread of the slowest group's rank finishes, algbw and busbw (01 App. D);
 * the link view of the simulation; the crossovers of a case. */
#include "report/rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/contention.h"
#include "exec/op_times.h"
#include "report/links.h"

/* ROW's message latencies over all of case K's groups (RESULTS), and the
 * spread of its slowest group's rank finishes (ROW->group). */
static void add_message_views(const scenario_case *k, const exec_result *results, result_row *row)
{
    double **latency = malloc(sizeof *latency * (size_t)k->groups.count);
    long *messages = malloc(sizeof *messages * (size_t)k->groups.count);
    for (int g = 0; g < k->groups.count; g++) {
        latency[g] = results[g].latency_s;
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

/* ROW's terms: each of the prediction's, timed by its schedule phase in the
 * SLOWEST group when simulated. */
static void add_terms(const topology *platform, const plan_member *m, const exec_result *slowest, result_row *row)
{
    const prediction *pr = &m->pr;
    for (int i = 0; i < pr->term_count && i < REPORT_MAX_TERMS; i++) {
        const model_term *t = &pr->terms[i];
        row_term *out = &row->terms[i];
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
}

/* Whether a message of any of M's groups took longer than alone on its route
 * (before the latencies are sorted). */
static bool member_contended(const scenario *s, const plan_member *m)
{
    const scenario_case *k = &s->cases[m->c];
    bool contended = false;
    for (int g = 0; g < k->groups.count && !contended; g++) {
        exec_part part = {m->scheds[g], m->nodes[g], m->size_bytes, m->weights, m->costs.launch_s, {0},
                          m->costs.wire_numerator, m->costs.wire_denominator, k->virtual_lane};
        contended = analysis_contended(scenario_platform(s, k), &part, m->results[g].latency_s, 1e-9);
    }
    return contended;
}

result_row rows_make(const scenario *s, const plan_member *m, bool lone_exact)
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
                      .size_bytes = m->size_bytes, .segments = m->segments, .simulated = slowest != NULL,
                      .predicted_s = pr->time_s, .ideal_s = pr->ideal_s, .n_alpha = pr->n_alpha, .n_beta = pr->n_beta,
                      .alpha_s = pr->alpha_s, .bandwidth_Bps = pr->bandwidth_Bps, .term_count = pr->term_count};
    snprintf(row.algorithm, sizeof row.algorithm, "%s", m->run.algorithm->name);
    if (m->run.algorithm->composition == COMPOSITION_HIERARCHICAL || m->run.algorithm->composition == COMPOSITION_PIPELINED) {
        snprintf(row.inner, sizeof row.inner, "%s", k->inner[0] ? k->inner : "ring");
        snprintf(row.outer, sizeof row.outer, "%s", k->outer[0] ? k->outer : "ring");
    }
    snprintf(row.protocol, sizeof row.protocol, "%s", protocol_name(m->run.protocol));
    row.channels = m->run.channels;
    row.tuned = m->tuned;
    row.auto_pick = k->records[m->a] == NULL;
    row.launch_s = pr->launch_s;
    snprintf(row.platform, sizeof row.platform, "%s", platform->name);
    snprintf(row.layout, sizeof row.layout, "%s", k->groups.layout);
    if (k->prim == PRIM_ALLTOALL && k->skew.kind != SKEW_UNIFORM) snprintf(row.skew, sizeof row.skew, "%s", k->skew.text);
    const scenario_case *traffic = scenario_background_case(s, k);
    snprintf(row.background, sizeof row.background, "%s", traffic ? traffic->background_text : "");
    row.background_load = traffic ? traffic->background.load : NAN;
    add_terms(platform, m, slowest, &row);
    row.contended = slowest && lone_exact ? member_contended(s, m) : -1;
    snprintf(row.calibration, sizeof row.calibration, "%s",
             m->calibration == PLAN_FITTED ? "fitted" : m->calibration == PLAN_NOT_COVERED ? "not covered" : "");
    if (slowest) add_message_views(k, m->results, &row);
    double t = slowest ? slowest->time_s : pr->time_s;
    row.time_s = slowest ? slowest->time_s : 0;
    row.time_fastest_s = slowest ? fastest : 0;
    row.ratio = slowest && pr->time_s > 0 ? slowest->time_s / pr->time_s : 0;
    row.algbw_Bps = t > 0 ? m->size_bytes / t : 0; /* 01 App. D */
    row.busbw_Bps = row.algbw_Bps * primitive_busbw_factor(k->prim, k->groups.size);
    return row;
}

void rows_add_link_views(const topology *t, const net_link_stats *stats, double end_s, bool packet, bool all_links,
                         result_row *rows, int count)
{
    link_row *all = malloc(sizeof *all * (size_t)(2 * t->link_count + 1));
    int links = links_view(t, stats, end_s, packet, all);
    for (int i = 0; i < count; i++) {
        result_row *row = &rows[i];
        row->hot_count = links_hottest(all, links, row->hot, REPORT_HOT_LINKS);
        if (!all_links) continue;
        row->links = malloc(sizeof *row->links * (size_t)(links + 1));
        memcpy(row->links, all, sizeof *all * (size_t)links);
        row->link_count = links;
    }
    free(all);
}

void rows_add_crossovers(report *r, int c, const scenario_case *k, const prediction *largest)
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
