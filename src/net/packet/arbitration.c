/* arbitration.c — round robin among the inputs waiting for a port.  The
 * inputs form a queue; a free port takes the first whose head is eligible
 * (in, for cut-through; whole, for store-and-forward) and fits the buffer
 * it would fill (credits).  The engine puts an input served at the back
 * when its next packet wants the same port: round robin among inputs. */
#include "net/packet/arbitration.h"

arbitration_decision arbitration_round_robin(port *q, request_view requests, bool credit, net_time now)
{
    arbitration_decision d = {.input = -1, .before = -1, .starved = false, .retry = NET_TIME_NEVER};
    for (int before = -1, in = q->request_head; in >= 0; before = in, in = request_of(requests, in)->next) {
        const input_request *i = request_of(requests, in);
        net_time eligible = i->eligible, crossbar = crossbar_free(requests, in);
        if (crossbar > eligible) eligible = crossbar;
        if (eligible > now) {
            if (eligible < d.retry) d.retry = eligible;
            continue;
        }
        if (credit && q->far[i->vc].credits < i->wire) { /* credits only grow as they settle */
            port_buffer *b = &q->far[i->vc];
            buffer_settle(b, q->latency, now);
            if (b->credits < i->wire) {
                d.starved = true;
                continue;
            }
        }
        if (credit && q->pool >= 0 && !pool_admits(&requests.pools[q->pool], q->pool_queued, i->wire)) {
            d.starved = true;
            continue;
        }
        d.input = in;
        d.before = before;
        return d;
    }
    return d;
}
