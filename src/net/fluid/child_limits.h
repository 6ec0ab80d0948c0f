/* child_limits.h — the bounds a simulation child runs within, each with its
 * environment variable (docs/reliability.md, "Simulation children"):
 *
 *   COLLSIM_STALL_SECONDS  wall seconds a child's simulated time may stand
 *                          still before it is ended (exit 3); default 600,
 *                          0 turns the watchdog off.
 *   COLLSIM_CHILD_MEMORY   the address space a child may map (a size,
 *                          "8GiB", or "unlimited"); default 80 % of the
 *                          machine's memory.  Past it the child's
 *                          allocations fail and it ends as out of memory
 *                          (exit 3), before the kernel's out-of-memory
 *                          killer would pick a process of its own choosing. */
#ifndef COLLSIM_CHILD_LIMITS_H
#define COLLSIM_CHILD_LIMITS_H

#include <stdbool.h>

#include "util/diag.h"

#define CHILD_STALL_DEFAULT_S 600.0
#define CHILD_MEMORY_DEFAULT_SHARE 0.8

typedef struct child_limits {
    double stall_s;        /* 0: no watchdog */
    double memory_bytes;   /* 0: unlimited */
} child_limits;

/* The limits the environment sets (or their defaults); false with D naming
 * the variable when one is not a valid value. */
bool child_limits_read(child_limits *l, diag *d);
/* In the child: apply L's memory limit to this process, where this build
 * applies one (child_limits_memory_applies). */
void child_limits_apply(const child_limits *l);
/* The most SimGrid actors a simulation child can start: each actor's stack
 * is two memory mappings (the stack and its guard page), and the kernel maps
 * at most vm.max_map_count areas per process (65,530 by default), less
 * CHILD_MAPPINGS_RESERVED for the rest of the process (docs/reliability.md). */
#define CHILD_MAPPINGS_RESERVED 4096
int child_limits_max_actors(void);
/* Whether this build limits a child's memory: not under AddressSanitizer,
 * whose shadow memory is terabytes of address space. */
bool child_limits_memory_applies(void);

#endif
