/* arena.c — blocks of at least 2 MB, 2 MB-aligned, advised for huge pages;
 * pieces carved in order and recycled per size. */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/memory.h"

#define BLOCK_BYTES ((size_t)2 << 20) /* a huge page */

void arena_init(arena *a)
{
    *a = (arena){0};
}

/* A fresh block of at least BYTES (a multiple of BLOCK_BYTES). */
static char *new_block(arena *a, size_t bytes)
{
    void *block = aligned_alloc(BLOCK_BYTES, bytes);
    if (!block) out_of_memory();
#ifdef MADV_HUGEPAGE
    madvise(block, bytes, MADV_HUGEPAGE); /* a hint: without huge pages it only runs slower */
#endif
    a->blocks = grow_array(a->blocks, &a->block_capacity, a->block_count + 1, sizeof *a->blocks);
    a->blocks[a->block_count++] = block;
    return block;
}

void *arena_take(arena *a, int log2_bytes)
{
    if (a->recycled[log2_bytes]) {
        void *p = a->recycled[log2_bytes];
        a->recycled[log2_bytes] = *(void **)p;
        return p;
    }
    size_t bytes = (size_t)1 << log2_bytes, align = bytes < 4096 ? bytes : 4096;
    char *p = (char *)(((uintptr_t)a->next + align - 1) & ~(uintptr_t)(align - 1));
    if (!a->next || p + bytes > a->end) {
        if (bytes > BLOCK_BYTES / 4) return new_block(a, (bytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES);
        p = a->next = new_block(a, BLOCK_BYTES); /* the rest of the old block stays unused */
        a->end = a->next + BLOCK_BYTES;
    }
    a->next = p + bytes;
    return p;
}

void *arena_carve(arena *a, size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    char *p = (char *)(((uintptr_t)a->next + 63) & ~(uintptr_t)63);
    if (!a->next || p + bytes > a->end) {
        if (bytes > BLOCK_BYTES / 4) return memset(new_block(a, (bytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES), 0, bytes);
        p = a->next = new_block(a, BLOCK_BYTES);
        a->end = a->next + BLOCK_BYTES;
    }
    a->next = p + bytes;
    return memset(p, 0, bytes);
}

void arena_give(arena *a, void *p, int log2_bytes)
{
    *(void **)p = a->recycled[log2_bytes];
    a->recycled[log2_bytes] = p;
}

void arena_free(arena *a)
{
    for (int i = 0; i < a->block_count; i++) free(a->blocks[i]);
    free(a->blocks);
    *a = (arena){0};
}
