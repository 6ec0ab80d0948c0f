/* message_bytes.h — inside the executor: the bytes an op moves
 * (message_bytes.c owns the arithmetic and says why).  The size of a message
 * as the network is handed it is inline here: actor_run.c computes it once per
 * message, with no allocation and no lookup. */
#ifndef COLLSIM_MESSAGE_BYTES_H
#define COLLSIM_MESSAGE_BYTES_H

#include <math.h>

#include "exec/executor.h"

/* A part's messages on the wire, in scaled bytes: the data bytes times the
 * protocol's wire ratio times K, the simulation's common scale, whole. */
typedef struct message_size {
    long long chunk_units;    /* one chunk in scaled bytes when that is whole (and the part unweighted), else 0 */
    long double chunk_scaled; /* one chunk in scaled bytes, real-valued */
    double *weight_sum;       /* skewed all-to-all: prefix sums of the chunk weights (chunks + 1), or NULL */
} message_size;

/* The bytes of P's chunk grid, whole (message_bytes.c). */
long long part_data_bytes(const exec_part *p);
/* K: the smallest factor that makes every chunk of the COUNT PARTS whole on
 * the wire, or the cap (message_bytes.c). */
long long message_scale(const exec_part *parts, int count);
/* P's message sizes at scale K; message_size_free releases them. */
void message_size_init(message_size *m, const exec_part *p, long long scale);
void message_size_free(message_size *m);

/* The scaled wire bytes of OP of actor A: exact when the part's chunks are
 * whole, else the weighted (skewed all-to-all) or rounded size, at least 1. */
static inline long message_scaled_bytes(const message_size *m, const sched_actor *a, const sched_op *op)
{
    if (!m->weight_sum && m->chunk_units) return (long)(op->count * m->chunk_units);
    long double chunks = op->count;
    if (m->weight_sum) {
        chunks = 0;
        for (int i = 0; i < sched_op_range_count(op); i++) {
            chunk_range r = sched_op_range(a, op, i);
            chunks += (long double)m->weight_sum[r.first + r.count] - m->weight_sum[r.first];
        }
    }
    long bytes = (long)llroundl(chunks * m->chunk_scaled);
    return bytes > 0 ? bytes : 1; /* a zero-weight block still synchronises */
}

#endif
