/* prefetch.c — the lines a send will read, asked for by a caller that
 * knows its sends ahead (engine.h: engine_prefetch_send). */
#include "net/packet/prefetch.h"

void engine_prefetch_send(engine *e, int route, int stage)
{
    const net_route *r = &e->routes.routes[route];
    if (stage == 0) {
        __builtin_prefetch(r);
        return;
    }
    const route_stage *s = &e->routes.stages[r->first];
    if (stage == 1) {
        __builtin_prefetch(s);
        return;
    }
    prefetch_lines(&e->ports[s->port], 2);
    prefetch_lines(&port_far(e, s->port)[s->vc], 2);
}
