/* routing.c — compiling platform routes into port stages, and the
 * alternatives at equal-cost forks. */
#include "net/packet/routing.h"

#include <stdlib.h>

#include "net/packet/lanes.h"
#include "util/memory.h"

void route_table_init(route_table *r, const topology *t, bool keep_branches, int adaptive_vc)
{
    *r = (route_table){.t = t, .keep_branches = keep_branches, .datelines = true, .adaptive_vc = adaptive_vc,
                       .route_vcs = topology_route_vcs(t) + (adaptive_vc >= 0),
                       .hops = route_buffer(t),
                       .stage_of_hop = malloc(sizeof(int) * (size_t)(t->route_hops_max > 0 ? t->route_hops_max : 1))};
}

void route_table_free(route_table *r)
{
    free(r->routes);
    free(r->stages);
    free(r->branches);
    free(r->alternatives);
    free(r->hops);
    free(r->stage_of_hop);
    *r = (route_table){0};
}

/* The virtual channel a hop onto LINK on routing channel VC fills, for
 * traffic of LANE. */
static int16_t hop_vc(const route_table *r, const topo_link *link, int vc, int lane)
{
    int lanes = r->t->packet.virtual_lanes[link->tier];
    return (int16_t)(lane_on_link(lane, lanes) * r->route_vcs + (r->datelines || vc == r->adaptive_vc ? vc : 0));
}

/* Add the route SRC -> DST on LANE taking C's choices, DECIDED of them
 * fixed (the others take dimension order); with adaptive ranks the hop
 * chosen at fork DECIDED - 1 takes the adaptive channel, unless it is the
 * ESCAPE (dimension order's hop on the dateline's channels). */
static int compile(route_table *r, int src, int dst, int lane, route_choices *c, int decided, bool escape)
{
    const topology *t = r->t;
    route_hop *hops = r->hops;
    int count = topology_route_choices(t, src, dst, c, hops);
    if (count <= 0) return -1;
    r->routes = grow_array(r->routes, &r->route_capacity, r->route_count + 1, sizeof *r->routes);
    r->stages = grow_array(r->stages, &r->stage_capacity, r->stage_count + count, sizeof *r->stages);
    int id = r->route_count++;
    net_route *route = &r->routes[id];
    *route = (net_route){.src = src, .dst = dst, .first = r->stage_count, .decided = decided, .alternatives = -1,
                         .lane = lane, .escape = escape};
    int adaptive_hop = !escape && decided > 0 && r->adaptive_vc >= 0 ? c->forks[decided - 1].hop : -1;
    int *stage_of_hop = r->stage_of_hop;
    net_time delay = 0;
    for (int h = 0; h < count; h++) {
        const topo_link *link = &t->links[hops[h].link];
        stage_of_hop[h] = route->count;
        delay += net_time_from_seconds(link->latency_s) * link->latency_only;
        if (link->latency_only) continue;
        r->stages[route->first + route->count++] = (route_stage){
            .delay = delay, .port = 2 * hops[h].link + hops[h].down, .route = id,
            .vc = hop_vc(r, link, h == adaptive_hop ? r->adaptive_vc : hops[h].vc, lane), .voq = -1};
        delay = 0;
    }
    if (route->count > 0) r->stages[route->first + route->count - 1].last = true;
    r->stage_count += route->count;
    route->tail_delay = delay;
    if (!r->keep_branches) return id;
    r->branches = grow_array(r->branches, &r->branch_capacity, r->branch_count + c->fork_count, sizeof *r->branches);
    route->branch_first = r->branch_count;
    route->branch_count = c->fork_count;
    for (int k = 0; k < c->fork_count; k++) {
        const route_fork *f = &c->forks[k];
        r->branches[r->branch_count++] =
            (route_branch){.stage = stage_of_hop[f->hop], .count = f->count, .node = f->node, .taken = f->taken};
    }
    return id;
}

int route_flow(route_table *r, int src, int dst, int lane, diag *d)
{
    route_choices c;
    route_choices_init(&c);
    int id = compile(r, src, dst, lane, &c, 0, false);
    if (id < 0) {
        char a[64], b[64];
        topology_node_name(r->t, src, a, sizeof a);
        topology_node_name(r->t, dst, b, sizeof b);
        diag_fail(d, "platform '%s' has no route from %s to %s", r->t->name, a, b);
    }
    return id;
}

int route_alternative(route_table *r, int route, int choice)
{
    const net_route *from = &r->routes[route];
    const route_branch *open = &r->branches[from->branch_first + from->decided];
    if (from->alternatives < 0) {
        int count = open->count + (r->adaptive_vc >= 0); /* and the escape */
        r->alternatives = grow_array(r->alternatives, &r->alternative_capacity, r->alternative_count + count,
                                     sizeof *r->alternatives);
        r->routes[route].alternatives = r->alternative_count;
        for (int i = 0; i < count; i++) r->alternatives[r->alternative_count++] = -1;
        from = &r->routes[route];
    }
    int32_t slot = from->alternatives + choice;
    if (r->alternatives[slot] >= 0) return r->alternatives[slot];
    route_choices c;
    route_choices_init(&c);
    for (int k = 0; k < from->decided; k++) c.choice[k] = r->branches[from->branch_first + k].taken;
    bool escape = choice == open->count;
    c.choice[from->decided] = escape ? 0 : choice; /* the escape: dimension order from the fork on */
    int src = from->src, dst = from->dst, decided = from->decided + 1, fork = open->stage;
    int id = compile(r, src, dst, from->lane, &c, decided, escape); /* may grow the table: from and open are stale */
    /* the hops before the fork are the route's own, on the channels the packet took (an adaptive hop's
       among them): the buffer it waits in at the fork is the one its queue there belongs to (voq.h) */
    for (int k = 0; id >= 0 && k < fork; k++)
        r->stages[r->routes[id].first + k].vc = r->stages[r->routes[route].first + k].vc;
    r->alternatives[slot] = id;
    return id;
}

const route_branch *route_open_branch(const route_table *r, int route, int stage)
{
    const net_route *n = &r->routes[route];
    if (n->decided >= n->branch_count) return NULL;
    const route_branch *b = &r->branches[n->branch_first + n->decided];
    return b->stage == stage ? b : NULL;
}
