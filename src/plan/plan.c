/* plan.c — a simulation's members prepared (chosen, built, verified,
 * predicted) and turned into executor parts, and the checks made before
 * anything runs: the schedule-size and host limits (docs/reliability.md)
 * and every algorithm building on its groups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/coupling.h"
#include "plan/plan.h"
#include "sched/local_ops.h"
#include "sched/verify.h"
#include "util/units.h"

int plan_largest_size(const scenario_case *k)
{
    int best = 0;
    for (int m = 1; m < k->size_count; m++)
        if (k->sizes[m] > k->sizes[best]) best = m;
    return best;
}

static bool unbuildable(const scenario *s, int c, int a, const char *why, diag *d)
{
    const scenario_case *k = &s->cases[c];
    return diag_at(d, s->path, k->groups_line, k->groups_column, "%s %s cannot run on a group of %d ranks: %s; choose "
                   "another algorithm or group size", primitive_name(k->prim), k->algorithms[a], k->groups.size, why);
}

static void report_unbuildable(const scenario *s, int c, int a, const char *why)
{
    diag d = {0};
    unbuildable(s, c, a, why, &d);
    diag_print(&d);
}

/* The schedule operations algorithm A of case C needs at SIZE_BYTES, or
 * under `auto` the largest of the tuner's candidates on the channels it may
 * pick. */
static double algorithm_items(const scenario *s, int c, int a, double size_bytes, bool generated)
{
    const scenario_case *k = &s->cases[c];
    int natural = plan_natural_channels(scenario_platform(s, k), k);
    int channels = k->channels == CHANNELS_AUTO ? natural : k->channels > 1 ? k->channels : 1;
    if (k->channels == 0 && scenario_platform(s, k)->library != LIBRARY_NONE) channels = natural; /* the library's */
    if (k->records[a])
        return plan_schedule_items_at(s, c, k->records[a], algorithm_takes_channels(k->records[a]) ? channels : 1,
                                      size_bytes, generated);
    const algorithm *candidates[TUNER_MAX_CANDIDATES];
    int count = tuner_candidates(k->prim, scenario_platform(s, k)->library, candidates);
    double most = 0;
    for (int i = 0; i < count; i++) {
        double items = plan_schedule_items_at(s, c, candidates[i], channels > natural ? channels : natural, size_bytes,
                                              generated);
        if (items > most) most = items;
    }
    return most;
}

/* Whether the prediction of RUN in case C reads its schedule rather than a
 * closed form (model_needs_schedule). */
static bool predicted_from_schedule(const scenario *s, int c, const tuner_choice *run, double size_bytes)
{
    model_case mc = scenario_model_case(s, c, run->algorithm, run->protocol, run->channels, size_bytes, 0);
    return model_needs_schedule(&mc);
}

/* Whether algorithm A of case C may be predicted from its schedule: so on
 * one channel, or under `auto` one of the tuner's candidates is. */
static bool may_need_schedule(const scenario *s, int c, int a)
{
    const scenario_case *k = &s->cases[c];
    const algorithm *candidates[TUNER_MAX_CANDIDATES];
    int count = 1;
    if (k->records[a]) candidates[0] = k->records[a];
    else count = tuner_candidates(k->prim, scenario_platform(s, k)->library, candidates);
    for (int i = 0; i < count; i++) {
        tuner_choice run = {.algorithm = candidates[i], .protocol = k->protocol, .channels = 1};
        if (predicted_from_schedule(s, c, &run, k->sizes[0])) return true;
    }
    return false;
}

/* The k-th algorithms of a concurrent block (all their groups) in one
 * simulation within SCHEDULE_MAX_ITEMS, estimated before anything is built
 * (under MODE_PREDICT only what its prediction reads the schedule of:
 * closed forms need none), and, when simulated under MODEL, on at most the
 * actors it holds (network_max_actors). */
static bool check_sizes(const scenario *s, int first, run_mode mode, network_model model, diag *d)
{
    const scenario_case *lead = &s->cases[first];
    for (int a = 0; a < lead->algorithm_count; a++) {
        double items = 0;
        for (int c = first; c < first + lead->together_count; c++)
            if (mode != MODE_PREDICT || may_need_schedule(s, c, a))
                items += algorithm_items(s, c, a, s->cases[c].sizes[plan_largest_size(&s->cases[c])], mode == MODE_RUN);
        if (items <= (double)SCHEDULE_MAX_ITEMS) continue;
        return diag_at(d, s->path, lead->groups_line, lead->groups_column, "%s %s on %d group(s) of %d ranks%s would need "
                "about %.3g schedule operations; collsim builds at most %ld per simulation%s (docs/reliability.md): use "
                "fewer or smaller groups%s", primitive_name(lead->prim), lead->algorithms[a],
                lead->groups.count, lead->groups.size, lead->together_count > 1 ? " and its concurrent cases" : "", items,
                SCHEDULE_MAX_ITEMS, mode == MODE_PREDICT ? ", and this prediction reads the schedule (an imported "
                "algorithm, or NCCL's tree over full-mesh nodes on one channel: its critical path, docs/model.md)" : "",
                lead->segments ? " or fewer segments" : " or another algorithm");
    }
    double hosts = 0;
    for (int c = first; c < first + lead->together_count; c++) hosts += (double)s->cases[c].groups.count * s->cases[c].groups.size;
    double most = network_max_actors(scenario_network(s, model));
    if (mode == MODE_RUN && hosts > most)
        return diag_at(d, s->path, lead->groups_line, lead->groups_column, "%d group(s) of %d ranks%s place %.0f ranks in "
                "one simulation; the fluid model simulates at most %.0f at once (a SimGrid actor per rank, two memory "
                "mappings each within vm.max_map_count, docs/reliability.md): use fewer or smaller groups, --model "
                "packet, or collsim predict",
                lead->groups.count, lead->groups.size, lead->together_count > 1 ? " and its concurrent cases" : "", hosts,
                most);
    return true;
}

/* Case C's algorithm A found no choice at SIZE_BYTES: a named algorithm says why its schedule does not
 * build (on one channel; predicting: why algorithm_segments refuses it), `auto` that nothing the group
 * supports was found; false. */
static bool report_no_choice(const scenario *s, int c, int a, double size_bytes, run_mode mode, diag *d)
{
    const algorithm *named = s->cases[c].records[a];
    char why[512] = "the tuner found no algorithm the group supports";
    bool builds = false;
    if (named && mode == MODE_PREDICT) builds = plan_segments(s, c, named, 1, 0, size_bytes, why, sizeof why) > 0;
    else if (named) {
        schedule *built = plan_schedule(s, c, named, 1, 0, size_bytes, true, why, sizeof why);
        builds = built != NULL;
        schedule_free(built);
    }
    if (builds) snprintf(why, sizeof why, "no protocol or channel count the case allows supports it");
    return unbuildable(s, c, a, why, d);
}

double plan_simulation_items(const scenario *s, int first, int a, int m)
{
    double items = 0;
    for (int c = first; c < first + s->cases[first].together_count; c++)
        items += algorithm_items(s, c, a, s->cases[c].sizes[m], true);
    return items;
}

bool plan_check(const scenario *s, run_mode mode, network_model model, diag *d)
{
    for (int c = 0; c < s->case_count; c++)
        if (s->cases[c].together_first == c && !check_sizes(s, c, mode, model, d)) return false;
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        for (int a = 0; a < k->algorithm_count; a++) {
            char why[512] = "";
            plan_member m = {0};
            if (!plan_choose(s, c, a, k->sizes[0], mode, &m)) return report_no_choice(s, c, a, k->sizes[0], mode, d);
            if (mode == MODE_PREDICT && !predicted_from_schedule(s, c, &m.run, k->sizes[0])) {
                if (!plan_case_segments(s, c, m.run.algorithm, m.run.channels, k->sizes[0], why, sizeof why))
                    return unbuildable(s, c, a, why, d);
                continue;
            }
            int groups = algorithm_per_group(m.run.algorithm) ? k->groups.count : 1;
            for (int g = 0; g < groups; g++) {
                schedule *sched = plan_schedule(s, c, m.run.algorithm, m.run.channels, g, k->sizes[0], true, why,
                                                sizeof why);
                if (!sched) return unbuildable(s, c, a, why, d);
                schedule_free(sched);
            }
        }
    }
    return true;
}

void plan_member_free(plan_member *m, int groups)
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

/* Verify member M's schedule on data; exit status. */
static int verify_member(const scenario *s, const plan_settings *o, const plan_member *m)
{
    const scenario_case *k = &s->cases[m->c];
    char why[512] = "";
    if (!schedule_verifiable(m->scheds[0], why, sizeof why)) {
        fprintf(stderr, "%s:%d:%d: cannot verify %s %s on %d ranks: %s; verify a smaller group\n", s->path,
                k->groups_line, k->groups_column, primitive_name(k->prim), m->run.algorithm->name, k->groups.size, why);
        return 2;
    }
    bool ok = schedule_verify(m->scheds[0], why, sizeof why);
    char size[32];
    units_format(m->size_bytes, UNIT_SIZE, size, sizeof size);
    if (!o->quiet || !ok)
        fprintf(stderr, "verify case %d %s %s on %d ranks, %s (P = %d): %s%s\n", m->c, primitive_name(k->prim),
                m->run.algorithm->name, k->groups.size, size, m->scheds[0]->segments, ok ? "ok" : "FAILED: ", ok ? "" : why);
    return ok ? 0 : 1;
}

/* Build (and verify when asked) member M's schedules, the network's view
 * of them, and where their actors run; exit status, -1 to go on. */
static int build_member(const scenario *s, const plan_settings *o, plan_member *m)
{
    const scenario_case *k = &s->cases[m->c];
    int groups = k->groups.count;
    char why[512] = "";
    m->scheds = calloc((size_t)groups, sizeof *m->scheds);
    m->nodes = calloc((size_t)groups, sizeof *m->nodes);
    bool per_group = algorithm_per_group(m->run.algorithm);
    for (int g = 0; g < groups; g++) {
        m->scheds[g] = g == 0 || per_group ? plan_schedule(s, m->c, m->run.algorithm, m->run.channels, g, m->size_bytes,
                                                           !o->verify, why, sizeof why)
                                           : m->scheds[0];
        if (!m->scheds[g]) {
            report_unbuildable(s, m->c, m->a, why);
            return 2;
        }
        m->nodes[g] = exec_actor_nodes(m->scheds[g], plan_group_members(k, g));
    }
    m->segments = m->scheds[0]->segments;
    if (o->verify) {
        int verified = verify_member(s, o, m);
        if (verified != 0) return verified;
    }
    if (o->mode == MODE_VERIFY) return 0;
    if (!m->scheds[0]->generator && sched_has_local_ops(m->scheds[0])) { /* local ops take no time: the network's view */
        schedule *view = sched_network_view(m->scheds[0]);
        for (int g = groups - 1; g >= 0; g--)
            if (m->scheds[g] == m->scheds[0] && g > 0) m->scheds[g] = view;
        schedule_free(m->scheds[0]);
        m->scheds[0] = view;
    }
    return -1;
}

int plan_member_prepare(const scenario *s, const plan_settings *o, plan_member *m)
{
    const scenario_case *k = &s->cases[m->c];
    char why[512] = "";
    if (!plan_choose(s, m->c, m->a, m->size_bytes, o->mode, m)) {
        diag d = {0};
        report_no_choice(s, m->c, m->a, m->size_bytes, o->mode, &d);
        diag_print(&d);
        return 2;
    }
    /* a closed form needs the segments alone: predicting it builds nothing (docs/scale.md) */
    if (o->mode == MODE_PREDICT && !o->verify && !predicted_from_schedule(s, m->c, &m->run, m->size_bytes)) {
        m->segments = plan_case_segments(s, m->c, m->run.algorithm, m->run.channels, m->size_bytes, why, sizeof why);
        if (!m->segments) {
            report_unbuildable(s, m->c, m->a, why);
            return 2;
        }
    } else {
        int built = build_member(s, o, m);
        if (built >= 0) return built;
    }
    model_case mc = scenario_model_case(s, m->c, m->run.algorithm, m->run.protocol, m->run.channels, m->size_bytes,
                                        m->segments);
    mc.sched = m->scheds ? m->scheds[0] : NULL;
    int tier = model_group_tier(&mc);
    const calibrated_group *fitted = calibrated_group_for(mc.platform, mc.prim, tier, m->run.algorithm);
    m->calibration = mc.platform->calibrated_count == 0 ? PLAN_UNCALIBRATED
                     : fitted && m->run.protocol != PROTOCOL_NONE && fitted->protocols[m->run.protocol - PROTOCOL_SIMPLE].set
                         ? PLAN_FITTED
                         : PLAN_NOT_COVERED;
    if (!model_case_costs(&mc, &m->costs, why, sizeof why)) /* the algorithm has no formula: no steps, no cap */
        endpoint_costs_of(mc.platform, fitted, m->run.algorithm->family, m->run.protocol, tier, &m->costs);
    if (!model_predict(&mc, &m->pr, why, sizeof why)) {
        fprintf(stderr, "%s:%d:1: no prediction for %s %s: %s\n", s->path, k->line, primitive_name(k->prim),
                m->run.algorithm->name, why);
        return 2;
    }
    m->weights = k->prim == PRIM_ALLTOALL ? skew_block_weights(&k->skew, k->groups.size) : NULL;
    return 0;
}

exec_part *plan_parts(const scenario *s, const plan_member *members, int count, int *part_count)
{
    int parts = 0;
    for (int i = 0; i < count; i++) parts += s->cases[members[i].c].groups.count;
    exec_part *out = calloc((size_t)parts + 1, sizeof *out);
    int n = 0;
    for (int i = 0; i < count; i++) {
        const plan_member *m = &members[i];
        const endpoint_costs costs = m->costs;
        for (int g = 0; g < s->cases[m->c].groups.count; g++) {
            exec_part *part = &out[n++];
            *part = (exec_part){m->scheds[g], m->nodes[g], m->size_bytes, m->weights, costs.launch_s, {0},
                                costs.wire_numerator, costs.wire_denominator, s->cases[m->c].virtual_lane};
            memcpy(part->overhead_s, costs.overhead_s, sizeof part->overhead_s);
        }
    }
    *part_count = parts;
    return out;
}

void plan_note_coupling(network_model model, const topology *t, const exec_part *parts, int count, const char *label)
{
    if (model == NETWORK_PACKET || count < 2) return;
    coupling c = exec_coupling(t, parts, count);
    if (c.flows <= FLUID_COUPLED_FLOWS_MAX) return;
    fprintf(stderr, "collsim: note: %s: %d concurrent groups with %ld flows share links as one max-min system, which "
            "SimGrid's fluid model (%s) solves again at every flow event; past %d such flows it took from a minute "
            "(2560) to more than ten (4096). The packet model finishes such runs sooner: its cost grows with the "
            "bytes moved, not with the coupling (--model packet; 4096 flows of 16 MB groups: under 3 minutes of CPU, "
            "docs/scale.md)\n",
            label, c.parts, c.flows, network_model_name(model), FLUID_COUPLED_FLOWS_MAX);
}

void plan_note_short_sweeps(const scenario *s)
{
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        if (!(k->sweep_to_bytes > 0)) continue;
        char last[32], to[32];
        units_format(k->sizes[k->size_count - 1], UNIT_SIZE, last, sizeof last);
        units_format(k->sweep_to_bytes, UNIT_SIZE, to, sizeof to);
        fprintf(stderr, "%s:%d:%d: note: case %d's sweep ends at %s, its last size not past 'to' (%s), as nccl-tests' -e "
                "does; to run %s too, list the sizes or choose 'to' a power of 'factor' times 'from'\n", s->path,
                k->sizes_line, k->sizes_column, c, last, to, to);
    }
}

void plan_note_uncalibrated(const scenario *s)
{
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        const topology *t = scenario_platform(s, k);
        if (t->calibrated_count == 0 || k->size_count == 0) continue;
        for (int a = 0; a < k->algorithm_count; a++) {
            const algorithm *named = k->records[a];
            if (!named) continue; /* auto: each row's calibration field says whether its pick was covered */
            model_case mc = scenario_model_case(s, c, named, PROTOCOL_AUTO, 1, k->sizes[0], 0);
            int tier = model_group_tier(&mc);
            if (calibrated_group_for(t, k->prim, tier, named)) continue;
            fprintf(stderr, "%s:%d:1: note: %s %s on groups of %d ranks (tier %d) is not covered by the calibration of %s "
                    "(it measured", s->path, k->line, primitive_name(k->prim), named->name, k->groups.size, tier, t->name);
            for (int i = 0; i < t->calibrated_count; i++) {
                const calibrated_group *g = &t->calibrated[i];
                fprintf(stderr, "%s %s %s, tier %d", i ? ";" : "", g->prim < 0 ? "every collective" : primitive_name((primitive)g->prim),
                        algorithm_family_name(g->family), g->tier < 0 ? tier : g->tier);
            }
            fprintf(stderr, "): it runs on the published figures; calibrate with a log of it to fit it\n");
        }
    }
}
