/* memory.c — growing arrays, their sizes checked for overflow: the bounds of
 * docs/reliability.md keep today's arrays far below INT_MAX items, and the
 * checks keep a raised bound from turning into a short allocation. */
#include "util/memory.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int grow_capacity(int capacity, int needed)
{
    long long next = capacity > 0 ? capacity : 8; /* 64-bit: the doubling of 2^30 does not wrap */
    do {
        next *= 2;
    } while (next < needed);
    return next > INT_MAX ? INT_MAX : (int)next; /* the last doubling would not fit: as far as an int goes */
}

int grow_ring_capacity(int capacity, int first)
{
    if (capacity == 0) return first;
    if (capacity > INT_MAX / 2) out_of_memory();
    return 2 * capacity;
}

bool array_bytes(size_t count, size_t item, size_t *bytes)
{
    if (item != 0 && count > SIZE_MAX / item) return false;
    *bytes = count * item;
    return true;
}

void *grow_array(void *array, int *capacity, int needed, size_t item)
{
    if (needed <= *capacity) return array;
    int grown = grow_capacity(*capacity, needed);
    size_t bytes;
    if (!array_bytes((size_t)grown, item, &bytes)) out_of_memory();
    void *p = realloc(array, bytes);
    if (!p) out_of_memory();
    *capacity = grown;
    return p;
}

void out_of_memory(void)
{
    fprintf(stderr, "collsim: out of memory\n");
    exit(OUT_OF_MEMORY_EXIT);
}
