/* schedule.h — a collective as data, the hinge between algorithms,
 * the executor, the verifier and the trace (docs/architecture.md).
 *
 * A schedule lists, per actor (each group rank, then each in-network switch),
 * the ordered operations it performs: send a range of chunks to a peer, or
 * receive a range from a peer and copy or reduce it into its buffer.  An op
 * may wait for other ops of the same actor (its data dependencies); ops on
 * one connection (actor -> peer) are also serialized in program order, one
 * message in flight at a time, which is what makes the pipelined forms of
 * explainer 01 App. C.3 exact.  Algorithms emit schedules; the executor
 * (SimGrid), the verifier (data) and the op counter read them.
 *
 * Data layout: the collective's M bytes are a grid of `chunks` equal chunks
 * of M/chunks bytes (real-valued: no rounding).  For all-to-all the grid is
 * ranks x ranks blocks of `chunks / ranks^2` chunks, block (s, d) being what
 * rank s sends to rank d.
 *
 * An op usually moves one contiguous range of chunks.  It may instead move
 * several ranges as ONE message (one alpha), for the forwarding algorithms
 * whose step sends a peer a non-contiguous set (PAT, Bruck, ring relay):
 * then `count` is the total and the ranges are listed in the actor's
 * ranges[]; sender and receiver must list the same ranges in the same order.
 *
 * A schedule either stores its ops (actor[a].ops / deps) or carries a
 * generator that computes op i of actor a, dependencies included, from the
 * schedule's shape (ring AR / AG / RS: ring_generated.c; two-tier
 * compositions: composition_generated.c, from their parts' sub-schedules,
 * generator_state), so that nothing is stored per op.  The executor reads
 * ops through sched_op_at / sched_op_dep, which serve both, and its passes
 * over an actor's ops through sched_cursor (a block at a time); everything
 * else (verifier, composition) reads the stored arrays and is only given
 * stored schedules. */
#ifndef COLLSIM_SCHEDULE_H
#define COLLSIM_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    PRIM_BCAST,
    PRIM_REDUCE,
    PRIM_ALLREDUCE,
    PRIM_ALLGATHER,
    PRIM_REDUCESCATTER,
    PRIM_ALLTOALL,
    PRIM_SENDRECV,
    PRIM_PERMUTATION,
    PRIM_TRAFFIC, /* a case's `traffic:` (flows or synthetic packets, scenario/traffic_spec.h): no schedule */
    PRIM_COUNT
} primitive;

/* OP_COPY and OP_REDUCE are local: an actor copies (or adds) COUNT slots of
 * its own from slot `range_first` into slots chunk..chunk+count; their peer
 * is the actor itself and they take no time (schedules read from a file:
 * docs/schedules.md). */
typedef enum { OP_SEND, OP_RECV, OP_RECV_REDUCE, OP_COPY, OP_REDUCE } op_kind;

#define SCHED_NO_DEP (-1)
#define SCHED_MAX_PHASES 4
#define SCHED_MAX_CHANNELS 32 /* NCCL's MAXCHANNELS (src/include/device.h) */

typedef struct chunk_range {
    int32_t first, count;
} chunk_range;

typedef struct sched_op {
    uint8_t kind;   /* op_kind */
    uint8_t phase;  /* for per-phase timing (hierarchical tiers) */
    uint16_t range_count; /* 0: the one range [chunk, chunk + count); else ranges in the actor's ranges[] */
    uint8_t channel; /* NCCL-style channel: its own connections (and sender engine) to the same peer */
    int32_t peer;   /* actor index */
    int32_t chunk;  /* first chunk of the (first) range */
    int32_t count;  /* chunks moved, over all ranges: the message is count chunks */
    int32_t dep_first, dep_count; /* into the actor's deps[] */
    int32_t range_first; /* into the actor's ranges[] when range_count > 0 */
} sched_op;

typedef struct sched_actor {
    sched_op *ops;
    int op_count, op_capacity;
    int32_t *deps;
    int dep_count, dep_capacity;
    chunk_range *ranges;
    int range_count, range_capacity;
} sched_actor;

struct schedule;

/* Op O of actor ACTOR and its K-th dependency, computed (sched_op_at);
 * RELEASE (NULL: nothing) frees what the schedule's generator_state holds;
 * OPS (NULL: OP one at a time) ops FIRST .. FIRST + COUNT - 1 of ACTOR
 * into OUT in one pass (sched_cursor). */
typedef struct sched_generator {
    sched_op (*op)(const struct schedule *s, int actor, int o);
    int (*dep)(const struct schedule *s, int actor, int o, int k);
    void (*release)(void *state);
    void (*ops)(const struct schedule *s, int actor, int first, int count, sched_op *out);
} sched_generator;

typedef struct schedule {
    primitive prim;
    int ranks;       /* group ranks: actors 0..ranks-1 */
    int actors;      /* ranks + switch actors */
    int chunks;      /* chunk grid */
    int root;        /* BC / Reduce root, sendrecv source */
    int peer;        /* sendrecv destination */
    int segments;    /* pipelining segments P (1 when not pipelined) */
    int channels;    /* channels the ops are spread over (1: none) */
    int slice_positions; /* AG / RS: slice positions of the grid (0: one per rank; channels: one per rank per channel) */
    int *slice_owner; /* AG / RS: rank whose slice sits at slice position p (NULL: rank p);
                         permutation: the rank chunk p (rank p's message) goes to; owned */
    int *switch_node; /* per switch actor (actor ranks + k): the topology node it runs on; owned */
    int phase_count;
    char phase_names[SCHED_MAX_PHASES][24];
    int current_channel; /* the channel of ops emitted next (sched_set_channel) */
    sched_actor *actor;
    const sched_generator *generator; /* NULL: the ops are stored; else actor[a].ops and deps are NULL, op_count set */
    void *generator_state; /* what the generator computes from (NULL: the shape alone); owned */
    /* Buffers of its own per rank (schedules read from a file, docs/schedules.md).
     * slots = 0: every actor holds the chunk grid, and a receive names the
     * chunks its send names.  slots > 0: every actor holds SLOTS slots (the
     * grid's chunks first, then whatever the file's buffers need), a receive
     * names where it writes (its send only moves as many chunks), and rank r
     * holds grid chunk c's input at input_slot[r * chunks + c] (-1: none)
     * and its result at output_slot[r * chunks + c] (NULL: slot c). */
    int slots;
    int *input_slot, *output_slot; /* owned */
    bool sealed;
    long messages;    /* its sends, counted when sealed (sched_messages); 0 before */
} schedule;

/* Whether OP is local (a copy or a reduction inside one actor). */
static inline bool sched_op_local(const sched_op *op)
{
    return op->kind == OP_COPY || op->kind == OP_REDUCE;
}

/* Slots each actor holds: the grid's chunks, or the schedule's own buffers. */
static inline int sched_slots(const schedule *s)
{
    return s->slots > 0 ? s->slots : s->chunks;
}

/* Op O of actor ACTOR (stored or generated), and its K-th dependency
 * (K < op->dep_count, OP being that op); sealed schedules only. */
static inline sched_op sched_op_at(const schedule *s, int actor, int o)
{
    return s->generator ? s->generator->op(s, actor, o) : s->actor[actor].ops[o];
}

static inline int sched_op_dep(const schedule *s, int actor, int o, const sched_op *op, int k)
{
    return s->generator ? s->generator->dep(s, actor, o, k) : s->actor[actor].deps[op->dep_first + k];
}

/* A reader of one actor's ops for passes over all of them (setup): a
 * generated schedule's ops are computed a block at a time, in order either
 * way; any op may be read (sched_cursor_op). */
#define SCHED_CURSOR_BLOCK 32
typedef struct sched_cursor {
    const schedule *s;
    int actor, first, count; /* BLOCK holds ops FIRST .. FIRST + COUNT - 1 */
    sched_op block[SCHED_CURSOR_BLOCK];
} sched_cursor;

static inline void sched_cursor_init(sched_cursor *c, const schedule *s, int actor)
{
    c->s = s;
    c->actor = actor;
    c->first = 1 << 30; /* past every op: the first read fills backward from it, or forward from op 0 */
    c->count = 0;
}

/* Fill C's block with op O and its neighbours in the direction it moves. */
void sched_cursor_fill(sched_cursor *c, int o);

static inline sched_op sched_cursor_op(sched_cursor *c, int o)
{
    if (!c->s->generator) return c->s->actor[c->actor].ops[o];
    if ((unsigned)(o - c->first) >= (unsigned)c->count) sched_cursor_fill(c, o);
    return c->block[o - c->first];
}

schedule *schedule_create(primitive prim, int ranks, int switch_actors, int chunks);
void schedule_free(schedule *s);

/* Emit ops; DEP_A / DEP_B are op indices of the same actor (SCHED_NO_DEP for none).
 * Return the new op's index. */
int sched_send(schedule *s, int actor, int peer, int chunk, int count, int dep_a, int dep_b);
int sched_recv(schedule *s, int actor, int peer, int chunk, int count, bool reduce, int dep_a, int dep_b);
void sched_add_dep(schedule *s, int actor, int op, int dep);
/* A local op: ACTOR copies (REDUCE: adds) COUNT slots from slot SOURCE into
 * slots DESTINATION..; same dependencies and return value. */
int sched_local(schedule *s, int actor, bool reduce, int source, int destination, int count, int dep_a, int dep_b);
/* One message of several chunk ranges (adjacent ranges are merged; a single
 * resulting range makes a plain op).  Same dependencies and return value. */
int sched_send_ranges(schedule *s, int actor, int peer, const chunk_range *ranges, int range_count, int dep_a,
                      int dep_b);
int sched_recv_ranges(schedule *s, int actor, int peer, const chunk_range *ranges, int range_count, bool reduce,
                      int dep_a, int dep_b);
/* The ranges an op moves: how many, and the I-th. */
int sched_op_range_count(const sched_op *op);
chunk_range sched_op_range(const sched_actor *a, const sched_op *op, int i);
/* Ops emitted from now on belong to phase PHASE (named NAME). */
void sched_set_phase(schedule *s, int phase, const char *name);
/* Ops emitted from now on run on channel CHANNEL (0 .. SCHED_MAX_CHANNELS-1). */
void sched_set_channel(schedule *s, int channel);

/* Add the per-connection program-order dependencies (a connection is actor,
 * peer, direction and channel); call once when emitted. */
void schedule_seal(schedule *s);

/* Dependents of each op of actor A, as CSR: targets of op o are
 * list[offset[o] .. offset[o+1]); REMAINING[o] = number of dependencies.
 * Caller frees the three arrays (offset and list share one block). */
typedef struct op_graph {
    int *offset, *list, *remaining;
} op_graph;
void sched_op_graph(const schedule *s, int actor, op_graph *g);
void op_graph_free(op_graph *g);

/* Chunks of the slice owned by group rank R for AG/RS (chunks / ranks each). */
int sched_slice_first(const schedule *s, int rank);
int sched_slice_count(const schedule *s);
/* The rank whose AG input / RS output is chunk C (slice positions may be
 * permuted by a composed schedule: hierarchical AG / RS, 03 §2.1). */
int sched_slice_owner(const schedule *s, int chunk);
/* First chunk of all-to-all block (src, dst). */
int sched_block_first(const schedule *s, int src, int dst);

const char *primitive_name(primitive p);
bool primitive_from_name(const char *name, primitive *p);
/* 01 App. D: busbw = C(N) x algbw */
double primitive_busbw_factor(primitive p, int ranks);

/* The messages (sends) of S: counted once when sealed, else now. */
long sched_messages(const schedule *s);
/* The distinct peers actor A of S sends to, in the order of its first
 * send to each, into PEERS; COUNT (actors + 1 ints, all 0 on entry) gets each
 * one's message count, which the caller sets back to 0.  How many peers. */
int sched_send_peers(const schedule *s, int a, int *count, int *peers);

#endif
