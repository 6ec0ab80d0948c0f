/* baseline_start.h — what the bare SimGrid programs collsim is measured
 * against (scripts/ring_baseline.c, scripts/alltoall_baseline.c) share:
 * SimGrid started on PLATFORM.xml (argv[1]) with the arguments after the
 * program's own OWN ones, and one actor per rank, on host r<i>, running
 * RANK_MAIN with argv {"rank", "<i>"}; baseline_finish runs the simulation
 * and prints its end time. */
#ifndef COLLSIM_BASELINE_START_H
#define COLLSIM_BASELINE_START_H

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>

static inline void baseline_start(int argc, char **argv, int own, int ranks, void (*rank_main)(int, char **))
{
    const char *platform = argv[1];
    argv[own] = argv[0];
    argc -= own;
    argv += own;
    simgrid_init(&argc, argv);
    simgrid_load_platform(platform);
    char host[32], index[16];
    for (int i = 0; i < ranks; i++) {
        snprintf(host, sizeof host, "r%d", i);
        snprintf(index, sizeof index, "%d", i);
        const char *args[] = {"rank", index};
        sg_actor_create_("rank", sg_host_by_name(host), rank_main, 2, args);
    }
}

static inline int baseline_finish(void)
{
    simgrid_run();
    printf("%.17g\n", simgrid_get_clock());
    return 0;
}

#endif
