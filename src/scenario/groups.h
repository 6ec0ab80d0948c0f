/* groups.h — which platform ranks run a case (docs/scenarios.md, `groups:`): all of
 * them, explicit rank lists, or COUNT groups of SIZE ranks laid out
 *   prefix        group g = ranks g·SIZE .. g·SIZE + SIZE-1 (contiguous),
 *   strided       group g = ranks g, g + COUNT, g + 2·COUNT, ...,
 *   random(SEED)  a seeded shuffle of all ranks cut into groups, each
 *                 group's ranks then in ascending order (a scatter
 *                 allocation: explainer 05 §3.1's off-prefix layout).
 * Several groups of one case run at the same time (05 §3.2). */
#ifndef COLLSIM_GROUPS_H
#define COLLSIM_GROUPS_H

#include <stdbool.h>

#include "util/diag.h"
#include "yaml/yaml_tree.h"

typedef struct group_set {
    int count, size;    /* groups, ranks per group (all groups the same size) */
    int *members;       /* group g's ranks: members[g·size .. g·size + size); owned */
    bool whole;         /* `all`: one group of every rank, in order */
    char layout[48];    /* how it was given: "all", "list", "prefix", "strided", "random(7)" */
} group_set;

/* Read NODE (the value of `groups:`) for a platform of PLATFORM_RANKS ranks. */
bool groups_read(yaml_tree *tree, ynode *node, int platform_ranks, group_set *out, diag *d);
/* One group of every rank. */
void groups_all(int platform_ranks, group_set *out);
void groups_free(group_set *g);

#endif
