/* schedule_path.c — the prediction of a schedule that has no closed form (an
 * imported MSCCL algorithm, NCCL's tree on nodes whose GPUs are a full mesh:
 * model_needs_schedule): its α-β time itself, the critical path of its
 * dependencies and messages (sched/critical_path.h), each message costing
 * its route's α, its tier's sender overhead, and its bytes over the
 * narrowest link of its route (explainer 03 §2.1's BW_bottleneck: what it
 * gets alone), the protocol's efficiency applied as for every term.  The
 * path's messages become one term per tier (n_α: the route α's over the
 * tier's α; n_β: their bytes over M), so η is fitted as for any algorithm.
 * Where a built-in's closed form is exact (a ring on a star), the same
 * schedule read back from MSCCL's XML has the same path, so the same time. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/msccl_program.h"
#include "model/formulas.h"
#include "sched/critical_path.h"

typedef struct path_costs {
    const model_case *c;
    route_hop *hops;
    double chunk_bytes;
    double wire;                          /* data bytes per wire byte (the protocol's) */
    double bandwidth_Bps[TOPO_MAX_TIERS]; /* a term's rate per tier: the narrowest of tiers 0..t */
    double overhead_s[TOPO_MAX_TIERS];
} path_costs;

static int node_of(const model_case *c, int actor)
{
    return c->members ? c->members[actor] : actor;
}

/* The route of one message: its tier, its α and the narrowest of its links' rates (the tiers'
 * efficiency in them: what a lone message gets in the simulation), HOPS filled. */
static int route_of(const path_costs *x, int from, int to, double *alpha_s, double *rate_Bps)
{
    const topology *t = x->c->platform;
    int count = topology_route(t, node_of(x->c, from), node_of(x->c, to), x->hops);
    *alpha_s = route_latency(t, x->hops, count);
    *rate_Bps = count ? t->links[x->hops[0].link].bandwidth_Bps : 1;
    for (int h = 1; h < count; h++)
        if (t->links[x->hops[h].link].bandwidth_Bps < *rate_Bps) *rate_Bps = t->links[x->hops[h].link].bandwidth_Bps;
    return route_top_tier(t, x->hops, count);
}

static double message_cost(void *context, int from, int to, int chunks)
{
    const path_costs *x = context;
    double alpha, rate;
    int tier = route_of(x, from, to, &alpha, &rate);
    return alpha + x->overhead_s[tier] + chunks * x->chunk_bytes / (rate * x->wire);
}

bool model_needs_schedule(const model_case *c)
{
    /* a tree's chains on an xGMI node: each pair's link direction its own, the pipeline's fill on them
     * is not chained_tree's port-shared form; on several channels the chains share those links, and
     * the closed form stays (docs/model.md) */
    return c->algorithm->composition == COMPOSITION_IMPORTED ||
           (c->algorithm->composition == COMPOSITION_NODE_TREE && c->platform->mesh_ranks > 1 && c->channels <= 1);
}

bool schedule_path_terms(const model_case *c, prediction *out, char *why, int why_size)
{
    const schedule *s = c->sched;
    schedule *own = NULL; /* a case asked before its schedule is built (the tuner's protocol pick): built here */
    if (!s && c->algorithm->composition == COMPOSITION_IMPORTED) {
        diag d = {0};
        s = own = msccl_schedule(msccl_program_of(c->algorithm), c->prim, c->ranks, c->root, &d);
        if (!s) snprintf(why, (size_t)why_size, "%s:%d: %s", d.file, d.line, d.message);
    } else if (!s)
        snprintf(why, (size_t)why_size, "%s is predicted from its schedule, which is not built", c->algorithm->name);
    if (!s) return false;
    const topology *t = c->platform;
    bool per_rank = s->prim == PRIM_ALLTOALL || s->prim == PRIM_PERMUTATION;
    path_costs x = {.c = c, .hops = route_buffer(t),
                    .chunk_bytes = (per_rank ? c->size_bytes * s->ranks : c->size_bytes) / s->chunks};
    double wire = (double)out->costs.wire_denominator / out->costs.wire_numerator;
    x.wire = wire;
    for (int tier = 0; tier < t->tier_count; tier++) {
        double bw = t->tiers[tier].bandwidth_Bps;
        x.bandwidth_Bps[tier] = tier > 0 && x.bandwidth_Bps[tier - 1] / wire < bw ? x.bandwidth_Bps[tier - 1] / wire : bw;
        x.bandwidth_Bps[tier] *= wire;
        x.overhead_s[tier] = out->costs.overhead_s[tier];
    }
    sched_path path;
    bool ok = sched_critical_path(s, message_cost, &x, &path);
    if (!ok) {
        snprintf(why, (size_t)why_size, "actor %d op %d of its schedule never completes", path.stuck_actor, path.stuck_op);
        free(x.hops);
        schedule_free(own);
        return false;
    }
    counts per_tier[TOPO_MAX_TIERS] = {{0, 0}};
    for (int i = 0; i < path.message_count; i++) {
        double alpha, rate;
        int tier = route_of(&x, path.from[i], path.to[i], &alpha, &rate);
        per_tier[tier].n_alpha += t->tiers[tier].alpha_s > 0 ? alpha / t->tiers[tier].alpha_s : 1;
        /* its bytes at its route's rate, counted against the tier's term rate */
        per_tier[tier].n_beta += path.chunks[i] * x.chunk_bytes / c->size_bytes * (x.bandwidth_Bps[tier] / wire) / rate;
    }
    for (int tier = 0; tier < t->tier_count && out->term_count < MODEL_MAX_TERMS; tier++)
        if (per_tier[tier].n_alpha > 0 || per_tier[tier].n_beta > 0)
            model_add_term(out, c, tier, -1, t->tiers[tier].name, per_tier[tier], t->tiers[tier].alpha_s,
                           x.bandwidth_Bps[tier] / wire);
    sched_path_free(&path);
    free(x.hops);
    schedule_free(own);
    return true;
}
