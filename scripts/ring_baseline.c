/* ring_baseline.c — the floor collsim's executor is measured against: a bare
 * SimGrid program that does only ring all-reduce's exchanges (2(N-1) steps;
 * each rank sends M/N bytes right and receives M/N from the left, then the
 * next step).  Usage: ring_baseline PLATFORM.xml RANKS SIZE_BYTES [SimGrid args]
 * with a platform from `collsim platform xml P --routes ring`. */
#include <simgrid/comm.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline_start.h"

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
    ranks = atoi(argv[2]);
    chunk_bytes = atol(argv[3]) / ranks;
    baseline_start(argc, argv, 3, ranks, rank_main);
    return baseline_finish();
}
