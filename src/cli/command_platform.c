/* command_platform.c — `collsim platform describe | xml | route`. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "util/data_path.h"
#include "net/fluid/simgrid_run.h"
#include "platform/describe.h"
#include "platform/platform.h"
#include "platform/simgrid_xml.h"
#include "util/units.h"

#define XML_ROUTES_NOTE_MIN 100000 /* tell the user when the routes make a big file */
#define XML_ROUTES_MAX (1L << 22)  /* every pair of 2048 ranks; beyond, gigabytes of XML (docs/reliability.md) */

/* The platform for SimGrid's own tools: routes between ranks (all pairs, the
 * ring's neighbours or none) and collsim's network settings as <config>. */
typedef enum { ROUTES_ALL, ROUTES_RING, ROUTES_NONE, ROUTE_SETS } route_set;
static const char *const route_set_names[ROUTE_SETS] = {"all", "ring", "none"};

static int platform_xml(const topology *t, const char *routes)
{
    route_set set = ROUTES_ALL;
    while (routes && set < ROUTE_SETS && strcmp(routes, route_set_names[set]) != 0) set++;
    if (set == ROUTE_SETS) {
        fprintf(stderr, "collsim platform xml: --routes takes all, ring or none, not '%s'\n", routes);
        return 2;
    }
    bool all = set == ROUTES_ALL, ring = set == ROUTES_RING;
    long count = all ? (long)t->ranks * (t->ranks - 1) : ring ? 2L * t->ranks : 0;
    if (count > XML_ROUTES_MAX) {
        fprintf(stderr, "collsim platform xml: %ld routes between the %d ranks; it writes at most %ld (docs/reliability.md): "
                "use --routes ring or none\n", count, t->ranks, XML_ROUTES_MAX);
        return 2;
    }
    if (count >= XML_ROUTES_NOTE_MIN)
        fprintf(stderr, "collsim platform xml: note: %ld routes between the %d ranks (--routes ring or none for fewer)\n",
                count, t->ranks);
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(count ? count : 1));
    if (!pairs) {
        fprintf(stderr, "collsim platform xml: not enough memory for %ld routes: try --routes ring or none\n", count);
        return 2;
    }
    long n = 0;
    for (int i = 0; all && i < t->ranks; i++)
        for (int j = 0; j < t->ranks; j++)
            if (i != j) pairs[n++] = (node_pair){i, j};
    for (int i = 0; ring && i < t->ranks; i++) {
        pairs[n++] = (node_pair){i, (i + 1) % t->ranks};
        pairs[n++] = (node_pair){(i + 1) % t->ranks, i};
    }
    const char *note = all ? NULL
                     : ring ? "routes: each rank to its ring neighbours only (collsim platform xml --routes all lists every pair)"
                            : "routes: none (collsim platform xml --routes all lists every pair)";
    /* collsim's network settings, and SMPI's message-size factors set to 1
     * so that smpirun (whose own network model is CM02 with such factors)
     * times a transfer as collsim does */
    const char *config[16];
    int settings = 0;
    for (const char *const *c = simgrid_model_settings(NETWORK_CM02); *c && settings < 13; c++) config[settings++] = *c;
    config[settings++] = "--cfg=smpi/bw-factor:0:1";
    config[settings++] = "--cfg=smpi/lat-factor:0:1";
    config[settings] = NULL;
    diag d = {0};
    bool ok = simgrid_xml_write_standalone(t, pairs, (int)n, config, note, stdout, &d);
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
static int platform_route(const topology *t, const cli_args *a)
{
    int src, dst;
    double size = 1e6;
    if (!parse_node(t, a->operands[1], &src) || !parse_node(t, a->operands[2], &dst)) return 2;
    const char *size_text = a->value[OPT_SIZE];
    char why[256];
    if (size_text && (!units_parse(size_text, UNIT_SIZE, &size, why, sizeof why) || size <= 0)) {
        fprintf(stderr, "collsim platform route: --size: %s\n", size <= 0 ? "must be positive" : why);
        return 2;
    }
    if (src == dst) {
        fprintf(stderr, "collsim platform route: source and destination are the same node\n");
        return 2;
    }
    route_hop *hops = route_buffer(t);
    int count = topology_route(t, src, dst, hops);
    if (count <= 0) {
        fprintf(stderr, "collsim platform route: no route from %s to %s (in-network legs join a node to an adjacent switch only)\n",
                a->operands[1], a->operands[2]);
        free(hops);
        return 2;
    }
    for (int h = 0; h < count; h++) {
        const topo_link *l = &t->links[hops[h].link];
        char lat[32], bw[32];
        units_format(l->latency_s, UNIT_TIME, lat, sizeof lat);
        units_format(l->bandwidth_Bps, UNIT_BANDWIDTH, bw, sizeof bw);
        const char *name = topology_link_name(t, hops[h].link);
        if (l->latency_only) printf("  %-34s %-4s latency %-10s (switch delay)\n", name, "", lat);
        else printf("  %-34s %-4s latency %-10s BW %s\n", name, hops[h].down ? "DOWN" : "UP", lat, bw);
    }
    double latency = route_latency(t, hops, count), bandwidth = route_bandwidth(t, hops, count);
    int physical = route_physical_links(t, hops, count);
    free(hops);
    double expected = latency + size / bandwidth;
    flow f = {src, dst, size, 0};
    sim_options options = {.model = NETWORK_CM02};
    double simulated;
    diag d = {0};
    if (!simgrid_run_flows(t, &f, 1, &options, &simulated, &d)) {
        diag_print(&d);
        return 2;
    }
    char lat[32], bw[32], bytes[32];
    units_format(latency, UNIT_TIME, lat, sizeof lat);
    units_format(bandwidth, UNIT_BANDWIDTH, bw, sizeof bw);
    units_format(size, UNIT_SIZE, bytes, sizeof bytes);
    printf("links %d physical; latency %s; bottleneck %s\n", physical, lat, bw);
    printf("size %s: latency + size/BW = %.6g us; simulated %.6g us; relative difference %.3g\n", bytes, expected * 1e6,
           simulated * 1e6, simulated / expected - 1);
    return 0;
}

static int platform_describe_command(const topology *t, const char *format)
{
    if (!format || strcmp(format, "table") == 0) platform_describe(t, stdout);
    else if (strcmp(format, "json") == 0) platform_describe_json(t, stdout);
    else {
        fprintf(stderr, "collsim platform describe: --format takes table or json, not '%s'\n", format);
        return 2;
    }
    return 0;
}

int command_platform(const cli_args *a)
{
    topology t;
    diag d = {0};
    char path[PATH_MAX]; /* found along COLLSIM_PATH and the installed platforms too (util/data_path.h) */
    data_path_find(a->operands[0], NULL, "platforms", path, sizeof path);
    if (!platform_load(path, &t, &d)) {
        diag_print(&d);
        return 2;
    }
    int status;
    if (a->command == CMD_PLATFORM_DESCRIBE) status = platform_describe_command(&t, a->value[OPT_FORMAT]);
    else if (a->command == CMD_PLATFORM_XML) status = platform_xml(&t, a->value[OPT_ROUTES]);
    else status = platform_route(&t, a);
    topology_free(&t);
    return status;
}
