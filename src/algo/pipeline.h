/* pipeline.h — how many segments a pipelined schedule uses (explainer 01
 * App. C.3): a number given by the scenario, the algorithm's default, or
 * `segments: auto`, the integer P nearest the optimum
 * P* = sqrt((L-1)·M / (α·BW)) of t(P) = (L+P-1)(α + M/(P·BW)), where L is the
 * schedule's sequential depth (N-1 for a chain, ⌈log2 N⌉ for a binomial tree,
 * 2⌈log2 N⌉ for DBT, ...). */
#ifndef COLLSIM_PIPELINE_H
#define COLLSIM_PIPELINE_H

#include <math.h>

#include "algo/algorithm.h"

/* 01 App. C.3 */
static inline double pipeline_time(int depth, double p, double alpha_s, double size_bytes, double bandwidth_Bps)
{
    return (depth + p - 1) * (alpha_s + size_bytes / (p * bandwidth_Bps));
}

static inline int pipeline_segments(const algo_params *p, int depth, int fallback)
{
    if (p->segments > 0) return p->segments;
    if (p->segments != SEGMENTS_AUTO || p->alpha_s <= 0 || p->bandwidth_Bps <= 0 || p->size_bytes <= 0) return fallback;
    double best = depth > 1 ? sqrt((depth - 1) * p->size_bytes / (p->alpha_s * p->bandwidth_Bps)) : 0; /* depth 0: one rank */
    if (best >= PIPELINE_MAX_SEGMENTS) return PIPELINE_MAX_SEGMENTS;
    int below = best < 1 ? 1 : (int)floor(best), above = below + 1;
    return pipeline_time(depth, below, p->alpha_s, p->size_bytes, p->bandwidth_Bps) <=
                   pipeline_time(depth, above, p->alpha_s, p->size_bytes, p->bandwidth_Bps)
               ? below
               : above;
}

#endif
