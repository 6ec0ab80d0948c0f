/* rank_math.h — the small rank arithmetic the algorithms share: modular
 * ring positions, powers of two, and the fold of explainer 01 App. B.3 that
 * lets power-of-two butterflies run on any N. */
#ifndef COLLSIM_RANK_MATH_H
#define COLLSIM_RANK_MATH_H

#include <stdbool.h>

#include "algo/algorithm.h"

/* A mod N, in [0, N). */
static inline int rank_mod(int a, int n)
{
    return ((a % n) + n) % n;
}

static inline bool is_power_of_two(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* The largest power of two not above N (N >= 1). */
static inline int power_of_two_floor(int n)
{
    int p = 1;
    while (p <= n / 2) p *= 2;
    return p;
}

/* The fold of non-power-of-two groups for the AR butterflies (01 App. B.3,
 * done as in [TRG05]): with P the largest power of two <= N and R = N - P,
 * each even rank 2j < 2R hands its vector to 2j+1 before the butterfly and
 * gets the result back after; the other P ranks run the butterfly under
 * virtual ranks 0..P-1. */
static inline bool fold_is_extra(int rank, int extras)
{
    return rank < 2 * extras && rank % 2 == 0;
}

static inline int fold_virtual_rank(int rank, int extras)
{
    return rank < 2 * extras ? rank / 2 : rank - extras;
}

static inline int fold_real_rank(int virtual_rank, int extras)
{
    return virtual_rank < extras ? 2 * virtual_rank + 1 : virtual_rank + extras;
}

#endif
