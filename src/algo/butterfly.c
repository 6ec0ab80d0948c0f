/* butterfly.c — the exchange step shared by the butterflies, PAT, Bruck and
 * the pairwise all-to-alls, and Rabenseifner's halving / doubling passes
 * built from it. */
#include "algo/butterfly.h"

void exchange_step(schedule *s, int rank, int to, range_list send, int from, range_list recv, bool reduce,
                   int *last_send, int *last_recv)
{
    int sent = sched_send_ranges(s, rank, to, send.ranges, send.count, *last_send, *last_recv);
    *last_recv = sched_recv_ranges(s, rank, from, recv.ranges, recv.count, reduce, *last_send, *last_recv);
    *last_send = sent;
}

void pairwise_step(schedule *s, int rank, int to, int from, int send_first, int recv_first, int count, bool reduce,
                   int *last_send, int *last_recv)
{
    chunk_range send = {send_first, count}, recv = {recv_first, count};
    exchange_step(s, rank, to, (range_list){&send, 1}, from, (range_list){&recv, 1}, reduce, last_send, last_recv);
}

void butterfly_step(schedule *s, int rank, int partner, int send_first, int recv_first, int count, bool reduce,
                    int *last_send, int *last_recv)
{
    pairwise_step(s, rank, partner, partner, send_first, recv_first, count, reduce, last_send, last_recv);
}

/* First slice of the range member SELF keeps at halving step STEP (0-based)
 * of an N-member pass: N / 2^(STEP+1) slices. */
static int kept_first(int self, int n, int step)
{
    int first = 0, count = n;
    for (int j = 0; j <= step; j++) {
        count /= 2;
        if (self & (1 << j)) first += count;
    }
    return first;
}

int halving_slice(int member, int n)
{
    int steps = 0;
    while ((1 << steps) < n) steps++;
    return steps == 0 ? 0 : kept_first(member, n, steps - 1);
}

void halving_doubling_pass(schedule *s, const int *members, int n, int first, int width, bool reduce, int *last_send,
                           int *last_recv)
{
    int steps = 0;
    while ((1 << steps) < n) steps++;
    for (int i = 0; i < n; i++) {
        int self = members[i];
        for (int k = 0; k < steps; k++) {
            int step = reduce ? k : steps - 1 - k, partner = i ^ (1 << step);
            int count = (n >> (step + 1)) * width;
            int mine = first + kept_first(i, n, step) * width, theirs = first + kept_first(partner, n, step) * width;
            /* RS sends the partner's half and reduces its own; AG the reverse */
            butterfly_step(s, self, members[partner], reduce ? theirs : mine, reduce ? mine : theirs, count, reduce,
                           &last_send[self], &last_recv[self]);
        }
    }
}
