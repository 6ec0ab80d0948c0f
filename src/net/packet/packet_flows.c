/* packet_flows.c — flows on the packet engine, in order of start time. */
#include "net/packet/packet_flows.h"

#include <stdint.h>
#include <stdlib.h>

void packet_link_stats(engine *e, double scale, net_link_stats *links)
{
    net_time now = engine_now(e);
    for (int i = 0; i < engine_port_count(e); i++) {
        const port *p = engine_port(e, i);
        net_link_stats *l = &links[i];
        net_time stalled = p->stalled + (p->stalled_since >= 0 ? now - p->stalled_since : 0);
        *l = (net_link_stats){.bytes = (double)p->bytes / scale, .stalled_s = net_time_to_seconds(stalled)};
        for_each_vc(v, p->vcs_used) {
            const port_buffer *b = &engine_port_buffers(e, i)[v];
            if ((double)b->peak_occupancy / scale > l->peak_buffer_bytes) l->peak_buffer_bytes = (double)b->peak_occupancy / scale;
            double integral = b->occupancy_integral + (double)b->occupancy * (double)(now - b->occupancy_since);
            l->buffer_byte_s += integral / scale / NET_TIME_PER_SECOND;
        }
    }
}

typedef struct flow_run {
    engine *e;
    double *finish_s;
} flow_run;

static void flow_delivered(void *ctx, void *cookie)
{
    flow_run *run = ctx;
    run->finish_s[(intptr_t)cookie] = net_time_to_seconds(engine_now(run->e));
}

typedef struct start {
    double time_s;
    int flow;
} start;

static int by_start(const void *a, const void *b)
{
    const start *x = a, *y = b;
    if (x->time_s != y->time_s) return x->time_s < y->time_s ? -1 : 1;
    return (x->flow > y->flow) - (x->flow < y->flow);
}

engine *packet_run_flows(const topology *t, const flow *flows, int count, bool virtual_channels, double *finish_s,
                         diag *d)
{
    engine *e = engine_create(t, 1.0);
    engine_use_virtual_channels(e, virtual_channels);
    if (packet_run_flows_on(e, flows, count, finish_s, d)) return e;
    engine_free(e);
    return NULL;
}

bool packet_run_flows_on(engine *e, const flow *flows, int count, double *finish_s, diag *d)
{
    engine_keep_messages(e, true);
    flow_run run = {e, finish_s};
    engine_on_delivery(e, flow_delivered, &run);
    start *order = malloc(sizeof *order * (size_t)(count + 1));
    int *routes = malloc(sizeof(int) * (size_t)(count + 1));
    bool ok = true;
    for (int i = 0; i < count && ok; i++) {
        order[i] = (start){flows[i].start_s, i};
        finish_s[i] = -1;
        ok = (routes[i] = engine_route(e, flows[i].src, flows[i].dst, 0, d)) >= 0;
    }
    if (ok) qsort(order, (size_t)count, sizeof *order, by_start);
    for (int k = 0; k < count && ok; k++) {
        int i = order[k].flow;
        net_time when = net_time_from_seconds(flows[i].start_s);
        ok = engine_run_until(e, when);
        engine_send(e, routes[i], llround(flows[i].size_bytes), when, (void *)(intptr_t)i);
    }
    ok = ok && engine_run_until(e, NET_TIME_NEVER);
    if (ok && engine_in_flight(e) > 0)
        ok = diag_fail(d, "the packet network deadlocked at %.9g s: %ld message(s) stuck in full buffers that wait on "
                       "one another", net_time_to_seconds(engine_now(e)), engine_in_flight(e));
    else if (!ok && !d->set)
        diag_fail(d, "the packet model's clock passed its limit of 4.6 s of simulated time (docs/packet.md)");
    free(order);
    free(routes);
    return ok;
}
