/* alltoall_baseline.c — the floor under collsim's all-to-all on SimGrid (issue
 * 17 target 2): a bare SimGrid program in which every rank sends M/N bytes to
 * each of the N - 1 others and receives as much from each, all posted at
 * once, then waits for them: the very flows collsim's direct all-to-all
 * gives SimGrid (the same simulated time), with no schedule, no executor and
 * one mailbox per receiver.  A rank's comms are spread over actors of PEERS
 * peers each (the rank's own and helpers on its host), as collsim's helpers
 * spread an actor's operations: SimGrid's cost per completion grows with an
 * actor's outstanding comms, and every actor costs a stack.
 * Usage: alltoall_baseline PLATFORM.xml RANKS SIZE_BYTES PEERS [SimGrid args]
 * with a platform from `collsim platform xml P --routes all`. */
#include <simgrid/comm.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline_start.h"

static int ranks, peers_per_actor;
static long message_bytes;
static sg_mailbox_t *boxes; /* per receiver */

/* Rank argv[1]'s comms with peers argv[2] .. argv[2] + peers_per_actor - 1
 * (offsets from itself); a helper takes the peers after. */
static void rank_main(int argc, char **argv)
{
    int self = atoi(argv[1]), first = argc > 2 ? atoi(argv[2]) : 1;
    int last = first + peers_per_actor < ranks ? first + peers_per_actor : ranks;
    if (last < ranks) {
        char rank[16], next[16];
        snprintf(rank, sizeof rank, "%d", self);
        snprintf(next, sizeof next, "%d", last);
        const char *args[] = {"helper", rank, next};
        sg_actor_create_("helper", sg_host_self(), rank_main, 3, args);
    }
    sg_comm_t *comms = malloc(sizeof *comms * (2 * (size_t)(last - first) + 1));
    void *data;
    int n = 0;
    for (int k = first; k < last; k++) {
        comms[n++] = sg_mailbox_put_async(boxes[(self + k) % ranks], &ranks, message_bytes);
        comms[n++] = sg_mailbox_get_async(boxes[self], &data);
    }
    sg_comm_wait_all(comms, (size_t)n);
    free(comms);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: alltoall_baseline PLATFORM.xml RANKS SIZE_BYTES PEERS [--cfg=...]\n");
        return 2;
    }
    ranks = atoi(argv[2]);
    peers_per_actor = atoi(argv[4]);
    if (ranks < 2 || peers_per_actor < 1) {
        fprintf(stderr, "alltoall_baseline: RANKS must be at least 2 and PEERS at least 1\n");
        return 2;
    }
    message_bytes = atol(argv[3]) / ranks;
    baseline_start(argc, argv, 4, ranks, rank_main);
    boxes = malloc(sizeof *boxes * (size_t)ranks);
    char name[16];
    for (int i = 0; i < ranks; i++) {
        snprintf(name, sizeof name, "%d", i);
        boxes[i] = sg_mailbox_by_name(name);
    }
    return baseline_finish();
}
