/* child_limits.c — a simulation child's bounds from the environment
 * (child_limits.h). */
#include "net/fluid/child_limits.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/units.h"

#define STALL_MAX_S 604800.0 /* a week */

/* The address space a child may map: 80 % of the machine's memory, so that
 * a child past it fails its own allocations while the machine still has room
 * for the parent and the rest. */
static double default_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);
    return pages > 0 && page_bytes > 0 ? floor(CHILD_MEMORY_DEFAULT_SHARE * (double)pages * (double)page_bytes) : 0;
}

static bool read_stall(child_limits *l, diag *d)
{
    const char *text = getenv("COLLSIM_STALL_SECONDS");
    l->stall_s = CHILD_STALL_DEFAULT_S;
    if (!text) return true;
    char *end;
    double seconds = strtod(text, &end);
    if (end == text || *end || !isfinite(seconds) || seconds < 0 || seconds > STALL_MAX_S)
        return diag_fail(d, "COLLSIM_STALL_SECONDS=%s: give the wall seconds a simulation's simulated time may stand "
                         "still, from 0 (no limit) to %.0f (docs/reliability.md)", text, STALL_MAX_S);
    l->stall_s = seconds;
    return true;
}

static bool read_memory(child_limits *l, diag *d)
{
    const char *text = getenv("COLLSIM_CHILD_MEMORY");
    l->memory_bytes = default_memory_bytes();
    if (!text) return true;
    if (strcmp(text, "unlimited") == 0) {
        l->memory_bytes = 0;
        return true;
    }
    char why[160];
    double bytes;
    if (!units_parse(text, UNIT_SIZE, &bytes, why, sizeof why) || bytes < 64.0 * 1024 * 1024)
        return diag_fail(d, "COLLSIM_CHILD_MEMORY=%s: give the memory one simulation may use, at least 64 MiB "
                         "(\"8GiB\"), or \"unlimited\" (docs/reliability.md)", text);
    l->memory_bytes = bytes;
    return true;
}

bool child_limits_read(child_limits *l, diag *d)
{
    return read_stall(l, d) && read_memory(l, d);
}

#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_SANITIZER 1
#endif
#endif

int child_limits_max_actors(void)
{
    long areas = 65530; /* Linux's default, where /proc does not say */
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%ld", &areas) != 1) areas = 65530;
        fclose(f);
    }
    long actors = (areas - CHILD_MAPPINGS_RESERVED) / 2;
    return actors < 1 ? 1 : actors > INT_MAX ? INT_MAX : (int)actors;
}

bool child_limits_memory_applies(void)
{
#ifdef ADDRESS_SANITIZER
    return false;
#else
    return true;
#endif
}

void child_limits_apply(const child_limits *l)
{
    if (l->memory_bytes <= 0 || !child_limits_memory_applies()) return;
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0) return;
    rlim_t wanted = (rlim_t)l->memory_bytes;
    if (limit.rlim_max != RLIM_INFINITY && wanted > limit.rlim_max) wanted = limit.rlim_max; /* a tighter one stays */
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) return;
    limit.rlim_cur = wanted;
    setrlimit(RLIMIT_AS, &limit);
}
