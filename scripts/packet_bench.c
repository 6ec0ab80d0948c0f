/* packet_bench.c — the packet engine alone (no SimGrid, no schedule): a
 * random permutation on a platform, every rank sending SIZE bytes to the
 * rank the permutation of SEED names (the derangement `collsim run` draws
 * for `primitive: permutation`), all at time 0.  Prints the engine's events,
 * packet-hops, peak packets in flight, wall time and packet-hops per second:
 * the engine's own speed, which scripts/bench reports beside collsim's runs.
 * Usage: packet_bench PLATFORM.yaml SIZE_BYTES [SEED] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/shuffle.h"
#include "net/packet_flows.h"
#include "platform/platform.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: packet_bench PLATFORM.yaml SIZE_BYTES [SEED]\n");
        return 2;
    }
    topology t;
    diag d = {0};
    if (!platform_load(argv[1], &t, &d)) {
        diag_print(&d);
        return 2;
    }
    int n = t.ranks;
    int *to = malloc(sizeof(int) * (size_t)n);
    random_derangement(n, argc > 3 ? strtoull(argv[3], NULL, 10) : 1, to);
    flow *flows = malloc(sizeof *flows * (size_t)n);
    double *finish = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) flows[i] = (flow){i, to[i], atof(argv[2]), 0};
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    engine *e = packet_run_flows(&t, flows, n, true, finish, &d);
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (!e) {
        diag_print(&d);
        return 1;
    }
    double wall = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) * 1e-9, last = 0;
    for (int i = 0; i < n; i++)
        if (finish[i] > last) last = finish[i];
    engine_counters c = engine_totals(e);
    printf("%d ranks x %s B: last arrival %.6g s; %lld events, %lld packet-hops, %lld packets, peak %ld in flight; "
           "engine wall %.2f s, %.2f million packet-hops/s\n", n, argv[2], last, c.events, c.packet_hops, c.packets,
           c.peak_packets, wall, (double)c.packet_hops / wall / 1e6);
    engine_free(e);
    free(to);
    free(flows);
    free(finish);
    topology_free(&t);
    return 0;
}
