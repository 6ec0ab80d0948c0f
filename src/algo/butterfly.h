/* butterfly.h — one step of a butterfly (recursive doubling / halving,
 * explainer 01 App. B): a rank sends COUNT chunks from SEND_FIRST to its
 * partner and receives COUNT chunks into RECV_FIRST (copying, or reducing),
 * both after the rank's previous step (*LAST_SEND, *LAST_RECV, updated).
 * The send reads its chunks when posted, before the receive writes (as in
 * the executor and the verifier), so the two may cover the same chunks. */
#ifndef COLLSIM_BUTTERFLY_H
#define COLLSIM_BUTTERFLY_H

#include <stdbool.h>

#include "sched/schedule.h"

/* The same with distinct peers: send to TO, receive from FROM (pairwise
 * all-to-all rounds, explainer 01 §7.2). */
void exchange_step(schedule *s, int rank, int to, int from, int send_first, int recv_first, int count, bool reduce,
                   int *last_send, int *last_recv);
void butterfly_step(schedule *s, int rank, int partner, int send_first, int recv_first, int count, bool reduce,
                    int *last_send, int *last_recv);

#endif
