/* message_bytes.c — the bytes an op moves (docs/architecture.md, "The
 * schedule": a part's M bytes are `chunks` equal chunks of M/chunks bytes,
 * not rounded), in the two units the executor needs:
 *
 *   data bytes (exec_op_bytes): the op's chunks times a chunk's bytes, each
 *     chunk weighted by its block's weight in a skewed all-to-all.  Real-
 *     valued; what the trace shows per op.
 *   scaled wire bytes (message_scaled_bytes, message_bytes.h): the same
 *     chunks times the protocol's wire ratio (wire_numerator /
 *     wire_denominator: its flags on the wire) times K, whole: what the
 *     network is handed.  The networks take whole bytes, so every message
 *     and every link bandwidth is multiplied by K, the smallest factor that
 *     makes every unweighted part's chunks whole on the wire: times are
 *     unchanged and no chunk is rounded.  Past SCALE_CAP, and for weighted
 *     parts, a message is rounded once, to whole scaled bytes.
 *
 * Invariants:
 *   1. Both units read a chunk's bytes from one place (part_data_bytes and,
 *      on the wire, chunk_on_wire) and a chunk's skew weight from one
 *      (chunk_weight), so they agree on what an op moves.
 *   2. Neither is derived from the other, because each keeps the arithmetic
 *      it has always had and every result stays the same to the bit: the
 *      wire size sums a skewed op's weights as long double differences of
 *      prefix sums (one subtraction per range, on the per-message path) and
 *      rounds once; the data size sums each chunk's weight in double.  A
 *      data size derived from the rounded wire size would lose the fraction
 *      the rounding dropped; a wire size derived from the data size would
 *      round from a coarser value, and walk every chunk of every message.
 *   3. The wire size costs no allocation and no lookup per message: the
 *      prefix sums and the chunk's scaled size are computed once per part
 *      (message_size_init). */
#include "exec/message_bytes.h"

#include <limits.h>
#include <stdlib.h>

#include "util/memory.h"

#define SCALE_CAP (1LL << 10) /* beyond this common K, chunk sizes are rounded (to 2^-24 byte) */

static long long gcd(long long a, long long b)
{
    while (b) {
        long long r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* The bytes of a part's chunk grid: M, except all-to-all's N x N blocks where
 * M is each rank's total payload, M/N per destination (docs/scenarios.md,
 * "Sizes"), and a permutation's N messages of M. */
long long part_data_bytes(const exec_part *p)
{
    bool per_rank = p->s->prim == PRIM_ALLTOALL || p->s->prim == PRIM_PERMUTATION;
    return llround(per_rank ? p->size_bytes * p->s->ranks : p->size_bytes);
}

/* One chunk of P on the wire as the fraction BYTES / CHUNKS of whole bytes:
 * the grid's bytes times the wire ratio (1 / 1 without a protocol) over the
 * chunks. */
static void chunk_on_wire(const exec_part *p, long long *bytes, long long *chunks)
{
    long long numerator = p->wire_denominator > 0 ? p->wire_numerator : 1;
    long long denominator = p->wire_denominator > 0 ? p->wire_denominator : 1;
    *bytes = part_data_bytes(p) * numerator;
    *chunks = p->s->chunks * denominator;
}

/* A skewed all-to-all's chunk C weighs its block's weight (block (s, d) is
 * PER_BLOCK chunks: schedule.h). */
static int chunks_per_block(const schedule *s)
{
    return s->chunks / (s->ranks * s->ranks);
}

static double chunk_weight(const exec_part *p, int per_block, int c)
{
    return p->block_weight[c / per_block];
}

long long message_scale(const exec_part *parts, int count)
{
    long long k = 1;
    for (int i = 0; i < count; i++) {
        if (parts[i].block_weight) return SCALE_CAP;
        long long bytes, chunks;
        chunk_on_wire(&parts[i], &bytes, &chunks);
        long long ki = chunks / gcd(bytes, chunks);
        k = k / gcd(k, ki) * ki;
        if (k > SCALE_CAP) return SCALE_CAP;
    }
    return k;
}

/* Prefix sums of the chunk weights of a skewed all-to-all part. */
static double *chunk_weight_sums(const exec_part *p)
{
    const schedule *s = p->s;
    int per_block = chunks_per_block(s);
    double *sum = malloc(sizeof(double) * (size_t)(s->chunks + 1));
    if (!sum) out_of_memory();
    sum[0] = 0;
    for (int c = 0; c < s->chunks; c++) sum[c + 1] = sum[c] + chunk_weight(p, per_block, c);
    return sum;
}

void message_size_init(message_size *m, const exec_part *p, long long scale)
{
    long long bytes, chunks;
    chunk_on_wire(p, &bytes, &chunks);
    m->chunk_scaled = (long double)bytes * scale / chunks;
    __int128 scaled = (__int128)bytes * scale;
    m->chunk_units = scaled % chunks == 0 && scaled / chunks < LLONG_MAX / 2 ? (long long)(scaled / chunks) : 0;
    m->weight_sum = p->block_weight ? chunk_weight_sums(p) : NULL;
}

void message_size_free(message_size *m)
{
    free(m->weight_sum);
    m->weight_sum = NULL;
}

double exec_op_bytes(const exec_part *part, int actor, int op)
{
    sched_op o = sched_op_at(part->s, actor, op);
    return exec_op_bytes_of(part, actor, &o);
}

double exec_op_bytes_of(const exec_part *part, int actor, const sched_op *o)
{
    const schedule *s = part->s;
    const sched_actor *a = &s->actor[actor];
    double chunk = (double)part_data_bytes(part) / s->chunks, chunks = o->count;
    if (part->block_weight) { /* skewed all-to-all: each chunk weighs its block's weight */
        int per_block = chunks_per_block(s);
        chunks = 0;
        for (int i = 0; i < sched_op_range_count(o); i++) {
            chunk_range r = sched_op_range(a, o, i);
            for (int c = r.first; c < r.first + r.count; c++) chunks += chunk_weight(part, per_block, c);
        }
    }
    return chunks * chunk;
}
