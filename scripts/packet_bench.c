/* packet_bench.c — the packet engine alone (no SimGrid, no schedule): a
 * random permutation on a platform, every rank sending SIZE bytes to the
 * rank the permutation of SEED names (the derangement `collsim run` draws
 * for `primitive: permutation`), all at time 0.  Prints the engine's events,
 * packet-hops, peak packets in flight, and its CPU time (user + system, of
 * the engine alone: routes, flows and the run) and packet-hops per CPU
 * second: the engine's own speed, which scripts/bench reports beside
 * collsim's runs.  CPU time, not wall time: the machines are shared, and on
 * an idle core the two are the same.
 * Usage: packet_bench PLATFORM.yaml SIZE_BYTES [SEED] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "util/shuffle.h"
#include "net/packet/packet_flows.h"
#include "platform/platform.h"

/* User + system seconds of this process so far. */
static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

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
    double start = cpu_seconds();
    engine *e = packet_run_flows(&t, flows, n, true, finish, &d);
    double cpu = cpu_seconds() - start;
    if (!e) {
        diag_print(&d);
        return 1;
    }
    double last = 0;
    for (int i = 0; i < n; i++)
        if (finish[i] > last) last = finish[i];
    engine_counters c = engine_totals(e);
    printf("%d ranks x %s B: last arrival %.6g s; %lld events, %lld packet-hops, %lld packets, peak %ld in flight; "
           "engine CPU %.2f s, %.2f million packet-hops per CPU second\n", n, argv[2], last, c.events, c.packet_hops,
           c.packets, c.peak_packets, cpu, (double)c.packet_hops / cpu / 1e6);
    engine_free(e);
    free(to);
    free(flows);
    free(finish);
    topology_free(&t);
    return 0;
}
