/* butterfly.c — the pairwise exchange step shared by the butterflies. */
#include "algo/butterfly.h"

void butterfly_step(schedule *s, int rank, int partner, int send_first, int recv_first, int count, bool reduce,
                    int *last_send, int *last_recv)
{
    int send = sched_send(s, rank, partner, send_first, count, *last_send, *last_recv);
    *last_recv = sched_recv(s, rank, partner, recv_first, count, reduce, *last_send, *last_recv);
    *last_send = send;
}
