/* memory.c — growing arrays. */
#include "util/memory.h"

#include <stdio.h>
#include <stdlib.h>

void *grow_array(void *array, int *capacity, int needed, size_t item)
{
    if (needed <= *capacity) return array;
    int capacity_new = *capacity ? *capacity * 2 : 16;
    while (capacity_new < needed) capacity_new *= 2;
    void *p = realloc(array, (size_t)capacity_new * item);
    if (!p) out_of_memory();
    *capacity = capacity_new;
    return p;
}

void out_of_memory(void)
{
    fprintf(stderr, "collsim: out of memory\n");
    exit(3);
}
