/* arbitration.c — round robin among the inputs waiting for a port.  The
 * inputs form a queue; a free port takes the first whose head is eligible
 * (in, for cut-through; whole, for store-and-forward) and fits the buffer
 * it would fill (credits).  The engine puts an input served at the back
 * when its next packet wants the same port: round robin among inputs.  On
 * a link of several virtual lanes, the lanes take turns by weight
 * (lanes.h), round robin among inputs within each; at a rank that routes,
 * transit goes first (router.h). */
#include "net/packet/arbitration.h"

/* Whether input IN (its request I) may start on Q now: else D learns when
 * to look again, or that it lacks room. */
static inline __attribute__((always_inline)) bool may_start(port *q, port_buffer *far, const request_view *requests,
                                                            int in, const input_request *i, bool credit, net_time now,
                                                            arbitration_decision *d)
{
    net_time eligible = request_ready(*requests, in, i);
    if (eligible > now) {
        if (eligible < d->retry) d->retry = eligible;
        return false;
    }
    bool taken = adaptive_room_taken(requests->adaptive_vc, requests->route_vcs, i->vc);
    if (credit && !taken && far[i->vc].credits < i->wire) { /* credits only grow as they settle */
        port_buffer *b = &far[i->vc];
        buffer_settle(b, q->latency, now);
        if (b->credits < i->wire) {
            d->starved = true;
            return false;
        }
    }
    if (credit && q->pool >= 0 && !pool_admits(&requests->pools[q->pool], q->pool_queued, i->wire)) {
        d->starved = true;
        return false;
    }
    return true;
}

arbitration_decision arbitration_round_robin(port *q, port_buffer *far, const request_view *requests, bool credit,
                                             net_time now)
{
    arbitration_decision d = {.input = -1, .before = -1, .starved = false, .retry = NET_TIME_NEVER};
    for (int before = -1, in = q->request_head; in >= 0; before = in, in = request_of(*requests, in)->next) {
        if (!may_start(q, far, requests, in, request_of(*requests, in), credit, now, &d)) continue;
        d.input = in;
        d.before = before;
        return d;
    }
    return d;
}

arbitration_decision arbitration_bubble(port *q, port_buffer *far, const request_view *requests, bool credit,
                                        net_time now)
{
    arbitration_decision d = {.input = -1, .before = -1, .starved = false, .retry = NET_TIME_NEVER};
    for (int before = -1, in = q->request_head; in >= 0; before = in, in = request_of(*requests, in)->next) {
        const input_request *i = request_of(*requests, in);
        if (!may_start(q, far, requests, in, i, credit, now, &d)) continue;
        bool source = in >= requests->first_message && in < VOQ_INPUT_BASE;
        bool taken = adaptive_room_taken(requests->adaptive_vc, requests->route_vcs, i->vc);
        if (source && !taken && credit && far[i->vc].credits < 2 * (int64_t)i->wire) {
            buffer_settle(&far[i->vc], q->latency, now); /* credits only grow as they settle */
            if (far[i->vc].credits < 2 * (int64_t)i->wire) {
                d.starved = true;
                continue;
            }
        }
        d.input = in;
        d.before = before;
        d.starved = false;
        d.retry = NET_TIME_NEVER;
        return d;
    }
    return d;
}

arbitration_decision arbitration_transit_first(port *q, port_buffer *far, const request_view *requests, bool credit,
                                               bool oldest, net_time now)
{
    arbitration_decision d = {.input = -1, .before = -1, .starved = false, .retry = NET_TIME_NEVER};
    int32_t message = -1, before_message = -1;
    for (int before = -1, in = q->request_head; in >= 0; before = in, in = request_of(*requests, in)->next) {
        bool source = in >= requests->first_message && in < VOQ_INPUT_BASE;
        if (source && message >= 0) continue; /* a message already found: only transit can win */
        if (!source && d.input >= 0 &&
            packet_not_older(request_of(*requests, in)->born, request_of(*requests, d.input)->born))
            continue; /* not older than the oldest found */
        if (!may_start(q, far, requests, in, request_of(*requests, in), credit, now, &d)) continue;
        if (source) {
            message = in;
            before_message = before;
            continue;
        }
        d.input = in;
        d.before = before;
        if (!oldest) break;
    }
    if (d.input < 0 && message >= 0) d.input = message, d.before = before_message;
    if (d.input >= 0) d.starved = false, d.retry = NET_TIME_NEVER;
    return d;
}

arbitration_decision arbitration_lanes(port *q, port_buffer *far, const port_lanes *lanes, const request_view *requests,
                                       bool credit, net_time now)
{
    arbitration_decision d = {.input = -1, .before = -1, .starved = false, .retry = NET_TIME_NEVER};
    int32_t first[PORT_MAX_VCS], before_first[PORT_MAX_VCS]; /* by lane: its first input that may start */
    for (int l = 0; l < PORT_MAX_VCS; l++) first[l] = before_first[l] = -1;
    for (int before = -1, in = q->request_head; in >= 0; before = in, in = request_of(*requests, in)->next) {
        const input_request *i = request_of(*requests, in);
        int lane = i->vc / requests->route_vcs;
        if (first[lane] >= 0 || !may_start(q, far, requests, in, i, credit, now, &d)) continue;
        first[lane] = in;
        before_first[lane] = before;
    }
    int lane = lanes->turn;
    if (first[lane] < 0 || lanes->left == 0) /* the turn is over: the next lane that has one */
        for (int k = 1; k <= lanes->count; k++) {
            int l = (lanes->turn + k) % lanes->count;
            if (first[l] >= 0) {
                lane = l;
                break;
            }
        }
    if (first[lane] < 0) return d;
    d.input = first[lane];
    d.before = before_first[lane];
    d.lane = lane;
    d.starved = false;
    d.retry = NET_TIME_NEVER;
    return d;
}
