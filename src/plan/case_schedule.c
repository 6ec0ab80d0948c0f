/* case_schedule.c — the schedules of a case: an algorithm's parameters for
 * one group (its ranks, torus shape, inner domains, channel layout, the α
 * and BW that P* is computed for), the schedule built from them, and the
 * choice of what runs (the case's algorithm, or the tuner's pick, which
 * offers only what builds on the case's groups).  The algorithm sees the
 * group, never the platform: the INC trees of its sub-groups come through
 * a callback over the group's own ranks. */
#include <stdio.h>
#include <stdlib.h>

#include "plan/plan.h"

const int *plan_group_members(const scenario_case *k, int g)
{
    return k->groups.members + (size_t)g * (size_t)k->groups.size;
}

int plan_natural_channels(const topology *t, const scenario_case *k)
{
    int rail_ranks;
    channel_layout layout = channel_layout_of(t, k->groups.whole ? NULL : plan_group_members(k, 0), k->groups.size,
                                              &rail_ranks);
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

/* The parameters of A of case C on CHANNELS channels for group G at
 * SIZE_BYTES (which matters only to `segments: auto`; P* uses the first
 * tier's α and BW, or the α_switch of the tier an INC tree climbs to).
 * ORDER (the group's ranks, may be NULL) receives the group's domain order;
 * p.domain_order points to it unless rank order already is. */
static algo_params case_params(const scenario *s, int c, const algorithm *a, int channels, int g, double size_bytes,
                               int *order)
{
    const scenario_case *k = &s->cases[c];
    const topology *t = scenario_platform(s, k);
    algo_params p = {.ranks = k->groups.size, .segments = k->segments, .root = k->root, .peer = k->peer, .seed = k->seed,
                     .size_bytes = size_bytes, .alpha_s = t->tiers[0].alpha_s, .bandwidth_Bps = t->tiers[0].bandwidth_Bps,
                     .inner = k->inner[0] ? k->inner : NULL, .outer = k->outer[0] ? k->outer : NULL,
                     .tiers = t->tier_count, .channels = channels};
    p.layout = channel_layout_of(t, k->groups.whole ? NULL : plan_group_members(k, g), p.ranks, &p.rail_ranks);
    p.domain_ranks = topology_group_domains(t, plan_group_members(k, g), p.ranks, order);
    bool in_order = true;
    for (int i = 0; order && i < p.ranks && p.domain_ranks > 0; i++) in_order &= order[i] == i;
    p.domain_order = in_order || !order ? NULL : order;
    if (k->groups.whole) {
        for (int i = 0; i < t->dim_count; i++) p.dims[i] = t->dims[i];
        p.dim_count = t->dim_count;
    } else { /* a group's torus shape is 1-D: its ranks in order (the model says the same) */
        p.dims[0] = k->groups.size;
        p.dim_count = 1;
    }
    if (algorithm_inc_capabilities(a)) p.alpha_s = t->tiers[0].alpha_switch_s; /* INC legs pay α_switch (04 §2) */
    return p;
}

typedef enum { SCHEDULE_BUILT, SCHEDULE_GENERATED, SCHEDULE_SEGMENTS } schedule_want;

/* A of case C on CHANNELS channels for group G at SIZE_BYTES: its schedule
 * (built, or generated where A has a generator) or only its segments (in
 * *SEGMENTS, algorithm_segments); NULL / 0 with WHY when A refuses. */
static schedule *case_schedule(const scenario *s, int c, const algorithm *a, int channels, int g, double size_bytes,
                               schedule_want want, int *segments, char *why, int why_size)
{
    const scenario_case *k = &s->cases[c];
    const topology *t = scenario_platform(s, k);
    int *order = malloc(sizeof(int) * (size_t)k->groups.size);
    algo_params p = case_params(s, c, a, channels, g, size_bytes, order);
    group_trees trees = {t, plan_group_members(k, g)};
    p.inc_tree_of = sub_group_tree;
    p.inc_context = &trees;
    unsigned capabilities = algorithm_inc_capabilities(a);
    schedule *built = NULL;
    inc_tree tree;
    bool usable = !capabilities || inc_tree_build(t, plan_group_members(k, g), p.ranks, capabilities, &tree, why, why_size);
    if (usable && capabilities) {
        p.alpha_s = t->tiers[tree.root_tier].alpha_switch_s; /* the tier the tree climbs to */
        p.inc = &tree;
    }
    if (usable && want == SCHEDULE_SEGMENTS) *segments = algorithm_segments(a, &p, why, why_size);
    else if (usable) /* an INC schedule has no generator */
        built = want == SCHEDULE_GENERATED && !capabilities ? algorithm_generate(a, &p, why, why_size)
                                                            : algorithm_build(a, &p, why, why_size);
    if (usable && capabilities) inc_tree_free(&tree);
    free(order);
    return built;
}

schedule *plan_schedule(const scenario *s, int c, const algorithm *a, int channels, int g, double size_bytes,
                        bool generate, char *why, int why_size)
{
    return case_schedule(s, c, a, channels, g, size_bytes, generate ? SCHEDULE_GENERATED : SCHEDULE_BUILT, NULL, why,
                         why_size);
}

int plan_segments(const scenario *s, int c, const algorithm *a, int channels, int g, double size_bytes, char *why,
                  int why_size)
{
    int segments = 0;
    case_schedule(s, c, a, channels, g, size_bytes, SCHEDULE_SEGMENTS, &segments, why, why_size);
    return segments;
}

int plan_case_segments(const scenario *s, int c, const algorithm *a, int channels, double size_bytes, char *why,
                       int why_size)
{
    const scenario_case *k = &s->cases[c];
    int groups = algorithm_per_group(a) ? k->groups.count : 1, segments = 0;
    for (int g = 0; g < groups; g++) {
        int got = plan_segments(s, c, a, channels, g, size_bytes, why, why_size);
        if (got < 1) return 0;
        if (g == 0) segments = got;
    }
    return segments;
}

double plan_schedule_items_at(const scenario *s, int c, const algorithm *a, int channels, double size_bytes,
                              bool generated)
{
    algo_params p = case_params(s, c, a, channels, 0, size_bytes, NULL);
    p.generated = generated;
    return algorithm_schedule_size(a, &p) * s->cases[c].groups.count;
}

typedef struct support_check {
    const scenario *s;
    int c;
    double size_bytes;
    bool segments_only; /* predicting: algorithm_segments stands for the schedule where the model needs none */
} support_check;

/* tuner_supports: the segments the schedule runs when it builds for every
 * group of the case (its generated form where there is one: built to be
 * checked, not run), else 0. */
static int case_supports(void *ctx, const algorithm *a, int channels, schedule **kept)
{
    const support_check *x = ctx;
    const scenario_case *k = &x->s->cases[x->c];
    if (x->segments_only && !kept) {
        char why[512];
        return plan_case_segments(x->s, x->c, a, channels, x->size_bytes, why, sizeof why);
    }
    int groups = algorithm_per_group(a) ? k->groups.count : 1, segments = 0;
    for (int g = 0; g < groups; g++) {
        char why[512];
        schedule *built = plan_schedule(x->s, x->c, a, channels, g, x->size_bytes, true, why, sizeof why);
        if (!built) return 0;
        if (g == 0) segments = built->segments > 0 ? built->segments : 1;
        if (g == 0 && kept) *kept = built;
        else schedule_free(built);
    }
    return segments;
}

bool plan_choose(const scenario *s, int c, int a, double size_bytes, run_mode mode, plan_member *m)
{
    const scenario_case *k = &s->cases[c];
    const algorithm *named = k->records[a];
    int natural = plan_natural_channels(scenario_platform(s, k), k);
    int channels = k->channels == CHANNELS_AUTO ? natural : k->channels > 1 ? k->channels : 1;
    /* a case without `channels:` on a library's platform gets the library's: the tuner's, one or the natural count */
    bool library_channels = k->channels == 0 && scenario_platform(s, k)->library != LIBRARY_NONE &&
                            (!named || algorithm_takes_channels(named));
    m->tuned = !named || k->protocol == PROTOCOL_AUTO || library_channels;
    if (!m->tuned) { /* an algorithm without channels runs on one (the library's `auto` offers it them) */
        model_case mc = scenario_model_case(s, c, named, k->protocol, 1, size_bytes, 0);
        const calibrated_group *g = calibrated_group_for(mc.platform, k->prim, model_group_tier(&mc), named);
        const calibrated_protocol *fit = g && k->protocol != PROTOCOL_NONE ? &g->protocols[k->protocol - PROTOCOL_SIMPLE] : NULL;
        if (fit && fit->set && fit->channels > 0 && k->channels == 0) channels = fit->channels; /* what the fit ran it on */
        m->run = (tuner_choice){.algorithm = named, .protocol = k->protocol,
                                .channels = algorithm_takes_channels(named) ? channels : 1};
        return true;
    }
    const algorithm *candidates[TUNER_MAX_CANDIDATES];
    int count = 1, options[2] = {channels, natural};
    if (named) candidates[0] = named;
    else count = tuner_candidates(k->prim, scenario_platform(s, k)->library, candidates);
    if (count == 0) return false;
    int option_count = (!named || library_channels) && k->channels == 0 && natural > 1 ? 2 : 1;
    model_case base = scenario_model_case(s, c, named ? named : candidates[0],
                                          k->protocol == PROTOCOL_NONE ? PROTOCOL_AUTO : k->protocol, 1, size_bytes,
                                          k->segments > 0 ? k->segments : 0);
    support_check ctx = {s, c, size_bytes, mode == MODE_PREDICT};
    return tuner_pick(&base, candidates, count, options, option_count, case_supports, &ctx, &m->run);
}
