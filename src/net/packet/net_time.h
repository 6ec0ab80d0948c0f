/* net_time.h — the packet engine's clock: an integer count of attoseconds.
 *
 * An integer clock makes runs bit-identical and ties exact (events at one
 * time are ordered by their sequence number).  The unit is 10^-18 s, not the
 * picosecond: one 1-byte message at 900 GB/s takes 0.5 us + 1.111 ps, and a
 * schedule of 1,022 dependent steps (ring all-reduce on 512 ranks) rounds
 * once per step; at 1 ps that errs up to 2e-7 and 1e-6 relative, against the
 * 1e-9 the exact forms must hold, at 1 as below 1e-12.  A signed 64-bit count
 * reaches 9.2 s; runs stop with a message at half that, 4.6 s of simulated
 * time, 500 times the longest shipped scenario (docs/packet.md). */
#ifndef COLLSIM_NET_TIME_H
#define COLLSIM_NET_TIME_H

#include <math.h>
#include <stdint.h>

typedef int64_t net_time;

#define NET_TIME_PER_SECOND 1000000000000000000LL
#define NET_TIME_NEVER INT64_MAX
#define NET_TIME_LIMIT (INT64_MAX / 2) /* later times stop the run with a message */

static inline net_time net_time_from_seconds(double seconds)
{
    return (net_time)llroundl((long double)seconds * NET_TIME_PER_SECOND);
}

/* X (>= 0, below 2^63) rounded down, as a cast to an integer rounds it.
 * On x87 the cast loads the control word twice, to truncate and back, and
 * the engine's speed then swung by half with where its code fell in the
 * binary (docs/packet.md §7); a store rounds in any mode to one of the two
 * integers around X, and the lower is kept. */
static inline net_time net_time_floor(long double x)
{
#if defined(__x86_64__) || defined(__i386__)
    int64_t rounded;
    __asm__("fistpll %0" : "=m"(rounded) : "t"(x) : "st");
    return rounded - ((long double)rounded > x);
#else
    return (net_time)x;
#endif
}

static inline double net_time_to_seconds(net_time t)
{
    return (double)((long double)t / NET_TIME_PER_SECOND);
}

#endif
