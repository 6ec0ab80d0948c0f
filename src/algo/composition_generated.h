/* composition_generated.h — a hierarchical composition on one slice
 * generated rather than stored (composition_generated.c). */
#ifndef COLLSIM_COMPOSITION_GENERATED_H
#define COLLSIM_COMPOSITION_GENERATED_H

#include "algo/algorithm.h"

/* Make S (N group ranks in domains of D, its chunk grid and slice owners
 * set, no ops) generate the composition of PARTS, CHILD[i] being part i's
 * sub-schedule that every sub-group shares (NULL: the tier has one rank) and
 * RANK_AT the group rank at each position g·D + q (NULL: the position).
 * S takes the children.  False, S and the children untouched, when a child
 * has what the generator does not compute (switch actors, chunk range
 * lists, channels, local ops, an actor without ops): the caller stores it. */
/* Whether the generator takes CHILD as a part's sub-schedule (what
 * composition_generate refuses it for: none of the above). */
bool composition_part_generable(const schedule *child);
bool composition_generate(schedule *s, const composition_part *parts, int part_count, const int *rank_at, int d,
                          schedule **child);

#endif
