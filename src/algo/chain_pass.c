/* chain_pass.c — pipelined chains for broadcast and reduce. */
#include "algo/chain_pass.h"

#include <stdlib.h>

#include "algo/group_check.h"
#include "algo/rank_math.h"

void chain_pass(schedule *s, const int *members, int n, int first, int segments, bool reduce, int *entry)
{
    for (int position = 0; position < n; position++) {
        int self = members[position], previous = entry[self];
        for (int segment = 0; segment < segments; segment++) {
            int arrived = entry[self];
            if (position > 0)
                previous = arrived = sched_recv(s, self, members[position - 1], first + segment, 1, reduce, entry[self],
                                                SCHED_NO_DEP);
            if (position < n - 1) {
                int sent = sched_send(s, self, members[position + 1], first + segment, 1, arrived, SCHED_NO_DEP);
                if (position == 0) previous = sent;
            }
        }
        entry[self] = previous;
    }
}

schedule *chain_schedule(primitive prim, const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, root = p->root, segments = p->segments > 0 ? p->segments : p->ranks;
    if (!rooted_group_accepted(p, prim == PRIM_BCAST ? "ring broadcast" : "ring reduce", why, why_size)) return NULL;
    schedule *s = schedule_create(prim, n, 0, segments);
    s->root = root;
    s->segments = segments;
    int *members = malloc(sizeof(int) * (size_t)n), *entry = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        /* broadcast: root, root+1, ...; reduce: root+N-1, ..., root+1, root */
        members[i] = prim == PRIM_BCAST ? rank_mod(root + i, n) : rank_mod(root + n - 1 - i, n);
        entry[i] = SCHED_NO_DEP;
    }
    chain_pass(s, members, n, 0, segments, prim == PRIM_REDUCE, entry);
    free(members);
    free(entry);
    return s;
}
