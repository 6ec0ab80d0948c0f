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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "algo/channels.h"
#include "algo/double_tree.h"
#include "util/shuffle.h"
#include "model/formulas.h"
#include "platform/inc_tree.h"

/* Platform rank of the group's rank I. */
static int member(const model_case *c, int i)
{
    return c->members ? c->members[i] : i;
}

/* Tier I's BW at the rate its links run: times its `efficiency` (05 §2.1's
 * η_β^hw, NCCL's effective link rate), which the simulation's links carry;
 * `form: seed` keeps the seed's BW. */
static double tier_rate(const model_case *c, int i)
{
    const topo_tier *tier = &c->platform->tiers[i];
    return tier->bandwidth_Bps * (c->form == FORM_SEED ? 1 : tier->efficiency);
}

/* The narrowest rate of tiers 0..TIER (03 §2.1's BW_bottleneck), each tier's
 * BW multiplied by what C's channels gain on it: a ring's K channels on
 * disjoint links (rails, a full mesh's rings) move K times one channel's
 * share (channels.h); on shared links, and for trees and INC, they gain
 * nothing. */
static double bottleneck_bandwidth(const model_case *c, int tier)
{
    const topology *t = c->platform;
    int rail_ranks;
    channel_layout layout = channel_layout_of(t, c->members, c->ranks, &rail_ranks);
    bool spread = c->channels > 1 && (c->algorithm->traits & TRAIT_CHANNELS_SPREAD) && c->form != FORM_SEED;
    double bw = 0;
    for (int i = 0; i <= tier; i++) {
        double gain = spread ? channel_bandwidth_gain(layout, c->channels, c->ranks, rail_ranks, t->tiers[i].network) : 1;
        if (i == 0 || tier_rate(c, i) * gain < bw) bw = tier_rate(c, i) * gain;
    }
    return bw;
}

/* The highest tier of any link on the route between two ranks (HOPS: a route_buffer). */
static int route_tier(const topology *t, int a, int b, route_hop *hops, int *physical_links)
{
    int count = topology_route(t, a, b, hops);
    if (physical_links) *physical_links = route_physical_links(t, hops, count);
    return route_top_tier(t, hops, count);
}

/* The endpoint costs of protocol.c for C, before its steps and cap are
 * resolved (model_case_costs). */
static void case_costs(const model_case *c, endpoint_costs *costs)
{
    int tier = model_group_tier(c);
    endpoint_costs_of(c->platform, calibrated_group_for(c->platform, c->prim, tier, c->algorithm), c->algorithm->family, c->protocol,
                      tier, costs);
}

/* A term at TIER: its sender overhead and the protocol's efficiency come from
 * the prediction's endpoint costs; both vanish in the seed's model. */
void model_add_term(prediction *out, const model_case *c, int tier, int phase, const char *label, counts k,
                    double alpha_s, double bandwidth_Bps)
{
    const endpoint_costs *costs = &out->costs;
    bandwidth_Bps *= (double)costs->wire_denominator / costs->wire_numerator;
    model_term *term = &out->terms[out->term_count++];
    term->tier = tier;
    term->phase = phase;
    snprintf(term->label, sizeof term->label, "%s", label);
    term->n_alpha = k.n_alpha;
    term->n_beta = k.n_beta;
    term->alpha_s = alpha_s;
    term->bandwidth_Bps = bandwidth_Bps;
    term->overhead_s = costs->overhead_s[tier];
    term->eta = model_eta(c->eta, c, tier);
}

/* The outermost tier a flat schedule over the group crosses: the highest tier on any route
 * from its first rank or between neighbours in rank order (a one-node rail cluster: its node's). */
int model_group_tier(const model_case *c)
{
    const topology *t = c->platform;
    int tier = 0;
    route_hop *hops = route_buffer(t);
    for (int j = 1; j < c->ranks && tier < t->tier_count - 1; j++) {
        int a = route_tier(t, member(c, 0), member(c, j), hops, NULL);
        int b = route_tier(t, member(c, j - 1), member(c, j), hops, NULL);
        if (a > tier) tier = a;
        if (b > tier) tier = b;
    }
    free(hops);
    return tier;
}

/* The α of one algorithmic hop of a flat schedule over the group at TIER:
 * on a switched fabric the longest route from the group's first rank or
 * between neighbours in rank order.  That is the outermost tier's α (03 §2:
 * "a flat schedule that treats the Clos as one big star"), plus, on a
 * rail-optimized fabric, the NVLink hop of a cross-rail route (the relay to
 * the GPU on the destination's rail, NCCL's PXN).  On a torus or mesh, the
 * tier's α per hop (02 §3). */
static double flat_alpha(const model_case *c, int tier)
{
    const topology *t = c->platform;
    double alpha = t->tiers[tier].alpha_s;
    if (t->lattice || c->form == FORM_SEED) return alpha;
    route_hop *hops = route_buffer(t);
    for (int j = 1; j < c->ranks; j++) {
        double first = route_latency(t, hops, topology_route(t, member(c, 0), member(c, j), hops));
        double next = route_latency(t, hops, topology_route(t, member(c, j - 1), member(c, j), hops));
        if (first > alpha * (1 + 1e-12)) alpha = first;
        if (next > alpha * (1 + 1e-12)) alpha = next;
    }
    free(hops);
    return alpha;
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
               .wraparound = !t->lattice || t->wraparound, .inc_depth = 1, .c_real = c->c_real, .form = c->form};
    return s;
}

/* Levels of the INC aggregation tree of algorithm A over the N platform ranks
 * MEMBERS (04 §2.2's k), and the tier of its root switch, whose
 * alpha_switch the legs pay. */
static int inc_depth(const topology *t, const algorithm *a, const int *members, int n, int *root_tier)
{
    *root_tier = 0;
    unsigned capabilities = algorithm_inc_capabilities(a);
    inc_tree tree;
    char why[256];
    if (!inc_tree_build(t, members, n, capabilities, &tree, why, sizeof why)) return 1;
    int depth = tree.depth;
    *root_tier = tree.root_tier;
    inc_tree_free(&tree);
    return depth;
}

/* 03 §2.2: each of rank 0's N-1 sends at its path's tier: one term per
 * tier, whose α is the mean of its sends' route latencies (a cross-rail send
 * of a rail-optimized fabric relays over NVLink first; `form: seed` takes the
 * tier's α, as 03 §2.2 does). */
static void destination_classes(const model_case *c, prediction *out)
{
    const topology *t = c->platform;
    int count[TOPO_MAX_TIERS] = {0};
    double latency[TOPO_MAX_TIERS] = {0};
    route_hop *hops = route_buffer(t);
    for (int j = 1; j < c->ranks; j++) {
        int tier = route_tier(t, member(c, 0), member(c, j), hops, NULL);
        count[tier]++;
        latency[tier] += c->form == FORM_SEED || t->lattice
                             ? t->tiers[tier].alpha_s
                             : route_latency(t, hops, topology_route(t, member(c, 0), member(c, j), hops));
    }
    free(hops);
    for (int tier = 0; tier < t->tier_count; tier++)
        if (count[tier])
            model_add_term(out, c, tier, -1, t->tiers[tier].name, (counts){count[tier], (double)count[tier] / c->ranks},
                     latency[tier] / count[tier], tier_rate(c, tier));
}

typedef struct part {
    primitive prim;
    bool outer;
    const char *label;
} part;

/* One part of a hierarchical schedule over its first sub-group (platform
 * ranks MEMBERS, RANKS of them): its formula at the tier the sub-group's
 * routes climb to, or for `inc` at the α_switch of its tree's root tier with
 * k levels (04 §1.4); false with WHY when no formula exists. */
static bool add_part(prediction *out, const model_case *c, const part *pt, int phase, const int *members, int ranks,
                     int d, int segments, double payload, char *why, int why_size)
{
    const topology *t = c->platform;
    const char *name = pt->outer ? c->outer : c->inner;
    const algorithm *a = algorithm_part(pt->prim, name);
    const formula *f = a ? formula_of(a) : NULL;
    if (!f || !f->counts) {
        snprintf(why, (size_t)why_size, "hierarchical: no formula for %s '%s'", primitive_name(pt->prim),
                 a ? a->name : name);
        return false;
    }
    shape s = case_shape(c, ranks);
    s.dim_count = 0;
    s.segments = segments;
    int tier = 0;
    unsigned crossed = 0; /* the tiers of its routes' links: its BW is the narrowest (03 §2.1's BW_bottleneck) */
    route_hop *hops = route_buffer(t);
    for (int j = 1; j < ranks; j++) {
        int count = topology_route(t, members[0], members[j], hops);
        for (int h = 0; h < count; h++) crossed |= 1u << t->links[hops[h].link].tier;
        int hop = route_top_tier(t, hops, count);
        if (hop > tier) tier = hop;
    }
    free(hops);
    double alpha = t->tiers[tier].alpha_s;
    bool inc = algorithm_inc_capabilities(a) != 0;
    if (inc) {
        s.inc_depth = inc_depth(t, a, members, ranks, &tier);
        alpha = t->tiers[tier].alpha_switch_s;
    }
    double bw = tier_rate(c, tier); /* a rail's own NIC path skips the node's links */
    for (int i = 0; i < tier; i++)
        if ((crossed >> i & 1u) && tier_rate(c, i) < bw) bw = tier_rate(c, i);
    if (inc) { /* the P the part's schedule runs (hierarchical.c gives it these: the tiers' BW, inc_tree.c) */
        double raw = t->tiers[0].bandwidth_Bps;
        for (int i = 1; i <= tier; i++)
            if (t->tiers[i].bandwidth_Bps < raw) raw = t->tiers[i].bandwidth_Bps;
        algo_params q = {.segments = segments, .size_bytes = payload, .alpha_s = alpha, .bandwidth_Bps = raw};
        s.segments = inc_segments(pt->prim, &q, s.inc_depth);
    }
    counts k = f->counts(&s);
    if (pt->outer) k.n_beta /= d; /* the telescoped payload M·L/N */
    model_add_term(out, c, tier, phase, pt->label, k, alpha, bw);
    return true;
}

/* 01 App. C.3 with unequal stages: P slices through the parts take
 * Σ τ_i + (P-1) · pace, τ_i a part's time for one slice (its n_β already per
 * slice, M/P).  Each part runs on connections of its own, one slice after
 * another, so a part paces the conveyor at τ_i; the parts of one tier share
 * its links' bandwidth (not their latency), so a tier paces it at the sum of
 * their BW terms.  The pace is the larger: the pacing part counts P times
 * whole, or the pacing tier's parts count their BW term P times. */
static void pipeline_terms(prediction *out, const model_case *c, int slices)
{
    double tier_beta[TOPO_MAX_TIERS] = {0}, part_pace = 0;
    int pacing_part = 0, pacing_tier = 0;
    for (int i = 0; i < out->term_count; i++) {
        const model_term *term = &out->terms[i];
        double tau = model_term_time(term, c->size_bytes, false);
        tier_beta[term->tier] += term->n_beta * c->size_bytes / term->bandwidth_Bps;
        if (tau > part_pace) {
            part_pace = tau;
            pacing_part = i;
        }
    }
    for (int tier = 1; tier < TOPO_MAX_TIERS; tier++)
        if (tier_beta[tier] > tier_beta[pacing_tier]) pacing_tier = tier;
    if (part_pace >= tier_beta[pacing_tier]) {
        out->terms[pacing_part].n_alpha *= slices;
        out->terms[pacing_part].n_beta *= slices;
        return;
    }
    for (int i = 0; i < out->term_count; i++)
        if (out->terms[i].tier == pacing_tier) out->terms[i].n_beta *= slices;
}

/* 03 §2.1: the parts of hierarchical.c's schedule, in its phase order, over
 * the group's share D of each inner domain it touches (L = N/D domains);
 * hierarchical_pipelined runs them on P slices of M/P (pipeline_terms). */
static bool hierarchical(const model_case *c, prediction *out, char *why, int why_size)
{
    static const part ar[] = {{PRIM_REDUCESCATTER, false, "inner RS"}, {PRIM_ALLREDUCE, true, "outer AR"},
                              {PRIM_ALLGATHER, false, "inner AG"}};
    static const part ag[] = {{PRIM_ALLGATHER, true, "outer AG"}, {PRIM_ALLGATHER, false, "inner AG"}};
    static const part rs[] = {{PRIM_REDUCESCATTER, false, "inner RS"}, {PRIM_REDUCESCATTER, true, "outer RS"}};
    int n = c->ranks, *order = malloc(sizeof(int) * (size_t)n), *members = malloc(sizeof(int) * (size_t)n);
    int d = topology_group_domains(c->platform, c->members, n, order);
    bool ok = d >= 1 && d < n;
    if (!ok)
        snprintf(why, (size_t)why_size, "hierarchical needs a group spread evenly over two or more inner domains "
                 "(SuperPOD pods, nodes, Clos leaves)");
    bool pipelined = c->algorithm->composition == COMPOSITION_PIPELINED;
    out->formula = pipelined ? "Σ_i τ_i(M/P) + (P-1)·max(max_i τ_i(M/P), max_tier Σ_(i on it) β_i(M/P)), τ_i = α_i + β_i "
                               "each part's own formula"
                             : "t_inner(D, M) + t_outer(L, M/D) + ... (each part's own formula at its tier's α, BW)";
    out->seed = pipelined ? "explainer 03 §2.1 with 01 App. C.3 (slices overlapped)" : "explainer 03 §2.1 (A2A: 03 §2.2)";
    if (ok && c->prim == PRIM_ALLTOALL) {
        out->formula = "Σ over the N-1 destinations of (α_path + (M/N)/BW_path)";
        destination_classes(c, out);
    } else if (ok && c->prim != PRIM_ALLREDUCE && c->prim != PRIM_ALLGATHER && c->prim != PRIM_REDUCESCATTER) {
        snprintf(why, (size_t)why_size, "no hierarchical composition for %s", primitive_name(c->prim));
        ok = false;
    } else if (ok) {
        const part *parts = c->prim == PRIM_ALLREDUCE ? ar : c->prim == PRIM_ALLGATHER ? ag : rs;
        int part_count = c->prim == PRIM_ALLREDUCE ? 3 : 2, l = n / d;
        int slices = pipelined ? (c->segments > 0 ? c->segments : HIERARCHICAL_SLICES) : 1;
        for (int i = 0; i < part_count && ok; i++) {
            int ranks = parts[i].outer ? l : d;
            if (ranks < 2) continue;
            for (int j = 0; j < ranks; j++) members[j] = member(c, order[parts[i].outer ? j * d : j]);
            double payload = c->size_bytes / slices / (parts[i].outer ? d : 1);
            ok = add_part(out, c, &parts[i], pipelined ? -1 : i, members, ranks, d, pipelined ? 0 : c->segments, payload,
                          why, why_size);
            if (pipelined) out->terms[out->term_count - 1].n_beta /= slices;
        }
        out->slices = slices; /* piped by build_terms */
    }
    free(order);
    free(members);
    return ok;
}

/* The busiest NIC of NCCL's tree over L nodes of D GPUs on C's channels, in
 * units of M at its tier's BW.  Each channel's trees move M/(2K) each in P
 * segments; in a slot a node's head sends one segment up and one to each
 * child of the node tree (double_tree.c's heap trees over the nodes), so its
 * NIC carries, summed over the channels whose heads sit on its GPU, that
 * many segments per slot.  Channel c's chains start at GPU c of every node
 * under rail-aligned channels (channels.c; tree 1's head is the chain's
 * first GPU, tree 2's its last), at GPU 0 otherwise. */
static double node_tree_nic_load(const model_case *c, int l, int d)
{
    int rail_ranks, k = c->channels > 1 ? c->channels : 1;
    bool rails = channel_layout_of(c->platform, c->members, c->ranks, &rail_ranks) == CHANNELS_RAILS && rail_ranks == d;
    double_tree nodes;
    double_tree_init_chained(&nodes, l, 1, NULL);
    int most = 0, children[DOUBLE_TREE_MAX_CHILDREN];
    for (int g = 0; g < l; g++)
        for (int x = 0; x < d; x++) {
            int load = 0;
            for (int channel = 0; channel < k; channel++)
                for (int tree = 0; tree < 2; tree++) {
                    int first = rails ? channel % d : 0, head = tree == 0 ? first : (first + d - 1) % d;
                    if (head == x)
                        load += (double_tree_parent(&nodes, tree, g) >= 0) + double_tree_children(&nodes, tree, g, children);
                }
            if (load > most) most = load;
        }
    double_tree_free(&nodes);
    return most / (2.0 * k);
}

/* NCCL's tree (allreduce_tree.c) on the group's D GPUs per node and L
 * nodes, in the form 00 §4 gives DBT (2⌈log2 N⌉·α + c·M/BW, the pipelined
 * BW floor): each tree's chains pay 2(D-1) hops at the node tier's α and its
 * inter-node DBT 2⌈log2 L⌉, plus the P - 1 slots of the pipeline's fill,
 * at the heads' tier's α; the BW term is the busier port's, the two
 * overlapping in the pipeline: a chain GPU sends 4 segments of M/(2P) per
 * slot through NVLink (up and down in both trees, whatever the channels:
 * they share each GPU's port), c = 2 there; a head's NIC what
 * node_tree_nic_load counts (one channel, L >= 4: 3 segments, c = 3/2). */
static bool chained_tree(const model_case *c, prediction *out, char *why, int why_size)
{
    const topology *t = c->platform;
    int n = c->ranks, *order = malloc(sizeof(int) * (size_t)n);
    int d = topology_group_domains(t, c->members, n, order);
    if (d == 0) { /* no nodes (a star, a full mesh): the group is one, its ranks in order */
        d = n;
        for (int i = 0; i < n; i++) order[i] = i;
    }
    int l = d >= 1 ? n / d : 0;
    out->formula = "2(D-1)·α_node + 2⌈log2 L⌉·α_net + max(2·M/BW_node, c_net·M/BW_net), c_net the busiest NIC's "
                   "segments per slot / 2K";
    out->seed = "NCCL's Tree: DBT (explainer 01 §5.2, 00 §4's BW form) over chained nodes";
    if (d < 1) {
        snprintf(why, (size_t)why_size, "tree needs the group spread evenly over the platform's nodes");
        free(order);
        return false;
    }
    route_hop *hops = route_buffer(t);
    int outer = l > 1 ? route_tier(t, member(c, order[0]), member(c, order[d]), hops, NULL) : 0;
    free(hops);
    double c_net = l > 1 ? node_tree_nic_load(c, l, d) : 0;
    double bw_node = tier_rate(c, 0), bw_net = tier_rate(c, outer);
    bool network_paces = l > 1 && c_net / bw_net >= (d > 1 ? 2 : 0) / bw_node;
    if (d > 1)
        model_add_term(out, c, 0, -1, "chains", (counts){2.0 * (d - 1), network_paces ? 0 : 2}, t->tiers[0].alpha_s, bw_node);
    /* the pipeline's fill, (P - 1) slots (01 App. C.3), at the heads' α; `form: asymptotic` leaves it out */
    int heap_depth = 0; /* floor(log2 L): the node trees' depth (double_tree.c) */
    while ((2 << heap_depth) <= l) heap_depth++;
    int depth = d - 1 + heap_depth, segments = c->segments > 0 ? c->segments : 2 * depth;
    double fill = c->form == FORM_ASYMPTOTIC ? 0 : segments - 1;
    if (l > 1)
        model_add_term(out, c, outer, -1, "node tree", (counts){2.0 * ceil_log2(l) + fill, network_paces ? c_net : 0},
                 t->tiers[outer].alpha_s, bw_net);
    free(order);
    return true;
}

/* A permutation's slowest route: its tier and α (per link on a lattice). */
static void slowest_route(const model_case *c, int *tier, double *alpha)
{
    const topology *t = c->platform;
    int *to = malloc(sizeof(int) * (size_t)c->ranks);
    random_derangement(c->ranks, c->seed, to);
    route_hop *hops = route_buffer(t);
    *tier = 0;
    *alpha = 0;
    for (int i = 0; i < c->ranks; i++) {
        int links, k = route_tier(t, member(c, i), member(c, to[i]), hops, &links);
        double a = t->tiers[k].alpha_s * (t->lattice ? links : 1);
        if (a > *alpha) *alpha = a;
        if (k > *tier) *tier = k;
    }
    free(hops);
    free(to);
}

static bool flat(const model_case *c, prediction *out, char *why, int why_size)
{
    const topology *t = c->platform;
    const formula *f = formula_of(c->algorithm);
    if (!f || !f->counts) {
        snprintf(why, (size_t)why_size, "no formula for %s '%s'", primitive_name(c->prim), c->algorithm->name);
        return false;
    }
    out->formula = f->text;
    out->seed = f->seed;
    out->alternative = f->alternative;
    if ((c->algorithm->traits & TRAIT_DESTINATION_CLASSES) && t->tier_count > 1) {
        out->formula = "Σ over the N-1 destinations of (α_path + (M/N)/BW_path)";
        out->seed = "explainer 03 §2.2 (01 §7.2 per send)";
        destination_classes(c, out);
        return true;
    }
    shape s = case_shape(c, c->ranks);
    int tier = model_group_tier(c);
    double alpha = flat_alpha(c, tier);
    if (algorithm_inc_capabilities(c->algorithm)) {
        int root_tier, *members = malloc(sizeof(int) * (size_t)c->ranks);
        for (int i = 0; i < c->ranks; i++) members[i] = member(c, i);
        s.inc_depth = inc_depth(t, c->algorithm, members, c->ranks, &root_tier);
        free(members);
        alpha = t->tiers[root_tier].alpha_switch_s; /* the tier the tree climbs to, not always the first */
    }
    if (c->prim == PRIM_SENDRECV) {
        int links;
        route_hop *hops = route_buffer(t);
        tier = route_tier(t, member(c, c->root), member(c, c->peer), hops, &links);
        free(hops);
        alpha = t->tiers[tier].alpha_s * (t->lattice ? links : 1);
    }
    if (c->prim == PRIM_PERMUTATION) slowest_route(c, &tier, &alpha);
    model_add_term(out, c, tier, -1, c->algorithm->name, f->counts(&s), alpha, bottleneck_bandwidth(c, tier));
    return true;
}

void model_linear_form(const prediction *p, double *intercept_s, double *slope_s_per_byte)
{
    double intercept = 0, slope = 0;
    for (int i = 0; i < p->term_count; i++) {
        const model_term *t = &p->terms[i];
        intercept += t->eta.alpha * t->n_alpha * t->alpha_s + t->n_alpha * t->overhead_s;
        slope += t->n_beta / (t->eta.beta * t->bandwidth_Bps);
    }
    *intercept_s = intercept + p->launch_s;
    *slope_s_per_byte = slope;
}

bool model_forms_cross(double intercept_a, double slope_a, double intercept_b, double slope_b, double *size_bytes)
{
    if (slope_a == slope_b) return false;
    double m = (intercept_b - intercept_a) / (slope_a - slope_b);
    if (!(m > 0)) return false;
    *size_bytes = m;
    return true;
}

bool model_crossover(const prediction *a, const prediction *b, double *size_bytes)
{
    double intercept[2], slope[2];
    model_linear_form(a, &intercept[0], &slope[0]);
    model_linear_form(b, &intercept[1], &slope[1]);
    return model_forms_cross(intercept[0], slope[0], intercept[1], slope[1], size_bytes);
}

double model_term_time(const model_term *t, double size_bytes, bool with_eta)
{
    double eta_alpha = with_eta ? t->eta.alpha : 1, eta_beta = with_eta ? t->eta.beta : 1;
    return eta_alpha * t->n_alpha * t->alpha_s + t->n_alpha * t->overhead_s +
           t->n_beta * size_bytes / (eta_beta * t->bandwidth_Bps);
}

/* C's terms charged with COSTS; with STEPS, a pipelined hierarchy's terms
 * stay per slice (one slice's steps through the parts). */
static bool build_terms(const model_case *c, const endpoint_costs *costs, bool steps, prediction *out, char *why,
                        int why_size)
{
    memset(out, 0, sizeof *out);
    out->costs = *costs;
    out->slices = 1;
    algorithm_composition composition = c->algorithm->composition;
    bool ok = composition == COMPOSITION_IMPORTED ? schedule_path_terms(c, out, why, why_size)
              : composition == COMPOSITION_HIERARCHICAL || composition == COMPOSITION_PIPELINED
                  ? hierarchical(c, out, why, why_size)
              : composition == COMPOSITION_NODE_TREE ? c->sched && model_needs_schedule(c) ? schedule_path_terms(c, out, why, why_size) : chained_tree(c, out, why, why_size)
                                                     : flat(c, out, why, why_size);
    if (ok && !steps && out->slices > 1) pipeline_terms(out, c, out->slices);
    return ok;
}

/* NCCL's per-step latency, once per step: the steps are the n_α of C's
 * prediction without fill or slicing (`form: asymptotic`, one slice), each
 * at its term's tier; the sum joins the launch. */
static bool charge_steps(const model_case *c, endpoint_costs *costs, char *why, int why_size)
{
    double stepped = 0;
    for (int k = 0; k < TOPO_MAX_TIERS; k++) stepped += costs->step_s[k];
    if (stepped > 0) {
        model_case asymptotic = *c;
        asymptotic.form = FORM_ASYMPTOTIC;
        prediction p;
        if (!build_terms(&asymptotic, costs, true, &p, why, why_size)) return false;
        for (int i = 0; i < p.term_count; i++) costs->launch_s += p.terms[i].n_alpha * costs->step_s[p.terms[i].tier];
    }
    memset(costs->step_s, 0, sizeof costs->step_s);
    return true;
}

/* The protocol's bus-bandwidth cap as wire bytes: C's bus bandwidth C(N)·M
 * over its BW terms at the links' rate (the tiers' efficiency applied, as
 * the terms carry it); above the cap, the wire ratio grows by bus/cap (to
 * three decimals). */
static bool charge_cap(const model_case *c, endpoint_costs *costs, char *why, int why_size)
{
    double cap = costs->bus_cap_Bps;
    costs->bus_cap_Bps = 0;
    if (!(cap > 0)) return true;
    prediction p;
    if (!build_terms(c, costs, false, &p, why, why_size)) return false;
    double seconds_per_byte = 0;
    for (int i = 0; i < p.term_count; i++)
        seconds_per_byte += p.terms[i].n_beta / p.terms[i].bandwidth_Bps;
    double bus = seconds_per_byte > 0 ? primitive_busbw_factor(c->prim, c->ranks) / seconds_per_byte : 0;
    /* to three decimals, the caps' own precision: a small numerator keeps the executor's byte scaling exact */
    if (bus > cap)
        endpoint_costs_set_wire(costs, (int)lround((double)costs->wire_numerator / costs->wire_denominator * bus / cap * 1e3),
                                1000);
    return true;
}

bool model_case_costs(const model_case *c, endpoint_costs *out, char *why, int why_size)
{
    if (!c->algorithm) {
        snprintf(why, (size_t)why_size, "no %s algorithm", primitive_name(c->prim));
        return false;
    }
    model_case exact = *c; /* what runs, whatever form predicts it */
    if (exact.form == FORM_SEED) exact.form = FORM_EXACT;
    case_costs(&exact, out);
    return charge_steps(&exact, out, why, why_size) && charge_cap(&exact, out, why, why_size);
}

bool model_predict(const model_case *c, prediction *out, char *why, int why_size)
{
    endpoint_costs costs = {.wire_numerator = 1, .wire_denominator = 1}; /* the seed's model: none */
    if (!c->algorithm) {
        snprintf(why, (size_t)why_size, "no %s algorithm", primitive_name(c->prim));
        return false;
    }
    if (c->form != FORM_SEED && !model_case_costs(c, &costs, why, why_size)) return false;
    if (!build_terms(c, &costs, false, out, why, why_size)) return false;
    out->launch_s = costs.launch_s;
    out->time_s = out->ideal_s = costs.launch_s;
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
