/* links.c — the per-link view: link directions named by their platform
 * link and the nodes they join, with their utilization and buffers. */
#include "report/links.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int links_view(const topology *t, const net_link_stats *stats, double time_s, bool packet, link_row *out)
{
    int n = 0;
    for (int port = 0; port < 2 * t->link_count; port++) {
        const topo_link *l = &t->links[port / 2];
        if (l->latency_only) continue;
        const net_link_stats *s = &stats[port];
        link_row *r = &out[n++];
        memset(r, 0, sizeof *r);
        r->port = port;
        snprintf(r->link, sizeof r->link, "%s", topology_link_name(t, port / 2));
        r->down = port % 2 == 1;
        snprintf(r->tier, sizeof r->tier, "%s", t->tiers[l->tier].name);
        topology_link_end_name(t, port / 2, r->down, 0, r->from, sizeof r->from);
        topology_link_end_name(t, port / 2, r->down, 1, r->to, sizeof r->to);
        r->bandwidth_Bps = l->bandwidth_Bps;
        r->bytes = s->bytes;
        r->utilization = time_s > 0 && l->bandwidth_Bps > 0 ? s->bytes / (l->bandwidth_Bps * time_s) : 0;
        r->peak_buffer_bytes = packet ? s->peak_buffer_bytes : NAN;
        r->mean_buffer_bytes = packet ? (time_s > 0 ? s->buffer_byte_s / time_s : 0) : NAN;
        r->stalled_s = packet ? s->stalled_s : NAN;
    }
    return n;
}

/* A counter that may be NaN (fluid model), as a sort key. */
static double key(double value)
{
    return isfinite(value) ? value : 0;
}

static int by_load(const void *a, const void *b)
{
    const link_row *x = *(const link_row *const *)a, *y = *(const link_row *const *)b;
    double keys[][2] = {{x->utilization, y->utilization},
                        {key(x->mean_buffer_bytes), key(y->mean_buffer_bytes)},
                        {key(x->peak_buffer_bytes), key(y->peak_buffer_bytes)},
                        {key(x->stalled_s), key(y->stalled_s)}};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (keys[k][0] != keys[k][1]) return keys[k][0] < keys[k][1] ? 1 : -1;
    return (x > y) - (x < y); /* the platform's order */
}

int links_hottest(const link_row *rows, int count, link_row *hot, int max)
{
    const link_row **order = malloc(sizeof *order * (size_t)(count + 1));
    int used = 0;
    for (int i = 0; i < count; i++)
        if (rows[i].bytes > 0) order[used++] = &rows[i];
    qsort(order, (size_t)used, sizeof *order, by_load);
    int n = used < max ? used : max;
    for (int i = 0; i < n; i++) hot[i] = *order[i];
    free(order);
    return n;
}
