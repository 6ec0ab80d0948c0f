/* arbitration.c — which input a port serves next.  The inputs waiting for a
 * port form a queue; a free port starts the head packet of the first input
 * whose head is eligible (in, for cut-through; whole, for store-and-forward)
 * and fits the buffer it would fill (credits).  An input served goes to the
 * back when its next packet wants the same port: round robin among inputs.
 * A port whose eligible heads all lack credits is stalled; it wakes when the
 * next credit comes back, a waiting head becomes eligible, or its tail has
 * left. */
#include "net/packet/engine_internal.h"

/* Wake port P at T (earlier than any wake already due). */
static void wake(engine *e, int p, net_time t)
{
    port *q = &e->ports[p];
    if (t >= q->wake_at) return;
    q->wake_at = t;
    engine_schedule(e, t, EVENT_PORT, p);
}

void arbitration_request(engine *e, int in, int p)
{
    port *q = &e->ports[p];
    input_request *i = input_of(e, in);
    i->next = -1;
    if (q->request_tail < 0) q->request_head = in;
    else input_of(e, q->request_tail)->next = in;
    q->request_tail = in;
    /* a free port with eligible heads waiting is stalled: a head still on its way changes nothing yet */
    if (q->free_at > e->now) wake(e, p, q->free_at);
    else if (i->eligible > e->now) wake(e, p, i->eligible);
    else arbitration_serve(e, p);
}

/* Port Q (stalled or not) starts or stops waiting for credits at NOW; its
 * buffers know, so that a credit wakes it. */
static void stall(port *q, bool stalled, net_time now)
{
    if (stalled == (q->stalled_since >= 0)) return;
    if (stalled) q->stalled_since = now;
    else {
        q->stalled += now - q->stalled_since;
        q->stalled_since = -1;
    }
    for (int v = 0; v < PORT_VCS; v++)
        if (q->vcs_used >> v & 1) q->far[v].sender_stalled = stalled;
}

void arbitration_serve(engine *e, int p)
{
    port *q = &e->ports[p];
    if (q->request_head < 0) return;
    if (q->free_at > e->now) {
        wake(e, p, q->free_at);
        return;
    }
    net_time soonest = NET_TIME_NEVER;
    bool starved = false;
    for (int before = -1, in = q->request_head; in >= 0;) {
        const input_request *i = input_of(e, in);
        if (i->eligible > e->now) {
            if (i->eligible < soonest) soonest = i->eligible;
            before = in, in = i->next;
            continue;
        }
        if (e->credit && q->far[i->vc].credits < i->wire) { /* credits only grow as they settle */
            port_buffer *b = &q->far[i->vc];
            buffer_settle(b, q->latency, e->now);
            if (b->credits < i->wire) {
                starved = true;
                before = in, in = i->next;
                continue;
            }
        }
        if (before < 0) q->request_head = i->next;
        else input_of(e, before)->next = i->next;
        if (q->request_tail == in) q->request_tail = before;
        stall(q, false, e->now);
        engine_start(e, p, in);
        if (q->request_head >= 0) wake(e, p, q->free_at); /* the others wait at least for its tail */
        return;
    }
    stall(q, starved, e->now);
    for (int v = 0; starved && v < PORT_VCS; v++) {
        if (!(q->vcs_used >> v & 1)) continue; /* nothing to settle, no credit due */
        buffer_settle(&q->far[v], q->latency, e->now);
        net_time t = buffer_next_credit(&q->far[v], q->latency);
        if (t < soonest) soonest = t;
    }
    if (soonest != NET_TIME_NEVER) wake(e, p, soonest);
}

void arbitration_credit_due(engine *e, int p, port_buffer *b, net_time time)
{
    if (b->sender_stalled) wake(e, p, time + e->ports[p].latency);
}
