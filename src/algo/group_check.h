/* group_check.h — the group checks an algorithm starts with: at least 2
 * ranks, a power-of-two count where the seed's partners need one, a root
 * inside the group for BC / Reduce.  Each returns false with WHY filled
 * ("<what> needs ...") so the algorithm returns NULL. */
#ifndef COLLSIM_GROUP_CHECK_H
#define COLLSIM_GROUP_CHECK_H

#include <stdbool.h>

#include "algo/algorithm.h"

/* At least 2 ranks; and a power of two when POWER_OF_TWO_REASON is not NULL
 * (it ends the message, e.g. "its partners are i XOR 2^k, explainer 01 App. A"). */
bool group_accepted(const algo_params *p, const char *what, const char *power_of_two_reason, char *why, int why_size);
/* At least 2 ranks and p->root in 0..N-1. */
bool rooted_group_accepted(const algo_params *p, const char *what, char *why, int why_size);

/* Whole domains of p->domain_ranks, and more than one (03 §2.1). */
bool two_tier_group_accepted(const algo_params *p, char *why, int why_size);
/* The group rank at POSITION g·D + q (rank q of domain g) of a two-tier group. */
int domain_rank(const algo_params *p, int position);

#endif
