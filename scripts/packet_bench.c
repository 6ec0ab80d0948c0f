/* packet_bench.c — the packet engine alone (no SimGrid, no schedule), in
 * one of two traffic patterns, every flow posted at time 0:
 *   permutation   every rank sends SIZE bytes to the rank the permutation
 *                 of SEED names (the derangement `collsim run` draws for
 *                 `primitive: permutation`);
 *   --alltoall    every rank sends SIZE / N bytes to every other, rank by
 *                 rank, each rank's destinations in the `torus` all-to-all
 *                 schedule's order (src/algo/alltoall_torus.c): rank i to
 *                 i + k mod N for k = 1 .. N - 1, the nearest offset first.
 *                 The flows of a schedule too large for collsim (the 16^3
 *                 torus; docs/packet.md §5a), though not paced as the
 *                 executor paces a schedule's sends.
 * Prints the last arrival, the engine's events, packet-hops, peak packets
 * in flight, its CPU time (user + system, of the engine alone: routes,
 * flows and the run), packet-hops per CPU second and the process's peak
 * resident memory: the engine's own speed and size, which scripts/bench
 * reports beside collsim's runs.  CPU time, not wall time: the machines
 * are shared, and on an idle core the two are the same.
 * Usage: packet_bench PLATFORM.yaml SIZE_BYTES [SEED | --alltoall] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "util/shuffle.h"
#include "net/packet/packet_flows.h"
#include "net/packet/routing.h"
#include "platform/platform.h"

/* User + system seconds of this process so far. */
static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/* Peak resident memory of this process so far, in GB (ru_maxrss: KB). */
static double peak_rss_gb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1e6;
}

/* The flows of the `torus` all-to-all of SIZE bytes a rank over N ranks:
 * N (N - 1) of them, in the schedule's order; NULL when too many. */
static flow *alltoall_flows(int n, double size, long *count)
{
    *count = (long)n * (n - 1);
    if (*count > 1L << 30) return NULL;
    flow *flows = malloc(sizeof *flows * (size_t)(*count > 0 ? *count : 1));
    if (!flows) return NULL;
    long f = 0;
    for (int i = 0; i < n; i++)
        for (int k = 1; k < n; k++) flows[f++] = (flow){i, (i + k) % n, size / n, 0};
    return flows;
}

/* The permutation of SEED: every rank sends SIZE bytes. */
static flow *permutation_flows(int n, double size, unsigned long long seed, long *count)
{
    int *to = malloc(sizeof(int) * (size_t)n);
    flow *flows = malloc(sizeof *flows * (size_t)n);
    if (!to || !flows) {
        free(to);
        free(flows);
        return NULL;
    }
    random_derangement(n, seed, to);
    for (int i = 0; i < n; i++) flows[i] = (flow){i, to[i], size, 0};
    free(to);
    *count = n;
    return flows;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: packet_bench PLATFORM.yaml SIZE_BYTES [SEED | --alltoall]\n");
        return 2;
    }
    bool alltoall = argc > 3 && strcmp(argv[3], "--alltoall") == 0;
    topology t;
    diag d = {0};
    if (!platform_load(argv[1], &t, &d)) {
        diag_print(&d);
        return 2;
    }
    int n = t.ranks;
    long count = 0;
    flow *flows = alltoall ? alltoall_flows(n, atof(argv[2]), &count)
                           : permutation_flows(n, atof(argv[2]), argc > 3 ? strtoull(argv[3], NULL, 10) : 1, &count);
    double *finish = flows ? malloc(sizeof(double) * (size_t)count) : NULL;
    if (!flows || !finish || count > 0x7fffffff) {
        fprintf(stderr, "packet_bench: out of memory for %ld flows\n", count);
        return 1;
    }
    double start = cpu_seconds();
    engine *e = packet_run_flows(&t, flows, (int)count, true, finish, &d);
    double cpu = cpu_seconds() - start;
    if (!e) {
        diag_print(&d);
        return 1;
    }
    double last = 0;
    for (long i = 0; i < count; i++)
        if (finish[i] > last) last = finish[i];
    engine_counters c = engine_totals(e);
    const route_table *routes = engine_routes(e);
    printf("%d ranks, %ld flows (%s) x %s B: last arrival %.6g s; %lld events, %lld packet-hops, %lld packets, peak %ld "
           "in flight; routes: %d ids, at most %d alternatives at once; engine CPU %.2f s, %.2f million packet-hops "
           "per CPU second; peak RSS %.2f GB\n", n, count, alltoall ? "all-to-all, SIZE / N each" : "permutation",
           argv[2], last, c.events, c.packet_hops, c.packets, c.peak_packets, routes->route_count,
           routes->alternatives_peak, cpu, (double)c.packet_hops / cpu / 1e6, peak_rss_gb());
    engine_free(e);
    free(flows);
    free(finish);
    topology_free(&t);
    return 0;
}
