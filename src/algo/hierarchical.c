/* hierarchical.c — two-tier collectives (explainer 03 §2.1): the group's N
 * ranks form L = N/D inner domains of D consecutive ranks (a SuperPOD pod, a
 * Clos leaf: algo_params.domain_ranks); rank r = g·D + q is position q of
 * domain g.  Each part is a whole registered algorithm run on sub-groups and
 * embedded with sched_embed, so the inner and outer algorithms are
 * parameters (ring by default):
 *   AR: inner RS in every domain (rank (g,q) ends with block q, M/D), outer AR
 *       of block q across the L ranks at position q, inner AG.
 *   AG: outer AG across each position, then inner AG; RS: inner RS, then
 *       outer RS.  The slice of rank (g,q) sits at slice position q·L + g, so
 *       both parts move contiguous blocks and only (L-1)·M/N per rank crosses
 *       the outer tier (the seed lists AG as inner → outer, which would carry
 *       (L-1)·M/L across it; the α terms are the same).
 * Ring on ring: n_α = 2(D-1) inner + 2(L-1) outer, n_β = 2(N-1)/N (AR; half
 * of each for AG / RS), 03 §2.1's table.  Each part is one phase. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/algorithm.h"
#include "algo/group_check.h"
#include "sched/compose.h"

typedef struct part {
    primitive prim;
    bool outer;          /* across positions (L ranks) rather than within a domain (D ranks) */
    const char *phase;
} part;

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

/* Build one part's sub-schedule (NULL when the tier has a single rank). */
static bool build_part(const part *pt, const algo_params *p, int ranks, schedule **out, char *why, int why_size)
{
    *out = NULL;
    if (ranks < 2) return true;
    const char *name = pt->outer ? p->outer : p->inner;
    if (!name) name = "ring";
    const algorithm *algo = algorithm_find(pt->prim, name);
    if (!algo || algo->build == allreduce_hierarchical || algo->build == allgather_hierarchical ||
        algo->build == reducescatter_hierarchical) {
        snprintf(why, (size_t)why_size, "hierarchical: no %s algorithm '%s' for the %s tier", primitive_name(pt->prim),
                 name, pt->outer ? "outer" : "inner");
        return false;
    }
    algo_params sub = {.ranks = ranks, .segments = p->segments};
    char sub_why[384] = "";
    *out = algo->build(&sub, sub_why, sizeof sub_why);
    if (!*out) {
        snprintf(why, (size_t)why_size, "hierarchical %s tier (%d ranks): %s", pt->outer ? "outer" : "inner", ranks, sub_why);
        return false;
    }
    if ((*out)->actors > (*out)->ranks) {
        snprintf(why, (size_t)why_size, "hierarchical: the %s tier's '%s' needs switch actors, which a part cannot have",
                 pt->outer ? "outer" : "inner", name);
        schedule_free(*out);
        *out = NULL;
        return false;
    }
    return true;
}

static schedule *compose(primitive prim, const part *parts, int part_count, const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, d = p->domain_ranks;
    if (!two_tier_group_accepted(p, why, why_size)) return NULL;
    int l = n / d;
    schedule *child[4] = {NULL, NULL, NULL, NULL};
    long chunks = 1;
    for (int i = 0; i < part_count; i++) {
        if (!build_part(&parts[i], p, parts[i].outer ? l : d, &child[i], why, why_size)) {
            while (i-- > 0) schedule_free(child[i]);
            return NULL;
        }
        long need = child[i] ? (long)child[i]->chunks * (parts[i].outer ? d : 1) : 1;
        chunks = chunks / gcd(chunks, need) * need; /* below 2^28 x 2^34: no wrap */
        if (chunks > HIERARCHICAL_MAX_CHUNKS) break;
    }
    if (chunks <= HIERARCHICAL_MAX_CHUNKS) chunks = chunks / gcd(chunks, n) * n; /* whole slices */
    if (chunks > HIERARCHICAL_MAX_CHUNKS) {
        snprintf(why, (size_t)why_size, "hierarchical: the parts' chunk grids combine to more than %ld chunks (their "
                 "segment counts share no factor): give the parts fewer segments", HIERARCHICAL_MAX_CHUNKS);
        for (int i = 0; i < part_count; i++) schedule_free(child[i]);
        return NULL;
    }
    schedule *s = schedule_create(prim, n, 0, (int)chunks);
    if (prim != PRIM_ALLREDUCE) {
        s->slice_owner = malloc(sizeof(int) * (size_t)n);
        for (int g = 0; g < l; g++)
            for (int q = 0; q < d; q++) s->slice_owner[q * l + g] = g * d + q;
    }
    int *part_start = calloc((size_t)n, sizeof(int)), *members = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < part_count; i++) {
        sched_set_phase(s, i, parts[i].phase);
        if (!child[i]) continue;
        if (child[i]->segments > s->segments) s->segments = child[i]->segments;
        int groups = parts[i].outer ? d : l, size = parts[i].outer ? l : d;
        long span = parts[i].outer ? chunks / d : chunks;
        for (int k = 0; k < groups; k++) {
            for (int j = 0; j < size; j++) members[j] = parts[i].outer ? j * d + k : k * d + j;
            int first = parts[i].outer ? (int)(k * span) : 0;
            sched_embed(s, child[i], members, first, (int)(span / child[i]->chunks), part_start);
        }
        schedule_free(child[i]);
    }
    free(part_start);
    free(members);
    return s;
}

schedule *allreduce_hierarchical(const algo_params *p, char *why, int why_size)
{
    static const part parts[] = {{PRIM_REDUCESCATTER, false, "inner RS"},
                                 {PRIM_ALLREDUCE, true, "outer AR"},
                                 {PRIM_ALLGATHER, false, "inner AG"}};
    return compose(PRIM_ALLREDUCE, parts, 3, p, why, why_size);
}

schedule *allgather_hierarchical(const algo_params *p, char *why, int why_size)
{
    static const part parts[] = {{PRIM_ALLGATHER, true, "outer AG"}, {PRIM_ALLGATHER, false, "inner AG"}};
    return compose(PRIM_ALLGATHER, parts, 2, p, why, why_size);
}

schedule *reducescatter_hierarchical(const algo_params *p, char *why, int why_size)
{
    static const part parts[] = {{PRIM_REDUCESCATTER, false, "inner RS"}, {PRIM_REDUCESCATTER, true, "outer RS"}};
    return compose(PRIM_REDUCESCATTER, parts, 2, p, why, why_size);
}
