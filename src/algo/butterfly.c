/* butterfly.c — the pairwise exchange step shared by the butterflies and the
 * pairwise all-to-alls. */
#include "algo/butterfly.h"

void exchange_step(schedule *s, int rank, int to, int from, int send_first, int recv_first, int count, bool reduce,
                   int *last_send, int *last_recv)
{
    int send = sched_send(s, rank, to, send_first, count, *last_send, *last_recv);
    *last_recv = sched_recv(s, rank, from, recv_first, count, reduce, *last_send, *last_recv);
    *last_send = send;
}

void butterfly_step(schedule *s, int rank, int partner, int send_first, int recv_first, int count, bool reduce,
                    int *last_send, int *last_recv)
{
    exchange_step(s, rank, partner, partner, send_first, recv_first, count, reduce, last_send, last_recv);
}
