/* group_check.c — refusing groups an algorithm cannot run. */
#include "algo/group_check.h"

#include <stdio.h>

#include "algo/rank_math.h"

bool group_accepted(const algo_params *p, const char *what, const char *power_of_two_reason, char *why, int why_size)
{
    if (power_of_two_reason && !is_power_of_two(p->ranks)) {
        snprintf(why, (size_t)why_size, "%s needs a power-of-two number of ranks, at least 2 (got %d): %s", what,
                 p->ranks, power_of_two_reason);
        return false;
    }
    if (p->ranks < 2) {
        snprintf(why, (size_t)why_size, "%s needs at least 2 ranks", what);
        return false;
    }
    return true;
}

bool rooted_group_accepted(const algo_params *p, const char *what, char *why, int why_size)
{
    if (!group_accepted(p, what, NULL, why, why_size)) return false;
    if (p->root < 0 || p->root >= p->ranks) {
        snprintf(why, (size_t)why_size, "%s: root %d is not a rank of the group (0..%d)", what, p->root, p->ranks - 1);
        return false;
    }
    return true;
}

int domain_rank(const algo_params *p, int position)
{
    return p->domain_order ? p->domain_order[position] : position;
}

bool two_tier_group_accepted(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, d = p->domain_ranks;
    if (d >= 1 && n % d == 0 && d < n) return true;
    if (d < 0) {
        snprintf(why, (size_t)why_size, "hierarchical needs the group spread evenly over the platform's inner domains "
                 "(pods, nodes, leaves): the same number of its ranks in every domain it touches");
        return false;
    }
    snprintf(why, (size_t)why_size,
             "hierarchical needs a two-tier group: %d ranks in domains of %d (run it on a SuperPOD or Clos platform "
             "with more than one pod or leaf)", n, d);
    return false;
}
