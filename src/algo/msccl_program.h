/* msccl_program.h — an MSCCL algorithm file (the XML that msccl-tools writes
 * and MSCCL's runtime interprets) read into memory, and turned into a
 * collsim schedule (docs/schedules.md).
 *
 * The file: <algo name proto nchannels nchunksperloop ngpus coll inplace
 * [outofplace minBytes maxBytes]> holds one <gpu id i_chunks o_chunks
 * s_chunks> per rank, each holding threadblocks <tb id send recv chan>, each
 * an ordered list of <step s type srcbuf srcoff dstbuf dstoff cnt depid deps
 * hasdep>.  Offsets and counts are in chunks of the buffer (input, output,
 * scratch); depid / deps name one step of another threadblock of the same
 * rank that must have completed first (a nop carries one more for the step
 * after it). */
#ifndef COLLSIM_MSCCL_PROGRAM_H
#define COLLSIM_MSCCL_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "algo/algorithm.h"
#include "util/diag.h"

/* Bounds on an untrusted file (docs/reliability.md): MSCCL's own runtime
 * takes far less (64 steps per threadblock, 1,024 threadblocks per GPU). */
#define MSCCL_FILE_MAX_BYTES (64L << 20)
#define MSCCL_MAX_GPUS 4096
#define MSCCL_MAX_THREADBLOCKS 1024 /* per GPU: MSCCL's 32 channels x 32 */
#define MSCCL_MAX_STEPS_TOTAL (1L << 22)
#define MSCCL_MAX_BUFFER_CHUNKS (1 << 20)
#define MSCCL_MAX_CHANNELS 32 /* NCCL's MAXCHANNELS */

typedef enum {
    MSCCL_SEND, MSCCL_RECV, MSCCL_RECV_COPY_SEND, MSCCL_RECV_REDUCE_SEND, MSCCL_RECV_REDUCE_COPY,
    MSCCL_RECV_REDUCE_COPY_SEND, MSCCL_COPY, MSCCL_REDUCE, MSCCL_NOP, MSCCL_STEP_TYPES
} msccl_step_type;

typedef enum { MSCCL_INPUT, MSCCL_OUTPUT, MSCCL_SCRATCH, MSCCL_BUFFERS } msccl_buffer;

typedef struct msccl_step {
    int line;
    msccl_step_type type;
    msccl_buffer src_buffer, dst_buffer;
    int src_offset, dst_offset, count;
    int dep_tb, dep_step; /* -1: none */
    bool has_dep;
    int order; /* collsim's own `order` attribute (the op's place in its rank's program; MSCCL ignores it), or -1 */
} msccl_step;

typedef struct msccl_tb {
    int line, id, send, recv, channel;
    int step_first, step_count; /* into the program's steps */
} msccl_tb;

typedef struct msccl_gpu {
    int line, id;
    int chunks[MSCCL_BUFFERS]; /* i_chunks, o_chunks, s_chunks */
    int tb_first, tb_count;    /* into the program's threadblocks, in id order */
} msccl_gpu;

typedef struct msccl_program {
    char path[512];
    char name[128], protocol[16], coll[32];
    int line; /* of <algo> */
    int nchannels, nchunksperloop, ngpus;
    bool inplace, outofplace, has_outofplace;
    long long min_bytes, max_bytes;
    bool has_size_range; /* minBytes and maxBytes given (MSCCL's runtime ignores a file without them) */
    primitive prim;
    msccl_gpu *gpus; /* ngpus, in id order */
    msccl_tb *tbs;
    int tb_count;
    msccl_step *steps;
    long step_count;
    algorithm record; /* what a scenario's case runs: name "msccl:FILE", build reading this program */
    char record_name[160];
} msccl_program;

/* The program whose record A is (A's composition is COMPOSITION_IMPORTED). */
static inline const msccl_program *msccl_program_of(const algorithm *a)
{
    return (const msccl_program *)(const void *)((const char *)a - offsetof(msccl_program, record));
}

/* Read and check PATH (every structural rule: elements, attributes, ids,
 * peers, channels, step types, buffers and offsets, dependencies); false
 * with D at the file's line. */
bool msccl_program_load(const char *path, msccl_program *p, diag *d);
/* The same from SIZE bytes of TEXT, named NAME in messages. */
bool msccl_program_parse(const char *name, const char *text, long size, msccl_program *p, diag *d);
void msccl_program_free(msccl_program *p);

/* The schedule P runs for a group of RANKS of collective PRIM (root ROOT):
 * MSCCL's buffers as slots of each rank, threadblocks as lanes, steps in
 * order, dependencies, fused steps split into their receive, local and send
 * halves.  NULL with D at the file's line when P is not that collective on
 * that many ranks, or some step can never run (a deadlock, a message with no
 * other end or of another size). */
schedule *msccl_schedule(const msccl_program *p, primitive prim, int ranks, int root, diag *d);

/* MSCCL's names: step types, buffers, collectives. */
const char *msccl_step_name(msccl_step_type t);
bool msccl_coll_primitive(const char *coll, primitive *prim);
const char *msccl_coll_name(primitive prim);

#endif
