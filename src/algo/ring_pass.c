/* ring_pass.c — a reduce-scatter or all-gather pass of a ring. */
#include "algo/ring_pass.h"

#include "algo/rank_math.h"

void ring_pass(schedule *s, const int *members, int n, int first, int width, bool reduce, int *entry)
{
    int shift = reduce ? 0 : 1; /* all-gather forwards one slice later in the rotation */
    for (int i = 0; i < n; i++) {
        int self = members[i], right = members[rank_mod(i + 1, n)], left = members[rank_mod(i - 1, n)];
        int previous = entry[self];
        for (int t = 1; t < n; t++) {
            int send_slice = rank_mod(i - t + shift, n), recv_slice = rank_mod(i - t - 1 + shift, n);
            sched_send(s, self, right, first + send_slice * width, width, previous, SCHED_NO_DEP);
            previous = sched_recv(s, self, left, first + recv_slice * width, width, reduce,
                                  t == 1 ? entry[self] : SCHED_NO_DEP, SCHED_NO_DEP);
        }
        entry[self] = previous;
    }
}
