/* command_platform.c — `collsim platform describe | xml | route`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "net/simgrid_run.h"
#include "platform/describe.h"
#include "platform/platform.h"
#include "platform/simgrid_xml.h"
#include "util/units.h"

#define XML_ALL_ROUTES_MAX_RANKS 64

static int platform_xml(const topology *t, const char *routes)
{
    bool all = routes ? strcmp(routes, "all") == 0 : t->ranks <= XML_ALL_ROUTES_MAX_RANKS;
    bool ring = routes && strcmp(routes, "ring") == 0;
    if (routes && !all && !ring && strcmp(routes, "none") != 0) {
        fprintf(stderr, "collsim platform xml: --routes takes all, ring or none, not '%s'\n", routes);
        return 2;
    }
    long count = all ? (long)t->ranks * (t->ranks - 1) : ring ? 2L * t->ranks : 0;
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(count ? count : 1));
    long n = 0;
    for (int i = 0; all && i < t->ranks; i++)
        for (int j = 0; j < t->ranks; j++)
            if (i != j) pairs[n++] = (node_pair){i, j};
    for (int i = 0; ring && i < t->ranks; i++) {
        pairs[n++] = (node_pair){i, (i + 1) % t->ranks};
        pairs[n++] = (node_pair){(i + 1) % t->ranks, i};
    }
    if (!all && !ring)
        printf("<!-- routes between the %d ranks are not listed (--routes all lists them): collsim computes each route\n"
               "     from the topology and writes only those a simulation uses -->\n", t->ranks);
    diag d = {0};
    bool ok = simgrid_xml_write(t, pairs, (int)n, 1.0, stdout, &d);
    free(pairs);
    if (!ok) diag_print(&d);
    return ok ? 0 : 2;
}

static bool parse_node(const topology *t, const char *text, int *node)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (end != text && *end == '\0' && v >= 0 && v < t->ranks) {
        *node = (int)v;
        return true;
    }
    char name[64];
    for (int i = 0; i < topology_node_count(t); i++) {
        topology_node_name(t, i, name, sizeof name);
        if (strcmp(name, text) == 0) {
            *node = i;
            return true;
        }
    }
    fprintf(stderr, "collsim platform route: '%s' is neither a rank (0..%d) nor a switch of '%s'\n", text, t->ranks - 1, t->name);
    return false;
}

/* Print the route between two nodes and time one message over it. */
static int platform_route(const topology *t, int argc, char **argv)
{
    int src, dst;
    double size = 1e6;
    if (argc < 2) {
        fprintf(stderr, "usage: collsim platform route PLATFORM.yaml SRC DST [--size 16MB]\n");
        return 2;
    }
    if (!parse_node(t, argv[0], &src) || !parse_node(t, argv[1], &dst)) return 2;
    for (int i = 2; i < argc; i++) {
        char why[256];
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (!units_parse(argv[++i], UNIT_SIZE, &size, why, sizeof why) || size <= 0) {
                fprintf(stderr, "collsim platform route: --size: %s\n", size <= 0 ? "must be positive" : why);
                return 2;
            }
        } else {
            fprintf(stderr, "collsim platform route: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (src == dst) {
        fprintf(stderr, "collsim platform route: source and destination are the same node\n");
        return 2;
    }
    route_hop *hops = route_buffer(t);
    int count = topology_route(t, src, dst, hops);
    if (count <= 0) {
        fprintf(stderr, "collsim platform route: no route from %s to %s (in-network legs join a node to an adjacent switch only)\n",
                argv[0], argv[1]);
        free(hops);
        return 2;
    }
    for (int h = 0; h < count; h++) {
        const topo_link *l = &t->links[hops[h].link];
        char lat[32], bw[32];
        units_format(l->latency_s, UNIT_TIME, lat, sizeof lat);
        units_format(l->bandwidth_Bps, UNIT_BANDWIDTH, bw, sizeof bw);
        if (l->latency_only) printf("  %-34s %-4s latency %-10s (switch delay)\n", l->name, "", lat);
        else printf("  %-34s %-4s latency %-10s BW %s\n", l->name, hops[h].down ? "DOWN" : "UP", lat, bw);
    }
    double latency = route_latency(t, hops, count), bandwidth = route_bandwidth(t, hops, count);
    int physical = route_physical_links(t, hops, count);
    free(hops);
    double expected = latency + size / bandwidth;
    flow f = {src, dst, size, 0};
    sim_options options = {NETWORK_CM02, NULL};
    double simulated;
    diag d = {0};
    if (!simgrid_run_flows(t, &f, 1, &options, &simulated, &d)) {
        diag_print(&d);
        return 2;
    }
    printf("links %d physical; latency %.17g s; bottleneck %.17g B/s\n", physical, latency, bandwidth);
    printf("size %.17g B: latency + size/BW = %.17g s; simulated %.17g s; relative difference %.3g\n", size, expected,
           simulated, simulated / expected - 1);
    return 0;
}

int command_platform(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: collsim platform describe|xml|route PLATFORM.yaml ...\n");
        return 2;
    }
    const char *verb = argv[0];
    if (strcmp(verb, "describe") && strcmp(verb, "xml") && strcmp(verb, "route")) {
        fprintf(stderr, "collsim platform: unknown verb '%s': expected describe, xml or route\n", verb);
        return 2;
    }
    topology t;
    diag d = {0};
    if (!platform_load(argv[1], &t, &d)) {
        diag_print(&d);
        return 2;
    }
    int status = 0;
    if (strcmp(verb, "describe") == 0) platform_describe(&t, stdout);
    else if (strcmp(verb, "xml") == 0) {
        const char *routes = NULL;
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--routes") == 0 && i + 1 < argc) routes = argv[++i];
            else {
                fprintf(stderr, "collsim platform xml: unknown option '%s'\n", argv[i]);
                status = 2;
            }
        }
        if (!status) status = platform_xml(&t, routes);
    } else status = platform_route(&t, argc - 2, argv + 2);
    topology_free(&t);
    return status;
}
