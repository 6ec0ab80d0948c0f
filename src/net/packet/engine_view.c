/* engine_view.c — what reports and tests read of an engine: its clock,
 * counters, ports, buffers, message records and route table. */
#include "net/packet/engine_internal.h"

net_time engine_now(const engine *e)
{
    return e->now;
}

long engine_in_flight(const engine *e)
{
    return e->in_flight;
}

engine_counters engine_totals(const engine *e)
{
    return e->counters;
}

int engine_port_count(const engine *e)
{
    return e->port_count;
}

const port *engine_port(engine *e, int pi)
{
    port *p = &e->ports[pi];
    for_each_vc(v, p->vcs_used) buffer_settle(&port_far(e, pi)[v], p->latency, e->now);
    return p;
}

const port_buffer *engine_port_buffers(const engine *e, int pi)
{
    return &e->buffers[(size_t)pi << e->vc_shift];
}

int engine_message_count(const engine *e)
{
    return e->record_count;
}

const message_record *engine_message(const engine *e, int index)
{
    return &e->records[index];
}

const route_table *engine_routes(const engine *e)
{
    return &e->routes;
}
