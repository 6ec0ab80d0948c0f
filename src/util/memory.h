/* memory.h — growing arrays; out of memory ends the process with exit 3
 * (docs/reliability.md: the documented bounds keep valid input below it). */
#ifndef COLLSIM_MEMORY_H
#define COLLSIM_MEMORY_H

#include <stddef.h>

/* Return ARRAY grown so that it holds at least NEEDED items of ITEM bytes,
 * doubling *CAPACITY (from 16) as needed. */
void *grow_array(void *array, int *capacity, int needed, size_t item);
/* Say so and exit 3. */
void out_of_memory(void) __attribute__((noreturn));

#endif
