/* predict.c — the prediction for one case: the seed formula of the algorithm
 * (formulas.c) evaluated at the α and BW of the tier(s) it runs on.
 *   - A flat schedule on a multi-tier fabric pays the outermost tier's α on
 *     every algorithmic hop and the narrowest tier's BW (03 §2: "a flat
 *     schedule that treats the Clos as one big star").
 *   - Hierarchical AR / AG / RS are 03 §2.1's composition, one term per part
 *     (= schedule phase), each part's own formula at its tier, the outer
 *     part's payload telescoped to M/D (D ranks per inner domain).
 *   - Pairwise and hierarchical A2A on a multi-tier fabric are 03 §2.2's
 *     destination-weighted sum: each of the N-1 sends pays its own path's
 *     tier α and (M/N)/BW.
 *   - INC pays α_switch per switch level (04 §2.2, k levels of the tree).
 *   - sendrecv pays its route's tier α per algorithmic hop (01 §8); a
 *     permutation the slowest of its ranks' routes, all at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "util/shuffle.h"
#include "model/formulas.h"
#include "platform/inc_tree.h"

static bool lattice(const topology *t)
{
    return strcmp(t->kind, "torus") == 0 || strcmp(t->kind, "mesh") == 0;
}

/* Platform rank of the group's rank I. */
static int member(const model_case *c, int i)
{
    return c->members ? c->members[i] : i;
}

/* The narrowest BW of tiers 0..TIER (03 §2.1's BW_bottleneck). */
static double bottleneck_bandwidth(const topology *t, int tier)
{
    double bw = t->tiers[0].bandwidth_Bps;
    for (int i = 1; i <= tier; i++)
        if (t->tiers[i].bandwidth_Bps < bw) bw = t->tiers[i].bandwidth_Bps;
    return bw;
}

/* The highest tier of any link on the route between two ranks. */
static int route_tier(const topology *t, int a, int b, int *physical_links)
{
    route_hop hops[ROUTE_MAX_HOPS];
    int count = topology_route(t, a, b, hops), tier = 0;
    for (int i = 0; i < count; i++)
        if (t->links[hops[i].link].tier > tier) tier = t->links[hops[i].link].tier;
    if (physical_links) *physical_links = route_physical_links(t, hops, count);
    return tier;
}

static void add_term(prediction *out, const model_case *c, int tier, int phase, const char *label, counts k,
                     double alpha_s, double bandwidth_Bps)
{
    model_term *term = &out->terms[out->term_count++];
    term->tier = tier;
    term->phase = phase;
    snprintf(term->label, sizeof term->label, "%s", label);
    term->n_alpha = k.n_alpha;
    term->n_beta = k.n_beta;
    term->alpha_s = alpha_s;
    term->bandwidth_Bps = bandwidth_Bps;
    term->eta = model_eta(c->eta, c, tier);
}

/* The outermost tier a flat schedule over the group crosses: the highest
 * tier on any route from its first rank or between neighbours in rank order. */
static int group_tier(const model_case *c)
{
    const topology *t = c->platform;
    if (!c->members) return t->tier_count - 1;
    int tier = 0;
    for (int j = 1; j < c->ranks && tier < t->tier_count - 1; j++) {
        int a = route_tier(t, member(c, 0), member(c, j), NULL), b = route_tier(t, member(c, j - 1), member(c, j), NULL);
        if (a > tier) tier = a;
        if (b > tier) tier = b;
    }
    return tier;
}

/* A group that is not the whole platform runs torus algorithms on a 1-D
 * shape: its ranks in order (the algorithm sees the same, run_case.c). */
static const int *group_dims(const model_case *c, int *count)
{
    *count = c->members ? 1 : c->platform->dim_count;
    return c->members ? &c->ranks : c->platform->dims;
}

static shape case_shape(const model_case *c, int ranks)
{
    const topology *t = c->platform;
    int dim_count;
    const int *dims = group_dims(c, &dim_count);
    shape s = {.ranks = ranks, .segments = c->segments, .dims = dims, .dim_count = dim_count,
               .wraparound = strcmp(t->kind, "mesh") != 0, .inc_depth = 1, .c_real = c->c_real, .form = c->form};
    return s;
}

/* Levels of the INC aggregation tree over the group (04 §2.2's k). */
static int inc_depth(const model_case *c)
{
    const algorithm *a = algorithm_find(c->prim, "inc");
    unsigned capabilities = a ? algorithm_inc_capabilities(a) : 0;
    int *members = malloc(sizeof(int) * (size_t)c->ranks);
    for (int i = 0; i < c->ranks; i++) members[i] = member(c, i);
    inc_tree tree;
    char why[256];
    bool built = inc_tree_build(c->platform, members, c->ranks, capabilities, &tree, why, sizeof why);
    free(members);
    if (!built) return 1;
    int depth = tree.depth;
    inc_tree_free(&tree);
    return depth;
}

/* 03 §2.2: each of rank 0's N-1 sends at its path's tier. */
static void destination_classes(const model_case *c, prediction *out)
{
    const topology *t = c->platform;
    int count[TOPO_MAX_TIERS] = {0};
    for (int j = 1; j < c->ranks; j++) count[route_tier(t, member(c, 0), member(c, j), NULL)]++;
    for (int tier = 0; tier < t->tier_count; tier++)
        if (count[tier])
            add_term(out, c, tier, -1, t->tiers[tier].name, (counts){count[tier], (double)count[tier] / c->ranks},
                     t->tiers[tier].alpha_s, t->tiers[tier].bandwidth_Bps);
}

typedef struct part {
    primitive prim;
    bool outer;
    const char *label;
} part;

/* 03 §2.1: the parts of hierarchical.c's schedule, in its phase order. */
static bool hierarchical(const model_case *c, prediction *out, char *why, int why_size)
{
    static const part ar[] = {{PRIM_REDUCESCATTER, false, "inner RS"}, {PRIM_ALLREDUCE, true, "outer AR"},
                              {PRIM_ALLGATHER, false, "inner AG"}};
    static const part ag[] = {{PRIM_ALLGATHER, true, "outer AG"}, {PRIM_ALLGATHER, false, "inner AG"}};
    static const part rs[] = {{PRIM_REDUCESCATTER, false, "inner RS"}, {PRIM_REDUCESCATTER, true, "outer RS"}};
    const topology *t = c->platform;
    int d = t->domain_ranks;
    if (d < 1 || c->ranks % d != 0) {
        snprintf(why, (size_t)why_size, "hierarchical needs inner domains (SuperPOD pods, Clos leaves) dividing N");
        return false;
    }
    out->formula = "t_inner(D, M) + t_outer(L, M/D) + ... (each part's own formula at its tier's α, BW)";
    out->seed = "explainer 03 §2.1 (A2A: 03 §2.2)";
    if (c->prim == PRIM_ALLTOALL) {
        out->formula = "Σ over the N-1 destinations of (α_path + (M/N)/BW_path)";
        destination_classes(c, out);
        return true;
    }
    const part *parts = c->prim == PRIM_ALLREDUCE ? ar : c->prim == PRIM_ALLGATHER ? ag : rs;
    int part_count = c->prim == PRIM_ALLREDUCE ? 3 : 2;
    if (c->prim != PRIM_ALLREDUCE && c->prim != PRIM_ALLGATHER && c->prim != PRIM_REDUCESCATTER) {
        snprintf(why, (size_t)why_size, "no hierarchical composition for %s", primitive_name(c->prim));
        return false;
    }
    int l = c->ranks / d;
    for (int i = 0; i < part_count; i++) {
        const char *name = parts[i].outer ? c->outer : c->inner;
        const formula *f = formula_find(parts[i].prim, name ? name : "ring");
        if (!f) {
            snprintf(why, (size_t)why_size, "hierarchical: no formula for %s '%s'", primitive_name(parts[i].prim), name);
            return false;
        }
        int ranks = parts[i].outer ? l : d;
        if (ranks < 2) continue;
        shape s = case_shape(c, ranks);
        s.dim_count = 0;
        counts k = f->counts(&s);
        if (parts[i].outer) k.n_beta /= d; /* the telescoped payload M·L/N */
        int tier = parts[i].outer ? t->tier_count - 1 : 0;
        add_term(out, c, tier, i, parts[i].label, k, t->tiers[tier].alpha_s, t->tiers[tier].bandwidth_Bps);
    }
    return true;
}

/* A permutation's slowest route: its tier and α (per link on a lattice). */
static void slowest_route(const model_case *c, int *tier, double *alpha)
{
    const topology *t = c->platform;
    int *to = malloc(sizeof(int) * (size_t)c->ranks);
    random_derangement(c->ranks, c->seed, to);
    *tier = 0;
    *alpha = 0;
    for (int i = 0; i < c->ranks; i++) {
        int links, k = route_tier(t, member(c, i), member(c, to[i]), &links);
        double a = t->tiers[k].alpha_s * (lattice(t) ? links : 1);
        if (a > *alpha) *alpha = a;
        if (k > *tier) *tier = k;
    }
    free(to);
}

static bool flat(const model_case *c, prediction *out, char *why, int why_size)
{
    const topology *t = c->platform;
    const formula *f = formula_find(c->prim, c->algorithm);
    if (!f) {
        snprintf(why, (size_t)why_size, "no formula for %s '%s'", primitive_name(c->prim), c->algorithm);
        return false;
    }
    out->formula = f->text;
    out->seed = f->seed;
    out->alternative = f->alternative;
    if (c->prim == PRIM_ALLTOALL && strcmp(c->algorithm, "pairwise") == 0 && t->tier_count > 1) {
        out->formula = "Σ over the N-1 destinations of (α_path + (M/N)/BW_path)";
        out->seed = "explainer 03 §2.2 (01 §7.2 per send)";
        destination_classes(c, out);
        return true;
    }
    shape s = case_shape(c, c->ranks);
    int tier = group_tier(c);
    double alpha = t->tiers[tier].alpha_s;
    if (strcmp(c->algorithm, "inc") == 0) {
        s.inc_depth = inc_depth(c);
        alpha = t->tiers[0].alpha_switch_s;
    }
    if (c->prim == PRIM_SENDRECV) {
        int links;
        tier = route_tier(t, member(c, c->root), member(c, c->peer), &links);
        alpha = t->tiers[tier].alpha_s * (lattice(t) ? links : 1);
    }
    if (c->prim == PRIM_PERMUTATION) slowest_route(c, &tier, &alpha);
    add_term(out, c, tier, -1, c->algorithm, f->counts(&s), alpha, bottleneck_bandwidth(t, tier));
    return true;
}

bool model_crossover(const prediction *a, const prediction *b, double *size_bytes)
{
    double intercept[2] = {0, 0}, slope[2] = {0, 0};
    const prediction *p[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < p[k]->term_count; i++) {
            const model_term *t = &p[k]->terms[i];
            intercept[k] += t->eta.alpha * t->n_alpha * t->alpha_s;
            slope[k] += t->n_beta / (t->eta.beta * t->bandwidth_Bps);
        }
    if (slope[0] == slope[1]) return false;
    double m = (intercept[1] - intercept[0]) / (slope[0] - slope[1]);
    if (!(m > 0)) return false;
    *size_bytes = m;
    return true;
}

double model_term_time(const model_term *t, double size_bytes, bool with_eta)
{
    double eta_alpha = with_eta ? t->eta.alpha : 1, eta_beta = with_eta ? t->eta.beta : 1;
    return eta_alpha * t->n_alpha * t->alpha_s + t->n_beta * size_bytes / (eta_beta * t->bandwidth_Bps);
}

bool model_predict(const model_case *c, prediction *out, char *why, int why_size)
{
    memset(out, 0, sizeof *out);
    bool ok = strcmp(c->algorithm, "hierarchical") == 0 ? hierarchical(c, out, why, why_size) : flat(c, out, why, why_size);
    if (!ok) return false;
    if (out->term_count == 0) { /* a single-rank group: nothing moves */
        out->alpha_s = c->platform->tiers[0].alpha_s;
        out->bandwidth_Bps = c->platform->tiers[0].bandwidth_Bps;
        return true;
    }
    const model_term *reference = &out->terms[0];
    for (int i = 1; i < out->term_count; i++)
        if (out->terms[i].bandwidth_Bps < reference->bandwidth_Bps) reference = &out->terms[i];
    out->alpha_s = reference->alpha_s;
    out->bandwidth_Bps = reference->bandwidth_Bps;
    for (int i = 0; i < out->term_count; i++) {
        const model_term *term = &out->terms[i];
        out->n_alpha += out->alpha_s > 0 ? term->n_alpha * term->alpha_s / out->alpha_s : term->n_alpha;
        out->n_beta += term->n_beta * out->bandwidth_Bps / term->bandwidth_Bps;
        out->time_s += model_term_time(term, c->size_bytes, true);
        out->ideal_s += model_term_time(term, c->size_bytes, false);
    }
    return true;
}
