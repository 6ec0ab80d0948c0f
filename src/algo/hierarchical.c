/* hierarchical.c — two-tier collectives (explainer 03 §2.1): the group's N
 * ranks form L = N/D inner domains of D ranks (a SuperPOD pod, a node of a
 * rail cluster, a Clos leaf: algo_params.domain_ranks, the group's share of
 * each domain it touches, so TP / DP groups that are a subset of the
 * platform qualify); position g·D + q is rank q of domain g
 * (algo_params.domain_order maps positions to group ranks).  Each part is a
 * whole registered algorithm run on sub-groups and embedded with
 * sched_embed, so the inner and outer algorithms are parameters (ring by
 * default, `inc` included: each sub-group then gets its own aggregation tree,
 * NVLS in a pod, IB SHARP on a rail, 03 §3.1):
 *   AR: inner RS in every domain (rank (g,q) ends with block q, M/D), outer AR
 *       of block q across the L ranks at position q, inner AG.
 *   AG: outer AG across each position, then inner AG; RS: inner RS, then
 *       outer RS.  The slice of rank (g,q) sits at slice position q·L + g, so
 *       both parts move contiguous blocks and only (L-1)·M/N per rank crosses
 *       the outer tier (the seed lists AG as inner → outer, which would carry
 *       (L-1)·M/L across it; the α terms are the same).
 * Ring on ring: n_α = 2(D-1) inner + 2(L-1) outer, n_β = 2(N-1)/N (AR; half
 * of each for AG / RS), 03 §2.1's table.  Each part is one phase.  `run`
 * asks for the composition generated rather than stored where its parts
 * allow (composition_generated.c): nothing is then kept per op but the
 * parts' sub-schedules.
 *
 * hierarchical_pipelined cuts the data into P slices (01 App. C: a conveyor
 * of the parts) and runs the composition on each, a slice's next part as
 * soon as its previous part is done (NCCL's multi-node schedules overlap
 * their intra- and inter-node traffic this way); each part runs on
 * connections of its own (a channel per part), so a slice's outer AR
 * overlaps the next slice's inner RS, and slices follow one another on each
 * connection. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/algorithm.h"
#include "algo/composition_generated.h"
#include "algo/group_check.h"
#include "algo/pipeline.h"
#include "sched/compose.h"

typedef composition_part part;

#define HIERARCHICAL_MAX_CHUNKS (1L << 28) /* chunk indices are 32-bit (schedule.h) */

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The group ranks of sub-group K of a part: position k of every domain
 * (outer), or the ranks of domain k (inner). */
static void sub_group(const algo_params *p, bool outer, int k, int *members)
{
    int d = p->domain_ranks, l = p->ranks / d, size = outer ? l : d;
    for (int j = 0; j < size; j++) members[j] = domain_rank(p, outer ? j * d + k : k * d + j);
}

/* One part over MEMBERS (RANKS group ranks) moving PAYLOAD bytes: its
 * algorithm and parameters (an `inc` part with the sub-group's own tree in
 * *TREE, which the caller frees when *SUB's inc is set), or NULL with WHY. */
static const algorithm *part_setup(const part *pt, const algo_params *p, const int *members, int ranks, double payload,
                                   int segments, algo_params *sub, inc_tree *tree, char *why, int why_size)
{
    const char *name = pt->outer ? p->outer : p->inner;
    const algorithm *algo = p->part_of(pt->prim, name);
    if (!algo) {
        snprintf(why, (size_t)why_size, "hierarchical: no %s algorithm '%s' for the %s tier", primitive_name(pt->prim),
                 name ? name : "ring", pt->outer ? "outer" : "inner");
        return NULL;
    }
    *sub = (algo_params){.ranks = ranks, .segments = segments, .size_bytes = payload, .alpha_s = p->alpha_s,
                         .bandwidth_Bps = p->bandwidth_Bps};
    unsigned capabilities = algo->inc_capabilities;
    char sub_why[384] = "";
    if (capabilities) {
        if (!p->inc_tree_of || !p->inc_tree_of(p->inc_context, members, ranks, capabilities, tree, sub_why, sizeof sub_why)) {
            snprintf(why, (size_t)why_size, "hierarchical %s tier (%d ranks): %s", pt->outer ? "outer" : "inner", ranks,
                     sub_why[0] ? sub_why : "inc needs INC-capable switches above each sub-group");
            return NULL;
        }
        sub->inc = tree;
        sub->alpha_s = tree->alpha_switch_s; /* P* of the part's pipeline at its legs' α and BW (04 §2) */
        sub->bandwidth_Bps = tree->bandwidth_Bps;
    }
    return algo;
}

/* One part's sub-schedule (BUILD) or only its segments (else, in *SEGMENTS):
 * false with WHY when the part's algorithm refuses its sub-group.  A part
 * runs on one channel and is never itself a composition (part_setup), so
 * its own builder and segments rule are what the registry would call. */
static bool part_run(const part *pt, const algo_params *p, const int *members, int ranks, double payload, int segments,
                     bool build, schedule **built, int *got, char *why, int why_size)
{
    algo_params sub;
    inc_tree tree;
    const algorithm *algo = part_setup(pt, p, members, ranks, payload, segments, &sub, &tree, why, why_size);
    if (!algo) return false;
    char sub_why[384] = "";
    if (build) *built = algo->build(&sub, sub_why, sizeof sub_why);
    else *got = algo->segments(algo->prim, &sub, sub_why, sizeof sub_why);
    if (sub.inc) inc_tree_free(&tree);
    bool ok = build ? *built != NULL : *got > 0;
    if (!ok) snprintf(why, (size_t)why_size, "hierarchical %s tier (%d ranks): %s", pt->outer ? "outer" : "inner", ranks,
                      sub_why);
    return ok;
}

/* One part's sub-schedule, or NULL with WHY. */
static schedule *build_part(const part *pt, const algo_params *p, const int *members, int ranks, double payload,
                            int segments, char *why, int why_size)
{
    schedule *built = NULL;
    return part_run(pt, p, members, ranks, payload, segments, true, &built, NULL, why, why_size) ? built : NULL;
}

/* compose's refusals (but for the chunk grid's limit, the stored
 * schedule's) and its segments: SLICES when sliced, else the parts' most. */
static int composed_segments(const part *parts, int part_count, const algo_params *p, int slices, char *why,
                             int why_size)
{
    if (!two_tier_group_accepted(p, why, why_size)) return 0;
    int n = p->ranks, d = p->domain_ranks, l = n / d, most = 1;
    int *members = malloc(sizeof(int) * (size_t)n);
    bool ok = true;
    for (int i = 0; i < part_count && ok; i++) {
        int size = parts[i].outer ? l : d, groups = parts[i].outer ? d : l;
        double payload = parts[i].outer ? p->size_bytes / slices / d : p->size_bytes / slices;
        for (int k = 0; size >= 2 && k < groups && ok; k++) {
            int got = 0;
            sub_group(p, parts[i].outer, k, members);
            ok = part_run(&parts[i], p, members, size, payload, slices > 1 ? 0 : p->segments, false, NULL, &got, why,
                          why_size);
            if (!ok) break;
            if (got > most) most = got;
            if (!p->part_of(parts[i].prim, parts[i].outer ? p->outer : p->inner)->inc_capabilities)
                break; /* no switch actors: one sub-schedule serves every sub-group */
        }
    }
    free(members);
    return !ok ? 0 : slices > 1 ? slices : most;
}

/* The parts' sub-schedules: CHILD[i][k] for sub-group k of part i, one
 * shared by every sub-group (k = 0) unless the part runs switch actors. */
typedef struct parts_built {
    schedule **child[COMPOSITION_MAX_PARTS];
    int count[COMPOSITION_MAX_PARTS];   /* sub-schedules of part i (0: the tier has one rank) */
    int switches;   /* switch actors over all parts and sub-groups */
    long chunks;    /* chunks of one composition */
} parts_built;

static void free_parts(parts_built *b, int part_count)
{
    for (int i = 0; i < part_count; i++) {
        for (int k = 0; k < b->count[i]; k++) schedule_free(b->child[i][k]);
        free(b->child[i]);
    }
}

static bool build_parts(const part *parts, int part_count, const algo_params *p, int segments, parts_built *b,
                        char *why, int why_size)
{
    int n = p->ranks, d = p->domain_ranks, l = n / d;
    int *members = malloc(sizeof(int) * (size_t)n);
    *b = (parts_built){.chunks = 1};
    bool ok = true;
    for (int i = 0; i < part_count && ok; i++) {
        int size = parts[i].outer ? l : d, groups = parts[i].outer ? d : l;
        b->child[i] = calloc((size_t)groups, sizeof(schedule *));
        if (size < 2) continue;
        double payload = parts[i].outer ? p->size_bytes / d : p->size_bytes;
        for (int k = 0; k < groups && ok; k++) {
            sub_group(p, parts[i].outer, k, members);
            schedule *s = build_part(&parts[i], p, members, size, payload, segments, why, why_size);
            ok = s != NULL;
            if (!ok) break;
            b->child[i][b->count[i]++] = s;
            b->switches += s->actors - s->ranks;
            if (s->actors == s->ranks) break; /* no switch actors: one schedule serves every sub-group */
        }
        long need = ok ? (long)b->child[i][0]->chunks * (parts[i].outer ? d : 1) : 1;
        b->chunks = b->chunks / gcd(b->chunks, need) * need; /* below 2^28 x 2^34: no wrap */
        ok = ok && b->chunks <= HIERARCHICAL_MAX_CHUNKS;
    }
    free(members);
    if (b->chunks <= HIERARCHICAL_MAX_CHUNKS) b->chunks = b->chunks / gcd(b->chunks, n) * n; /* whole slices */
    if (ok && b->chunks > HIERARCHICAL_MAX_CHUNKS) ok = false;
    if (!ok && b->chunks > HIERARCHICAL_MAX_CHUNKS)
        snprintf(why, (size_t)why_size, "hierarchical: the parts' chunk grids combine to more than %ld chunks (their "
                 "segment counts share no factor): give the parts fewer segments", HIERARCHICAL_MAX_CHUNKS);
    if (!ok) free_parts(b, part_count);
    return ok;
}

/* Whether S now generates the composition of B's parts (one slice, no
 * switch actors): then S holds the sub-schedules and B is freed. */
static bool generated(schedule *s, const part *parts, int part_count, const algo_params *p, parts_built *b)
{
    schedule *child[COMPOSITION_MAX_PARTS] = {NULL};
    for (int i = 0; i < part_count; i++) child[i] = b->count[i] > 0 ? b->child[i][0] : NULL;
    if (!composition_generate(s, parts, part_count, p->domain_order, p->domain_ranks, child)) return false;
    for (int i = 0; i < part_count; i++) b->count[i] = 0; /* S's now */
    free_parts(b, part_count);
    return true;
}

/* The composition of PARTS over P's two-tier group, SLICES times over
 * consecutive ranges of the data (1: the phases one after another),
 * generated rather than stored when GENERATE and the parts allow. */
static schedule *compose(primitive prim, const part *parts, int part_count, const algo_params *p, int slices,
                         bool generate, char *why, int why_size)
{
    if (!two_tier_group_accepted(p, why, why_size)) return NULL;
    int n = p->ranks, d = p->domain_ranks, l = n / d;
    parts_built b;
    algo_params sliced = *p;
    sliced.size_bytes = p->size_bytes / slices;
    if (!build_parts(parts, part_count, &sliced, slices > 1 ? 0 : p->segments, &b, why, why_size)) return NULL;
    if (b.chunks * slices > HIERARCHICAL_MAX_CHUNKS) {
        snprintf(why, (size_t)why_size, "hierarchical_pipelined: %d slices of %ld chunks pass %ld chunks: give fewer "
                 "segments", slices, b.chunks, HIERARCHICAL_MAX_CHUNKS);
        free_parts(&b, part_count);
        return NULL;
    }
    schedule *s = schedule_create(prim, n, b.switches, (int)(b.chunks * slices));
    if (b.switches > 0) s->switch_node = malloc(sizeof(int) * (size_t)b.switches);
    if (prim != PRIM_ALLREDUCE) {
        s->slice_positions = slices * n;
        s->slice_owner = malloc(sizeof(int) * (size_t)(slices * n));
        for (int c = 0; c < slices; c++)
            for (int g = 0; g < l; g++)
                for (int q = 0; q < d; q++) s->slice_owner[c * n + q * l + g] = domain_rank(p, g * d + q);
    }
    if (generate && slices == 1 && b.switches == 0 && generated(s, parts, part_count, p, &b)) return s;
    int *part_start = calloc((size_t)s->actors, sizeof(int)), *members = malloc(sizeof(int) * (size_t)n);
    int *map = malloc(sizeof(int) * (size_t)(n + b.switches + 1));
    for (int c = 0; c < slices; c++) {
        for (int a = 0; a < s->actors; a++) part_start[a] = s->actor[a].op_count; /* a slice waits for no other */
        int switch_base = 0;
        for (int i = 0; i < part_count; i++) {
            sched_set_phase(s, i, parts[i].phase);
            if (slices > 1) sched_set_channel(s, i);
            int groups = parts[i].outer ? d : l, size = parts[i].outer ? l : d;
            long span = parts[i].outer ? b.chunks / d : b.chunks;
            for (int k = 0; k < groups && b.count[i] > 0; k++) {
                const schedule *child = b.child[i][b.count[i] > 1 ? k : 0];
                sub_group(p, parts[i].outer, k, members);
                for (int j = 0; j < size; j++) map[j] = members[j];
                for (int w = 0; w < child->actors - child->ranks; w++) { /* switch actors: slices share them */
                    int actor = n + switch_base + w;
                    map[size + w] = actor;
                    s->switch_node[switch_base + w] = child->switch_node[w];
                    part_start[actor] = s->actor[actor].op_count;
                }
                switch_base += child->actors - child->ranks;
                if (child->segments > s->segments && slices == 1) s->segments = child->segments;
                sched_embed(s, child, map, (int)(c * b.chunks + (parts[i].outer ? k * span : 0)), (int)(span / child->chunks),
                            part_start);
            }
        }
    }
    if (slices > 1) s->segments = slices;
    sched_set_channel(s, 0);
    free_parts(&b, part_count);
    free(part_start);
    free(members);
    free(map);
    return s;
}

static const part ar_parts[] = {{PRIM_REDUCESCATTER, false, "inner RS"},
                                {PRIM_ALLREDUCE, true, "outer AR"},
                                {PRIM_ALLGATHER, false, "inner AG"}};
static const part ag_parts[] = {{PRIM_ALLGATHER, true, "outer AG"}, {PRIM_ALLGATHER, false, "inner AG"}};
static const part rs_parts[] = {{PRIM_REDUCESCATTER, false, "inner RS"}, {PRIM_REDUCESCATTER, true, "outer RS"}};

const composition_part *hierarchical_parts(primitive prim, int *count)
{
    *count = prim == PRIM_ALLREDUCE ? 3 : 2;
    return prim == PRIM_ALLREDUCE ? ar_parts : prim == PRIM_ALLGATHER ? ag_parts : rs_parts;
}

int hierarchical_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    int count;
    const part *parts = hierarchical_parts(prim, &count);
    return composed_segments(parts, count, p, 1, why, why_size);
}

schedule *allreduce_hierarchical(const algo_params *p, char *why, int why_size)
{
    return compose(PRIM_ALLREDUCE, ar_parts, 3, p, 1, false, why, why_size);
}

schedule *allgather_hierarchical(const algo_params *p, char *why, int why_size)
{
    return compose(PRIM_ALLGATHER, ag_parts, 2, p, 1, false, why, why_size);
}

schedule *reducescatter_hierarchical(const algo_params *p, char *why, int why_size)
{
    return compose(PRIM_REDUCESCATTER, rs_parts, 2, p, 1, false, why, why_size);
}

/* P slices: `segments`, HIERARCHICAL_SLICES by default, or P* of 01 App.
 * C.3 for a conveyor of PARTS stages at the given α and BW. */
static int slices_of(const algo_params *p, int part_count)
{
    return pipeline_segments(p, part_count, HIERARCHICAL_SLICES);
}

int hierarchical_pipelined_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    int count;
    const part *parts = hierarchical_parts(prim, &count);
    return composed_segments(parts, count, p, slices_of(p, count), why, why_size);
}

schedule *allreduce_hierarchical_pipelined(const algo_params *p, char *why, int why_size)
{
    return compose(PRIM_ALLREDUCE, ar_parts, 3, p, slices_of(p, 3), false, why, why_size);
}

schedule *allgather_hierarchical_pipelined(const algo_params *p, char *why, int why_size)
{
    return compose(PRIM_ALLGATHER, ag_parts, 2, p, slices_of(p, 2), false, why, why_size);
}

schedule *reducescatter_hierarchical_pipelined(const algo_params *p, char *why, int why_size)
{
    return compose(PRIM_REDUCESCATTER, rs_parts, 2, p, slices_of(p, 2), false, why, why_size);
}

schedule *hierarchical_generate(const algorithm *a, const algo_params *p, char *why, int why_size)
{
    int count;
    const part *parts = hierarchical_parts(a->prim, &count);
    return compose(a->prim, parts, count, p, 1, true, why, why_size);
}
