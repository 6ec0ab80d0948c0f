/* hier_baseline.c — the floor under collsim's hierarchical all-reduce on
 * SimGrid: a bare SimGrid program that does only the flows of ring on ring
 * (docs/algorithms.md, explainer 03 §2.1) over every rank of a two-tier
 * platform of L domains of G ranks (a SuperPOD's racks): an inner ring
 * reduce-scatter in each domain (G - 1 steps of M/G bytes), an outer ring
 * all-reduce of each position across the domains (2(L - 1) steps of M/N),
 * an inner ring all-gather (G - 1 steps of M/G).  No schedule, no executor:
 * one actor per rank, put_async / get_async and waits.
 *
 * It waits as collsim's schedule makes a rank wait, so that it simulates the
 * very flows collsim does: within a ring, a send after the previous receive
 * and the previous send, a receive after the previous receive
 * (src/algo/ring_generated.c); a part after both of the rank's own last
 * operations of the part before.  Each part has a mailbox per receiver, as
 * collsim has a mailbox per connection of a part: with one per rank, an
 * inner all-gather message from a rank whose outer ring finished early
 * would match a receive still waiting for the outer ring.
 *
 * The platform is collsim's own zone (src/net/fluid/simgrid_zone.h) with the
 * node pairs the rings join, SimGrid started with the arguments collsim's
 * fluid model gives it (simgrid_arguments), and message sizes and link
 * bandwidths multiplied by K, the smallest factor that makes M·K/N whole
 * (at most 1,024, messages then rounded), as collsim's executor scales them
 * (src/exec/message_bytes.c): the same work for SimGrid as `collsim run
 * --model cm02`, whose time it prints.
 * Usage: hier_baseline PLATFORM.yaml SIZE_BYTES [SimGrid args] */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>

#include "net/fluid/simgrid_run.h"
#include "net/fluid/simgrid_zone.h"
#include "platform/platform.h"

#define SCALE_MAX 1024 /* collsim's cap on K */
#define PARTS 3        /* inner reduce-scatter, outer all-reduce, inner all-gather */

static int ranks, domain_ranks, domains;
static long inner_bytes, outer_bytes;
static sg_mailbox_t *boxes; /* per part and receiver: boxes[part * ranks + rank] */

/* STEPS ring steps of BYTES each, sending into TO and receiving from FROM,
 * each op posted as soon as the ops it waits for are done. */
static void ring_pass(sg_mailbox_t to, sg_mailbox_t from, int steps, long bytes)
{
    sg_comm_t comms[2];
    bool is_send[2];
    int count = 0, sends_posted = 0, sends_done = 0, receives_posted = 0, receives_done = 0;
    void *data;
    while (sends_done < steps || receives_done < steps) {
        if (sends_posted == sends_done && sends_posted < steps && receives_done >= sends_posted) {
            is_send[count] = true;
            comms[count++] = sg_mailbox_put_async(to, &ranks, bytes);
            sends_posted++;
        }
        if (receives_posted == receives_done && receives_posted < steps) {
            is_send[count] = false;
            comms[count++] = sg_mailbox_get_async(from, &data);
            receives_posted++;
        }
        ssize_t i = sg_comm_wait_any(comms, (size_t)count);
        if (is_send[i]) sends_done++;
        else receives_done++;
        count--;
        comms[i] = comms[count];
        is_send[i] = is_send[count];
    }
}

static void rank_main(int argc, char **argv)
{
    (void)argc;
    int self = atoi(argv[1]), g = self / domain_ranks, q = self % domain_ranks;
    int inner_right = g * domain_ranks + (q + 1) % domain_ranks;
    int outer_right = (g + 1) % domains * domain_ranks + q;
    ring_pass(boxes[inner_right], boxes[self], domain_ranks - 1, inner_bytes);
    ring_pass(boxes[ranks + outer_right], boxes[ranks + self], 2 * (domains - 1), outer_bytes);
    ring_pass(boxes[2 * ranks + inner_right], boxes[2 * ranks + self], domain_ranks - 1, inner_bytes);
}

int main(int argc, char **argv)
{
    topology t;
    diag d = {0};
    if (argc < 3 || !platform_load(argv[1], &t, &d)) {
        if (argc < 3) fprintf(stderr, "usage: hier_baseline PLATFORM.yaml SIZE_BYTES [--cfg=...]\n");
        else diag_print(&d);
        return 2;
    }
    char *end;
    long long size_bytes = strtoll(argv[2], &end, 10);
    ranks = t.ranks;
    domain_ranks = t.domain_ranks;
    domains = domain_ranks > 0 ? ranks / domain_ranks : 0;
    if (*end || size_bytes < 1 || domain_ranks < 2 || domains < 2) {
        fprintf(stderr, "hier_baseline: SIZE_BYTES must be a whole number of bytes and the platform '%s' hold at least "
                "2 domains (racks, nodes, leaves) of at least 2 ranks\n", argv[1]);
        topology_free(&t);
        return 2;
    }
    long long scale = 1;
    while (size_bytes * scale % ranks != 0 && scale < SCALE_MAX) scale++;
    long double outer_chunk = (long double)size_bytes * scale / ranks; /* M·K/N: one outer message */
    outer_bytes = llroundl(outer_chunk) > 0 ? llroundl(outer_chunk) : 1;
    inner_bytes = llroundl(domains * outer_chunk); /* M·K/G: L chunks */

    node_pair *pairs = malloc(sizeof *pairs * 2 * (size_t)ranks);
    for (int r = 0; r < ranks; r++) {
        int g = r / domain_ranks, q = r % domain_ranks;
        pairs[2 * r] = (node_pair){r, g * domain_ranks + (q + 1) % domain_ranks};
        pairs[2 * r + 1] = (node_pair){r, (g + 1) % domains * domain_ranks + q};
    }
    const char *sim_argv[SIM_ARGUMENTS + 33];
    char storage[SIM_ARGUMENTS][SIM_ARGUMENT_BYTES];
    sim_options options = {.model = NETWORK_CM02};
    int sim_argc = simgrid_arguments(&options, sim_argv, storage);
    for (int a = 3; a < argc && a - 3 < 32; a++) sim_argv[sim_argc++] = argv[a];
    sim_argv[sim_argc] = NULL;
    simgrid_init(&sim_argc, (char **)sim_argv);
    bool ok = simgrid_zone_build(&t, pairs, 2 * ranks, (double)scale, false);
    free(pairs);
    if (!ok) {
        topology_free(&t);
        return 2;
    }
    boxes = malloc(sizeof *boxes * PARTS * (size_t)ranks);
    char name[64], index[16];
    for (int i = 0; i < PARTS * ranks; i++) {
        snprintf(name, sizeof name, "%d:%d", i / ranks, i % ranks);
        boxes[i] = sg_mailbox_by_name(name);
    }
    for (int r = 0; r < ranks; r++) {
        topology_node_name(&t, r, name, sizeof name);
        snprintf(index, sizeof index, "%d", r);
        const char *args[] = {"rank", index};
        sg_actor_create_("rank", sg_host_by_name(name), rank_main, 2, args);
    }
    simgrid_run();
    printf("%.17g\n", simgrid_get_clock());
    free(boxes);
    topology_free(&t);
    return 0;
}
