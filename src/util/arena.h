/* arena.h — memory in blocks the kernel may back with 2 MB pages
 * (madvise), for state read cold at every packet or message: the packet
 * engine's ports and rings, the packet network's endpoints and connections,
 * the executor's per-actor arrays.  A packet-hop touches some ten cache
 * lines spread over megabytes of ports, buffers and rings; with 4 KB pages
 * most of them would miss the TLB as well (a quarter of the run time on the
 * 1,024-rank permutation), and so would a message's endpoint and actor at
 * thousands of ranks.  Pieces are powers of two, recycled by size when a
 * ring grows, or carved to size and never recycled; everything is released
 * at once. */
#ifndef COLLSIM_ARENA_H
#define COLLSIM_ARENA_H

#include <stddef.h>

#define ARENA_CLASSES 48 /* pieces of 2^0 .. 2^47 bytes */

typedef struct arena {
    void **blocks;              /* every block taken from the system */
    int block_count, block_capacity;
    char *next, *end;           /* the unused rest of the current block */
    void *recycled[ARENA_CLASSES]; /* per size: pieces given back, a list through their first word */
} arena;

void arena_init(arena *a);
/* A piece of 2^LOG2_BYTES bytes (at least 8), aligned on its size up to
 * 4 KB; never fails (exits on out of memory). */
void *arena_take(arena *a, int log2_bytes);
/* A piece of BYTES bytes (rounded up to a cache line), aligned on a cache
 * line, zeroed, for the arena's life: never given back; never fails. */
void *arena_carve(arena *a, size_t bytes);
/* Piece P of 2^LOG2_BYTES bytes is free again. */
void arena_give(arena *a, void *p, int log2_bytes);
void arena_free(arena *a);

/* The smallest log2 of a power of two holding BYTES. */
static inline int arena_log2(size_t bytes)
{
    int k = 3;
    while (((size_t)1 << k) < bytes) k++;
    return k;
}

#endif
