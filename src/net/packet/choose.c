/* choose.c — routing on multi-path tiers, per packet, at each fork of its
 * route (the switch's equal-cost links toward the destination):
 *   spray     round robin: the switch takes its alternatives in turn;
 *   adaptive  the alternative whose port has the fewest bytes queued (waiting
 *             for it, or sent into the buffer it feeds and not yet gone on);
 *             ties go to the flow's ECMP alternative, then the next ones.
 * `ecmp` never gets here: a flow's route already takes the hash's links. */
#include "net/packet/engine_internal.h"

/* Bytes queued at port P now. */
static int64_t queued(engine *e, int p)
{
    port *q = &e->ports[p];
    int64_t bytes = 0;
    for (int in = q->request_head; in >= 0; in = input_of(e, in)->next) bytes += input_of(e, in)->wire;
    for (int v = 0; v < PORT_VCS; v++) {
        buffer_settle(&q->far[v], q->latency, e->now);
        bytes += q->far[v].occupancy;
    }
    return bytes;
}

void choose_at_fork(engine *e, packet *x, route_branch branch)
{
    int route = e->routes.stages[x->at].route;
    int pick = 0, stage = x->at - e->routes.routes[route].first;
    if (e->routing == PACKET_ROUTING_SPRAY) pick = (int)(e->spray_next[branch.node]++ % (unsigned)branch.count);
    else {
        int64_t least = -1;
        for (int i = 0; i < branch.count; i++) {
            int c = (branch.taken + i) % branch.count;
            int alternative = route_alternative(&e->routes, route, c);
            int64_t bytes = queued(e, route_stage_of(&e->routes, alternative, branch.stage)->port);
            if (least < 0 || bytes < least) {
                least = bytes;
                pick = c;
            }
        }
    }
    int chosen = route_alternative(&e->routes, route, pick);
    x->at = e->routes.routes[chosen].first + stage;
}
