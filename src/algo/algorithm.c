/* algorithm.c — the algorithm table. */
#include "algo/algorithm.h"

#include <string.h>

static const algorithm table[] = {
    {"ring", PRIM_ALLREDUCE, "ring reduce-scatter then ring all-gather, N-1 steps each (Patarasuk-Yuan)",
     "explainer 01 §5.1", allreduce_ring},
};

const algorithm *algorithm_table(int *count)
{
    *count = (int)(sizeof table / sizeof table[0]);
    return table;
}

const algorithm *algorithm_find(primitive prim, const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].prim == prim && strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}
