/* simgrid_xml.c — emitting a topology as a SimGrid XML platform. */
#include "platform/simgrid_xml.h"

#include <stdlib.h>
#include <string.h>

static int compare_pairs(const void *a, const void *b)
{
    const node_pair *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Links (those LINK_USED marks, or all when NULL). */
static void write_links(const topology *t, double scale, const char *link_used, FILE *out)
{
    for (int l = 0; l < t->link_count; l++) {
        const topo_link *link = &t->links[l];
        if (link_used && !link_used[l]) continue;
        if (link->latency_only)
            fprintf(out, "  <link id=\"%s\" bandwidth=\"1e18Bps\" latency=\"%.17gs\" sharing_policy=\"FATPIPE\"/>\n",
                    link->name, link->latency_s);
        else
            fprintf(out, "  <link id=\"%s\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                    link->name, link->bandwidth_Bps * scale, link->latency_s);
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

/* The hosts and links the routes of the (sorted) PAIRS use, into
 * HOST_USED and LINK_USED. */
static void mark_used(const topology *t, const node_pair *pairs, int pair_count, char *host_used, char *link_used)
{
    route_hop *hops = route_buffer(t);
    for (int i = 0; i < pair_count; i++) {
        if (i > 0 && pairs[i].src == pairs[i - 1].src && pairs[i].dst == pairs[i - 1].dst) continue;
        host_used[pairs[i].src] = host_used[pairs[i].dst] = 1;
        int count = pairs[i].src == pairs[i].dst ? 0 : topology_route(t, pairs[i].src, pairs[i].dst, hops);
        for (int h = 0; h < count; h++) link_used[hops[h].link] = 1;
    }
    free(hops);
}

/* What a document holds: everything with the routes of PAIRS (for SimGrid's
 * own tools), what the routes of PAIRS use (a collsim simulation), or only
 * the hosts PAIRS join (actors whose messages bypass SimGrid). */
typedef enum { XML_WHOLE, XML_ROUTES_USED, XML_HOSTS_ONLY } xml_content;

static bool write_document(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale,
                           xml_content content, const char *const *config, const char *note, FILE *out, diag *d)
{
    if (pair_count > 0) qsort(pairs, (size_t)pair_count, sizeof *pairs, compare_pairs);
    char *host_used = NULL, *link_used = NULL;
    if (content != XML_WHOLE) {
        host_used = calloc((size_t)topology_node_count(t), 1);
        link_used = calloc((size_t)t->link_count + 1, 1);
        if (content == XML_ROUTES_USED) mark_used(t, pairs, pair_count, host_used, link_used);
        else
            for (int i = 0; i < pair_count; i++) host_used[pairs[i].src] = host_used[pairs[i].dst] = 1;
    }
    if (content == XML_HOSTS_ONLY) pair_count = 0; /* no route */
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
        if (host_used && !host_used[node]) continue;
        topology_node_name(t, node, name, sizeof name);
        fprintf(out, "  <host id=\"%s\" speed=\"1Gf\"/>\n", name);
    }
    write_links(t, bandwidth_scale, link_used, out);
    free(host_used);
    free(link_used);
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

bool simgrid_xml_write(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale, FILE *out, diag *d)
{
    return write_document(t, pairs, pair_count, bandwidth_scale, XML_ROUTES_USED, NULL, NULL, out, d);
}

bool simgrid_xml_write_hosts(const topology *t, node_pair *pairs, int pair_count, FILE *out, diag *d)
{
    return write_document(t, pairs, pair_count, 1.0, XML_HOSTS_ONLY, NULL, NULL, out, d);
}

bool simgrid_xml_write_standalone(const topology *t, node_pair *pairs, int pair_count, const char *const *config,
                                  const char *note, FILE *out, diag *d)
{
    return write_document(t, pairs, pair_count, 1.0, XML_WHOLE, config, note, out, d);
}
