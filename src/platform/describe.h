/* describe.h — `collsim platform describe`: the table and the JSON. */
#ifndef COLLSIM_DESCRIBE_H
#define COLLSIM_DESCRIBE_H

#include <stdio.h>

#include "platform/topology.h"

/* Ranks, switches per tier, links, per-tier alpha/BW and their split,
 * diameter, bisection bandwidth, oversubscription, routing. */
void platform_describe(const topology *t, FILE *out);
/* The same facts as one JSON object, for scripts (docs/platforms.md). */
void platform_describe_json(const topology *t, FILE *out);

#endif
