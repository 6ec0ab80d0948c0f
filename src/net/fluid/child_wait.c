/* child_wait.c — waiting for a simulation child, its heartbeat read once a
 * second (child_wait.h).  The parent polls the child's pipe with a timeout
 * rather than blocking on it: that is the whole cost, one poll(2) a second. */
#include "net/fluid/child_wait.h"

#include <errno.h>
#include <poll.h>
#include <time.h>

#define BEAT_INTERVAL_MS 1000

static double monotonic_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

bool child_wait(int fd, const heartbeat *h, double stall_limit_s, child_beat_fn beat, void *ctx, double *stood_s)
{
    double start_s = monotonic_s(), moved_s = start_s, time_s = h ? h->time_s : 0;
    *stood_s = 0;
    for (;;) {
        struct pollfd pipe_end = {.fd = fd, .events = POLLIN};
        int ready = poll(&pipe_end, 1, h ? BEAT_INTERVAL_MS : -1);
        if (ready > 0 || (ready < 0 && errno != EINTR)) return true; /* a poll error: the read says what it is */
        if (!h) continue;
        double now_s = monotonic_s();
        if (h->time_s != time_s) {
            time_s = h->time_s;
            moved_s = now_s;
        }
        if (beat) beat(ctx, h, now_s - start_s);
        if (stall_limit_s > 0 && now_s - moved_s >= stall_limit_s) {
            *stood_s = now_s - moved_s;
            return false;
        }
    }
}
