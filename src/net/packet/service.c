/* service.c — a port's service, as the engine runs it: inputs join the
 * queue of the port their head packet wants, a free port asks its
 * arbitration policy (arbitration.h) which to start and applies the
 * decision, and a port that cannot start one is woken when that may change:
 * its tail has left, a waiting head becomes eligible, or (stalled, all
 * eligible heads lacking credits) the next credit comes back. */
#include "net/packet/arbitration.h"
#include "net/packet/engine_internal.h"

/* Wake port P at T (earlier than any wake already due). */
static void wake(engine *e, int p, net_time t)
{
    port *q = &e->ports[p];
    if (t >= q->wake_at) return;
    q->wake_at = t;
    engine_schedule(e, t, EVENT_PORT, p);
}

void service_request(engine *e, int in, int p)
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
    else service_port(e, p);
}

/* Port Q (stalled or not; its far buffers FAR) starts or stops waiting
 * for credits at NOW; its buffers know, so that a credit wakes it. */
static void stall(port *q, port_buffer *far, bool stalled, net_time now)
{
    if (stalled == (q->stalled_since >= 0)) return;
    if (stalled) q->stalled_since = now;
    else {
        q->stalled += now - q->stalled_since;
        q->stalled_since = -1;
    }
    for_each_vc(v, q->vcs_used) far[v].sender_stalled = stalled;
}

/* When port Q (its far buffers FAR), starved, hears of its next credit. */
static net_time next_credit(port *q, port_buffer *far, net_time now)
{
    net_time soonest = NET_TIME_NEVER;
    for_each_vc(v, q->vcs_used) { /* the others: nothing to settle, no credit due */
        buffer_settle(&far[v], q->latency, now);
        net_time t = buffer_next_credit(&far[v], q->latency);
        if (t < soonest) soonest = t;
    }
    return soonest;
}

/* Port Q (P) starts nothing now (decision D): it waits for credits or pool
 * room when starved, and looks again when a head may become eligible. */
static void wait_for(engine *e, int p, arbitration_decision d)
{
    port *q = &e->ports[p];
    stall(q, port_far(e, p), d.starved, e->now);
    if (d.starved && q->pool >= 0 && !e->outputs.waiting[p - e->port_count]) { /* room may come from any queue */
        shared_pool *pool = &e->outputs.pools[q->pool];
        e->outputs.waiting[p - e->port_count] = 1;
        pool->waiting[pool->waiting_count++] = p;
    }
    net_time retry = d.retry;
    if (d.starved) {
        net_time credit = next_credit(q, port_far(e, p), e->now);
        if (credit < retry) retry = credit;
    }
    if (retry != NET_TIME_NEVER) wake(e, p, retry);
}

/* Start input IN on port P (Q), BEFORE standing ahead of it in P's queue. */
static void start(engine *e, int p, int in, int before)
{
    port *q = &e->ports[p];
    int32_t next = input_of(e, in)->next;
    if (before < 0) q->request_head = next;
    else input_of(e, before)->next = next;
    if (q->request_tail == in) q->request_tail = before;
    stall(q, port_far(e, p), false, e->now);
    engine_start(e, p, in);
}

/* Port P's arbitration: by its lanes' turns where its link has several. */
static inline arbitration_decision arbitrate(engine *e, int p)
{
    port *q = &e->ports[p];
    request_view requests = engine_requests(e);
    switch (e->policy ? e->policy[p] : PORT_ROUND_ROBIN) {
    case PORT_LANES: return arbitration_lanes(q, port_far(e, p), &e->lanes[p], &requests, e->credit, e->now);
    case PORT_TRANSIT:
    case PORT_AGE:
        return arbitration_transit_first(q, port_far(e, p), &requests, e->credit, e->policy[p] == PORT_AGE, e->now);
    case PORT_BUBBLE: return arbitration_bubble(q, port_far(e, p), &requests, e->credit, e->now);
    default: return arbitration_round_robin(q, port_far(e, p), &requests, e->credit, e->now);
    }
}

/* Start what arbitration decided (D) on port P. */
static void start_decided(engine *e, int p, arbitration_decision d)
{
    if (e->policy && e->policy[p] == PORT_LANES) lanes_served(&e->lanes[p], d.lane, e->t->packet.lane_weights);
    start(e, p, d.input, d.before);
}

/* Port P of voq switch S is free with requests: left out of the last
 * matching, it waits for its cell; else the switch matches its free outputs
 * by islip (islip.h) and starts the pairs; the outputs an input requested
 * and none took wait for the next cell. */
static void service_switch(engine *e, int s, int p)
{
    islip_state *st = e->islip;
    islip_switch *sw = &st->switches[s];
    if (sw->applying) return; /* an output freed while its matches start: the matching wakes it */
    if (e->now < st->gate[p]) {
        wake(e, p, st->gate[p]);
        return;
    }
    int matched = islip_match_switch(st, s, e->ports, e->buffers, engine_requests(e), e->credit, e->now, st->matches);
    sw->applying = true;
    net_time next = NET_TIME_NEVER;
    for (int m = 0; m < matched; m++) {
        islip_match x = st->matches[m];
        start(e, x.output, x.input, x.before);
        net_time crossbar = crossbar_free(engine_requests(e), x.input), free_at = e->ports[x.output].free_at;
        if (free_at < next) next = free_at;
        if (crossbar < next) next = crossbar;
    }
    sw->applying = false;
    const int32_t *outs = st->outputs + sw->first;
    for (int k = 0; k < sw->count; k++) {
        port *q = &e->ports[outs[k]];
        if (q->free_at <= e->now && st->requested[k] && matched) st->gate[outs[k]] = next; /* left out */
        if (q->request_head < 0) continue;
        net_time at = q->free_at > st->gate[outs[k]] ? q->free_at : st->gate[outs[k]];
        if (at > e->now) wake(e, outs[k], at);
        else wait_for(e, outs[k], arbitrate(e, outs[k]));
    }
}

void service_port(engine *e, int p)
{
    port *q = &e->ports[p];
    if (q->request_head < 0) return;
    if (q->free_at > e->now) {
        wake(e, p, q->free_at);
        return;
    }
    if (e->islip && e->islip->switch_of[p] >= 0) {
        service_switch(e, e->islip->switch_of[p], p);
        return;
    }
    if (q->request_head == q->request_tail && q->stalled_since < 0) {
        /* one head, not stalled: if it may not start yet, any policy would only say when it may (most
           wake-ups of a free port find a lone head still on its way: the arbitration is skipped) */
        net_time ready = request_ready(engine_requests(e), q->request_head, input_of(e, q->request_head));
        if (ready > e->now) {
            wake(e, p, ready);
            return;
        }
    }
    arbitration_decision d = arbitrate(e, p);
    if (d.input >= 0) {
        start_decided(e, p, d);
        if (q->request_head >= 0) wake(e, p, q->free_at); /* the others wait at least for its tail */
        return;
    }
    wait_for(e, p, d);
}

void service_credit_due(engine *e, int p, port_buffer *b, net_time time)
{
    if (b->sender_stalled) wake(e, p, time + e->ports[p].latency);
}

void service_pool_freed(engine *e, shared_pool *pool)
{
    for (int k = 0; k < pool->waiting_count; k++) {
        int p = pool->waiting[k];
        e->outputs.waiting[p - e->port_count] = 0;
        wake(e, p, e->now);
    }
    pool->waiting_count = 0;
}
