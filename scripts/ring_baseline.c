/* ring_baseline.c — the floor collsim's executor is measured against: a bare
 * SimGrid program that does only ring all-reduce's exchanges (2(N-1) steps;
 * each rank sends M/N bytes right and receives M/N from the left, then the
 * next step).  Usage: ring_baseline PLATFORM.xml RANKS SIZE_BYTES [SimGrid args]
 * with a platform from `collsim platform xml P --routes ring`. */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>

static int ranks;
static long chunk_bytes;

static void rank_main(int argc, char **argv)
{
    (void)argc;
    int self = atoi(argv[1]);
    char name[32];
    snprintf(name, sizeof name, "%d", (self + 1) % ranks);
    sg_mailbox_t right = sg_mailbox_by_name(name);
    snprintf(name, sizeof name, "%d", self);
    sg_mailbox_t mine = sg_mailbox_by_name(name);
    void *data;
    for (int step = 0; step < 2 * (ranks - 1); step++) {
        sg_comm_t comms[2] = {sg_mailbox_put_async(right, &ranks, chunk_bytes), sg_mailbox_get_async(mine, &data)};
        sg_comm_wait_all(comms, 2);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: ring_baseline PLATFORM.xml RANKS SIZE_BYTES [--cfg=...]\n");
        return 2;
    }
    const char *platform = argv[1];
    ranks = atoi(argv[2]);
    chunk_bytes = atol(argv[3]) / ranks;
    argv[3] = argv[0];
    argc -= 3;
    argv += 3;
    simgrid_init(&argc, argv);
    simgrid_load_platform(platform);
    char host[32], index[16];
    for (int i = 0; i < ranks; i++) {
        snprintf(host, sizeof host, "r%d", i);
        snprintf(index, sizeof index, "%d", i);
        const char *args[] = {"rank", index};
        sg_actor_create_("rank", sg_host_by_name(host), rank_main, 2, args);
    }
    simgrid_run();
    printf("%.9g\n", simgrid_get_clock());
    return 0;
}
