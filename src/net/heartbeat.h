/* heartbeat.h — how far a simulation child has got, published for its
 * parent while it runs (docs/reliability.md, "Heartbeat and watchdog").
 *
 * The parent maps one heartbeat shared with the child before it forks
 * (heartbeat_create); the child writes it with plain stores as it goes
 * (heartbeat_op_done per completed operation, heartbeat_reach every few
 * thousand packet events), never allocating, never calling the kernel; the
 * parent reads it about once a second while it waits: the progress line
 * shows it, and the watchdog ends a child whose simulated time stands still
 * for too long.  A torn read costs one stale figure on a progress line,
 * nothing more: each field is one aligned 8-byte word. */
#ifndef COLLSIM_HEARTBEAT_H
#define COLLSIM_HEARTBEAT_H

typedef struct heartbeat {
    volatile double time_s;        /* the simulated time reached */
    volatile long long operations; /* schedule operations completed */
} heartbeat;

/* A heartbeat shared with the children forked after this call (zeroed), or
 * NULL when the system has no shared memory to give. */
heartbeat *heartbeat_create(void);
void heartbeat_free(heartbeat *h);
/* A private heartbeat that nobody reads: what a child writes when no shared
 * one exists, so that writers need not test for one. */
heartbeat *heartbeat_unread(void);

/* One operation completed at simulated time NOW_S (the per-message path:
 * two stores and a compare). */
static inline void heartbeat_op_done(heartbeat *h, double now_s)
{
    h->operations++;
    if (now_s > h->time_s) h->time_s = now_s;
}

/* Simulated time NOW_S reached (the packet engine, every few thousand events). */
static inline void heartbeat_reach(heartbeat *h, double now_s)
{
    if (now_s > h->time_s) h->time_s = now_s;
}

#endif
