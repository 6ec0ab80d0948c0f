/* memory.h — growing arrays; out of memory ends the process with exit 3
 * (docs/reliability.md: the documented bounds keep valid input below it). */
#ifndef COLLSIM_MEMORY_H
#define COLLSIM_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

/* The exit status of a process out of memory (a simulation child's tells its
 * parent so). */
#define OUT_OF_MEMORY_EXIT 3

/* Return ARRAY grown so that it holds at least NEEDED items of ITEM bytes,
 * doubling *CAPACITY (from 16) as needed.  A capacity past INT_MAX or a byte
 * count past SIZE_MAX is out of memory, never a wrapped-around size. */
void *grow_array(void *array, int *capacity, int needed, size_t item);
/* The capacity grow_array chooses for NEEDED items (more than CAPACITY):
 * CAPACITY doubled (16 from 0) until it holds them, INT_MAX at most. */
int grow_capacity(int capacity, int needed);
/* The next capacity of a ring sized in powers of two (indices masked with
 * capacity - 1): twice CAPACITY, FIRST from 0; out of memory past 2^30, the
 * last power of two an int holds. */
int grow_ring_capacity(int capacity, int first);
/* COUNT items of ITEM bytes in *BYTES; false when the product overflows. */
bool array_bytes(size_t count, size_t item, size_t *bytes);
/* Say so and exit 3. */
void out_of_memory(void) __attribute__((noreturn));

#endif
