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

/* Spray's choice at a fork at NODE: the switch's hash of the packet's
 * flow and entropy (CTX, its key). */
static int spray_pick(const void *ctx, int node, int count)
{
    return (int)(ecmp_hash(*(const int *)ctx, node, SPRAY_SWITCH_SALT) % (unsigned)count);
}

int choose_spray(route_table *routes, int route, unsigned entropy)
{
    const net_route *r = &routes->routes[route];
    int packet_key = (int)ecmp_hash(r->src, r->dst, entropy); /* its flow and entropy, as a header's fields */
    return route_decided(routes, route, spray_pick, &packet_key);
}

int choose_adaptive(route_table *routes, port *ports, port_buffer *buffers, int vc_shift, request_view requests,
                    net_time now, int route, route_branch branch)
{
    const route_option *options = route_options(routes, route);
    int pick = 0;
    int64_t least = -1;
    for (int i = 0; i < branch.count; i++) {
        int c = (branch.taken + i) % branch.count, p = options[c].port;
        int64_t bytes = queued(&ports[p], &buffers[(size_t)p << vc_shift], requests, now);
        if (least < 0 || bytes < least) {
            least = bytes;
            pick = c;
        }
    }
    return pick;
}

int choose_minimal(route_table *routes, port *ports, port_buffer *buffers, int vc_shift, request_view requests,
                   net_time now, int route, int count, int64_t wire, bool credit)
{
    const route_option *options = route_options(routes, route);
    int pick = count;
    int64_t least = -1;
    for (int c = 0; c < count; c++) { /* dimension order, then the first channel, on ties */
        const route_option *s = &options[c];
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
