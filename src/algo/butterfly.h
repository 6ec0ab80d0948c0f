/* butterfly.h — one step of a butterfly (recursive doubling / halving,
 * explainer 01 App. B): a rank sends COUNT chunks from SEND_FIRST to its
 * partner and receives COUNT chunks into RECV_FIRST (copying, or reducing),
 * both after the rank's previous step (*LAST_SEND, *LAST_RECV, updated).
 * The send reads its chunks when posted, before the receive writes (as in
 * the executor and the verifier), so the two may cover the same chunks.
 *
 * exchange_step is the general form: one message of several chunk ranges
 * to TO and one from FROM (PAT's strided sets, App. A; Bruck's rotating
 * slots, App. B.5); butterfly_step is the case TO = FROM, one range each. */
#ifndef COLLSIM_BUTTERFLY_H
#define COLLSIM_BUTTERFLY_H

#include <stdbool.h>

#include "sched/schedule.h"

typedef struct range_list {
    const chunk_range *ranges;
    int count;
} range_list;

void exchange_step(schedule *s, int rank, int to, range_list send, int from, range_list recv, bool reduce,
                   int *last_send, int *last_recv);

void butterfly_step(schedule *s, int rank, int partner, int send_first, int recv_first, int count, bool reduce,
                    int *last_send, int *last_recv);

#endif
