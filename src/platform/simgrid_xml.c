/* simgrid_xml.c — emitting a topology as a SimGrid XML platform. */
#include "platform/simgrid_xml.h"

#include <stdlib.h>

static int compare_pairs(const void *a, const void *b)
{
    const node_pair *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

static void write_links(const topology *t, double scale, FILE *out)
{
    for (int l = 0; l < t->link_count; l++) {
        const topo_link *link = &t->links[l];
        if (link->latency_only)
            fprintf(out, "  <link id=\"%s\" bandwidth=\"1e18Bps\" latency=\"%.17gs\" sharing_policy=\"FATPIPE\"/>\n",
                    link->name, link->latency_s);
        else
            fprintf(out, "  <link id=\"%s\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                    link->name, link->bandwidth_Bps * scale, link->latency_s);
    }
}

bool simgrid_xml_write(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale, FILE *out, diag *d)
{
    qsort(pairs, (size_t)pair_count, sizeof *pairs, compare_pairs);
    fprintf(out, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<!-- collsim platform '%s' (kind %s): %d ranks, %d switches -->\n"
                 "<platform version=\"4.1\">\n<zone id=\"fabric\" routing=\"Full\">\n",
            t->name, t->kind, t->ranks, t->switch_count);
    char name[64];
    for (int node = 0; node < topology_node_count(t); node++) {
        topology_node_name(t, node, name, sizeof name);
        fprintf(out, "  <host id=\"%s\" speed=\"1Gf\"/>\n", name);
    }
    write_links(t, bandwidth_scale, out);
    route_hop *hops = route_buffer(t);
    char dst_name[64];
    for (int i = 0; i < pair_count; i++) {
        if (i > 0 && pairs[i].src == pairs[i - 1].src && pairs[i].dst == pairs[i - 1].dst) continue;
        if (pairs[i].src == pairs[i].dst) continue;
        int count = topology_route(t, pairs[i].src, pairs[i].dst, hops);
        topology_node_name(t, pairs[i].src, name, sizeof name);
        topology_node_name(t, pairs[i].dst, dst_name, sizeof dst_name);
        if (count <= 0) {
            free(hops);
            return diag_fail(d, "platform '%s' has no route from %s to %s", t->name, name, dst_name);
        }
        fprintf(out, "  <route src=\"%s\" dst=\"%s\" symmetrical=\"NO\">", name, dst_name);
        for (int h = 0; h < count; h++) {
            const topo_link *link = &t->links[hops[h].link];
            if (link->latency_only) fprintf(out, "<link_ctn id=\"%s\"/>", link->name);
            else fprintf(out, "<link_ctn id=\"%s\" direction=\"%s\"/>", link->name, hops[h].down ? "DOWN" : "UP");
        }
        fprintf(out, "</route>\n");
    }
    free(hops);
    fprintf(out, "</zone>\n</platform>\n");
    return true;
}
