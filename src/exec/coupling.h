/* coupling.h — how much of a simulation SimGrid's max-min solver has to
 * solve as one system.  Concurrent parts (groups, cases) whose messages cross
 * a common link, directly or through other parts, are one coupled system,
 * re-solved at every flow event of any of them; parts that share nothing are
 * solved apart.  The fluid model's cost on scattered concurrent groups grows
 * far faster than their flows (docs/scale.md), so `run` warns before it
 * starts a simulation whose coupled flows are past what the fluid model
 * finished in about a minute. */
#ifndef COLLSIM_COUPLING_H
#define COLLSIM_COUPLING_H

#include "exec/executor.h"

typedef struct coupling {
    int parts;  /* parts in the largest coupled set */
    long flows; /* their distinct (sender node, receiver node) pairs */
} coupling;

/* The largest coupled set of the COUNT parts on T (every route computed
 * once per distinct pair of a part). */
coupling exec_coupling(const topology *t, const exec_part *parts, int count);

/* Coupled flows past which the fluid model measured minutes on scattered
 * groups of the 16^3 torus (docs/scale.md: 2,048 flows 8.6 s, 2,560 58 s,
 * 3,072 192 s, 4,096 more than 10 minutes). */
#define FLUID_COUPLED_FLOWS_MAX 2304

#endif
