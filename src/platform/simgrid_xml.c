/* simgrid_xml.c — a topology as a SimGrid XML platform, for SimGrid's own
 * tools (simulations build theirs through net/fluid/simgrid_zone.h). */
#include "platform/simgrid_xml.h"

#include <stdlib.h>
#include <string.h>

static int compare_pairs(const void *a, const void *b)
{
    const node_pair *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

static void write_links(const topology *t, FILE *out)
{
    for (int l = 0; l < t->link_count; l++) {
        const topo_link *link = &t->links[l];
        if (link->latency_only)
            fprintf(out, "  <link id=\"%s\" bandwidth=\"1e18Bps\" latency=\"%.17gs\" sharing_policy=\"FATPIPE\"/>\n",
                    topology_link_name(t, l), link->latency_s);
        else
            fprintf(out, "  <link id=\"%s\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                    topology_link_name(t, l), link->bandwidth_Bps, link->latency_s);
    }
}

/* TEXT inside an XML comment, which may not hold "--". */
static void write_comment_text(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '-' && (p[1] == '-' || p[1] == '\0')) fputc(' ', out);
    }
}

/* "--cfg=NAME:VALUE" as <prop id="NAME" value="VALUE"/>. */
static void write_config(FILE *out, const char *const *config)
{
    if (!config || !config[0]) return;
    fprintf(out, "<config id=\"collsim\">\n");
    for (const char *const *c = config; *c; c++) {
        const char *setting = strncmp(*c, "--cfg=", 6) == 0 ? *c + 6 : *c;
        const char *colon = strchr(setting, ':');
        if (!colon) continue;
        fprintf(out, "  <prop id=\"%.*s\" value=\"%s\"/>\n", (int)(colon - setting), setting, colon + 1);
    }
    fprintf(out, "</config>\n");
}

bool simgrid_xml_write_standalone(const topology *t, node_pair *pairs, int pair_count, const char *const *config,
                                  const char *note, FILE *out, diag *d)
{
    if (pair_count > 0) qsort(pairs, (size_t)pair_count, sizeof *pairs, compare_pairs);
    fprintf(out, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<!-- collsim platform '");
    write_comment_text(out, t->name);
    fprintf(out, "' (kind %s): %d ranks, %d switches", t->kind, t->ranks, t->switch_count);
    if (note) {
        fprintf(out, ";\n     ");
        write_comment_text(out, note);
    }
    fprintf(out, " -->\n<platform version=\"4.1\">\n");
    write_config(out, config);
    fprintf(out, "<zone id=\"fabric\" routing=\"Full\">\n");
    char name[64];
    for (int node = 0; node < topology_node_count(t); node++) {
        topology_node_name(t, node, name, sizeof name);
        fprintf(out, "  <host id=\"%s\" speed=\"1Gf\"/>\n", name);
    }
    write_links(t, out);
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
            const char *id = topology_link_name(t, hops[h].link);
            if (link->latency_only) fprintf(out, "<link_ctn id=\"%s\"/>", id);
            else fprintf(out, "<link_ctn id=\"%s\" direction=\"%s\"/>", id, hops[h].down ? "DOWN" : "UP");
        }
        fprintf(out, "</route>\n");
    }
    free(hops);
    fprintf(out, "</zone>\n</platform>\n");
    return true;
}

