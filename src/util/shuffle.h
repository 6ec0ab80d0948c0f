/* shuffle.h — seeded randomness with the same sequence on every machine
 * (group layouts `random(SEED)`, permutation destinations, background traffic). */
#ifndef COLLSIM_SHUFFLE_H
#define COLLSIM_SHUFFLE_H

#include <stdbool.h>
#include <stdint.h>

/* splitmix64: the next number of the sequence STATE is at. */
uint64_t random_next(uint64_t *state);
/* Fisher-Yates shuffle of VALUES[0..count) drawing from STATE. */
void random_shuffle(int *values, int count, uint64_t *state);
/* TO[0..n): a permutation of 0..n-1 that moves every value (TO[i] != i),
 * drawn from SEED: a permutation's destinations (n >= 2). */
void random_derangement(int n, uint64_t seed, int *to);
/* TEXT is NAME(SEED) with SEED a whole number (`random(7)`, `shuffled(7)`):
 * its seed into *SEED. */
bool seeded_name(const char *text, const char *name, uint64_t *seed);

#endif
