/* choose.c — path choice per packet (choose.h): spray's path of a turn,
 * and adaptive routing's alternative whose port has the fewest bytes queued
 * when the packet reaches the fork. */
#include "net/packet/choose.h"

#include "platform/topology.h"

enum { SPRAY_SWITCH_SALT = 13 }; /* a switch's hash of a packet: apart from ECMP's tiers' salts */

/* Bytes queued at port Q now: its waiting heads (a virtual output queue's
 * whole queue: its packets chose Q as they entered), and its far buffers'
 * (FAR) contents. */
static int64_t queued(port *q, port_buffer *far, request_view requests, net_time now)
{
    int64_t bytes = 0;
    for (int in = q->request_head; in >= 0; in = request_of(requests, in)->next) {
        int64_t packets = in >= VOQ_INPUT_BASE ? requests.voqs[in - VOQ_INPUT_BASE].queue.count : 1;
        bytes += request_of(requests, in)->wire * packets;
    }
    for_each_vc(v, q->vcs_used) {
        buffer_settle(&far[v], q->latency, now);
        bytes += far[v].occupancy;
    }
    return bytes;
}

int choose_spray(route_table *routes, int route, unsigned entropy)
{
    const net_route *r = &routes->routes[route];
    int packet_key = (int)ecmp_hash(r->src, r->dst, entropy); /* its flow and entropy, as a header's fields */
    for (;;) {
        r = &routes->routes[route];
        if (r->decided >= r->branch_count) return route;
        const route_branch *b = &routes->branches[r->branch_first + r->decided];
        unsigned pick = ecmp_hash(packet_key, b->node, SPRAY_SWITCH_SALT) % (unsigned)b->count;
        route = route_alternative(routes, route, (int)pick); /* may grow the table: r and b are stale */
    }
}

int choose_adaptive(route_table *routes, port *ports, port_buffer *buffers, int vc_shift, request_view requests,
                    net_time now, int route, route_branch branch)
{
    int pick = 0;
    int64_t least = -1;
    for (int i = 0; i < branch.count; i++) {
        int c = (branch.taken + i) % branch.count;
        int alternative = route_alternative(routes, route, c);
        int p = route_stage_of(routes, alternative, branch.stage)->port;
        int64_t bytes = queued(&ports[p], &buffers[(size_t)p << vc_shift], requests, now);
        if (least < 0 || bytes < least) {
            least = bytes;
            pick = c;
        }
    }
    return pick;
}

int choose_minimal(route_table *routes, port *ports, port_buffer *buffers, int vc_shift, request_view requests,
                   net_time now, int route, route_branch branch, int64_t wire, bool credit)
{
    int pick = branch.count;
    int64_t least = -1;
    for (int c = 0; c < branch.count; c++) { /* dimension order first on ties */
        const route_stage *s = route_stage_of(routes, route_alternative(routes, route, c), branch.stage);
        port *q = &ports[s->port];
        port_buffer *far = &buffers[(size_t)s->port << vc_shift];
        buffer_settle(&far[s->vc], q->latency, now);
        if (credit && far[s->vc].credits < wire) continue; /* no room: not a choice */
        int64_t bytes = queued(q, far, requests, now);
        if (least < 0 || bytes < least) {
            least = bytes;
            pick = c;
        }
    }
    return pick;
}
