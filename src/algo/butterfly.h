/* butterfly.h — butterflies (recursive doubling / halving, explainer 01
 * App. B).
 *
 * butterfly_step: one step.  A rank sends COUNT chunks from SEND_FIRST to its
 * partner and receives COUNT chunks into RECV_FIRST (copying, or reducing),
 * both after the rank's previous step (*LAST_SEND, *LAST_RECV, updated).
 * The send reads its chunks when posted, before the receive writes (as in
 * the executor and the verifier), so the two may cover the same chunks.
 *
 * halving_doubling_pass: the two phases of Rabenseifner's all-reduce (01
 * App. B.2) over members[0..n-1], n a power of two, sharing n slices of
 * WIDTH chunks from FIRST.  Reduce-scatter (REDUCE): step j = 0..log2 n - 1
 * pairs member i with i XOR 2^j; of the range both still hold, the member
 * with bit j clear keeps the lower half, the other the upper; each sends the
 * partner's half and reduces its own, so member i ends with the full sum of
 * slice halving_slice(i, n) (i bit-reversed).  All-gather: the same partners
 * in reverse order, each sending what it kept at that step and copying the
 * partner's.  Payloads n/2, n/4, ..., 1 slices (and back up).  LAST_SEND and
 * LAST_RECV, indexed by actor, are each member's previous ops (SCHED_NO_DEP
 * for none), updated to its last step's.
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

/* One range each way, TO and FROM distinct (pairwise all-to-all rounds,
 * explainer 01 §7.2). */
void pairwise_step(schedule *s, int rank, int to, int from, int send_first, int recv_first, int count, bool reduce,
                   int *last_send, int *last_recv);
void butterfly_step(schedule *s, int rank, int partner, int send_first, int recv_first, int count, bool reduce,
                    int *last_send, int *last_recv);

void halving_doubling_pass(schedule *s, const int *members, int n, int first, int width, bool reduce, int *last_send,
                           int *last_recv);

/* The slice member I of an N-member halving pass ends with. */
int halving_slice(int member, int n);

#endif
