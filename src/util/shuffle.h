/* shuffle.h — seeded randomness with the same sequence on every machine
 * (group layouts `random(SEED)`, permutation destinations). */
#ifndef COLLSIM_SHUFFLE_H
#define COLLSIM_SHUFFLE_H

#include <stdint.h>

/* splitmix64: the next number of the sequence STATE is at. */
uint64_t random_next(uint64_t *state);
/* Fisher-Yates shuffle of VALUES[0..count) drawing from STATE. */
void random_shuffle(int *values, int count, uint64_t *state);

#endif
