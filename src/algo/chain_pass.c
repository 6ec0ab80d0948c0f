/* chain_pass.c — pipelined chains for broadcast and reduce. */
#include "algo/chain_pass.h"

#include <stdlib.h>
#include <string.h>

#include "algo/group_check.h"
#include "algo/pipeline.h"
#include "algo/rank_math.h"

int *chain_held_create(int actors, int segments)
{
    size_t count = 2 * (size_t)actors * (size_t)segments;
    int *held = malloc(sizeof(int) * count);
    for (size_t i = 0; i < count; i++) held[i] = SCHED_NO_DEP;
    return held;
}

void chain_pass(schedule *s, const int *members, int n, int first, int segments, bool reduce, int *held)
{
    for (int position = 0; position < n; position++) {
        int self = members[position];
        for (int segment = 0; segment < segments; segment++) {
            int *h = chain_held(held, segments, self, segment);
            if (position > 0) {
                h[0] = sched_recv(s, self, members[position - 1], first + segment, 1, reduce, h[0], h[1]);
                h[1] = SCHED_NO_DEP;
            }
            if (position < n - 1) sched_send(s, self, members[position + 1], first + segment, 1, h[0], h[1]);
        }
    }
}

void bidirectional_chain_pass(schedule *s, const int *ring, int d, int first, int segments, bool reduce, int *held)
{
    const int lengths[2] = {d / 2, d - 1 - d / 2}; /* 02 §3.2: a floor(d/2)-step wave each way */
    int *chain = malloc(sizeof(int) * (size_t)(d / 2 + 1));
    /* A reduce's ring[0] takes each chain's receive after what it held
     * before the line (BEFORE), then holds both receives. */
    int *root = chain_held(held, segments, ring[0], 0);
    int *before = malloc(sizeof(int) * 2 * (size_t)segments);
    memcpy(before, root, sizeof(int) * 2 * (size_t)segments);
    for (int side = 0; side < 2 && lengths[side] > 0; side++) {
        int length = lengths[side];
        for (int j = 0; j <= length; j++) chain[reduce ? length - j : j] = ring[rank_mod(side == 0 ? j : -j, d)];
        if (reduce && side == 1)
            for (int g = 0; g < segments; g++) {
                int first_chain = root[2 * g];
                root[2 * g] = before[2 * g];
                root[2 * g + 1] = before[2 * g + 1];
                before[2 * g] = first_chain;
            }
        chain_pass(s, chain, length + 1, first, segments, reduce, held);
        if (reduce && side == 1)
            for (int g = 0; g < segments; g++) root[2 * g + 1] = before[2 * g];
    }
    free(chain);
    free(before);
}

int chain_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    if (!rooted_group_accepted(p, prim == PRIM_BCAST ? "ring broadcast" : "ring reduce", why, why_size)) return 0;
    return pipeline_segments(p, p->ranks - 1, p->ranks); /* L = N-1, 01 App. C.3; default P = N */
}

schedule *chain_schedule(primitive prim, const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, root = p->root, segments = chain_segments(prim, p, why, why_size);
    if (!segments) return NULL;
    schedule *s = schedule_create(prim, n, 0, segments);
    s->root = root;
    s->segments = segments;
    int *members = malloc(sizeof(int) * (size_t)n), *held = chain_held_create(n, segments);
    for (int i = 0; i < n; i++)
        /* broadcast: root, root+1, ...; reduce: root+N-1, ..., root+1, root */
        members[i] = prim == PRIM_BCAST ? rank_mod(root + i, n) : rank_mod(root + n - 1 - i, n);
    chain_pass(s, members, n, 0, segments, prim == PRIM_REDUCE, held);
    free(members);
    free(held);
    return s;
}
