/* butterfly.c — the pairwise exchange step shared by the butterflies, PAT
 * and Bruck. */
#include "algo/butterfly.h"

void exchange_step(schedule *s, int rank, int to, range_list send, int from, range_list recv, bool reduce,
                   int *last_send, int *last_recv)
{
    int sent = sched_send_ranges(s, rank, to, send.ranges, send.count, *last_send, *last_recv);
    *last_recv = sched_recv_ranges(s, rank, from, recv.ranges, recv.count, reduce, *last_send, *last_recv);
    *last_send = sent;
}

void butterfly_step(schedule *s, int rank, int partner, int send_first, int recv_first, int count, bool reduce,
                    int *last_send, int *last_recv)
{
    chunk_range send = {send_first, count}, recv = {recv_first, count};
    exchange_step(s, rank, partner, (range_list){&send, 1}, partner, (range_list){&recv, 1}, reduce, last_send,
                  last_recv);
}
