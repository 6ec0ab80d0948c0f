/* engine.c — the life of a packet: cut from its message at the source,
 * started on each port of its route (serialized, delayed by the link), held
 * in the next buffer until it may go on, and counted in at the destination;
 * and the event loop that drives it. */
#include "net/packet/engine_internal.h"

#include "net/packet/choose.h"
#include "net/packet/prefetch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"

enum { SPRAY_SALT = 11 }; /* a flow's first entropy: its ends hashed apart from every tier's ECMP salt */

/* Calendar slots of about 1/64 of the shortest full-packet time: few events
 * share a slot, and its 16,384 slots still span 256 packet times, beyond
 * any link's latency (event_list.h).  Any slot size orders events alike;
 * larger ones cost more sorting (1/8: a fifth more instructions a hop on the
 * permutation, and no faster on 512 torus groups), and prefetch_ahead sees
 * past a slot's end into the next bucket. */
static int calendar_slot_bits(const topology *t, const packet_params *params)
{
    double fastest = 0;
    for (int l = 0; l < t->link_count; l++)
        if (!t->links[l].latency_only && t->links[l].bandwidth_Bps > fastest) fastest = t->links[l].bandwidth_Bps;
    double slot = fastest > 0 ? packet_unit_wire_bytes(params) / fastest / 64 * NET_TIME_PER_SECOND : 1;
    int bits = slot >= 2 ? (int)floor(log2(slot)) : 1;
    return bits < 50 ? bits : 50;
}

/* Port P's far buffers, each of ROOM bytes (credits). */
static void init_buffers(engine *e, int p, int64_t room)
{
    for (int v = 0; v < 1 << e->vc_shift; v++) buffer_init(&port_far(e, p)[v], room);
}

/* Buffers kept per port: every lane's virtual channels, rounded up to a
 * power of two (an input's port is then a shift away). */
static int vc_shift_for(const topology *t, int route_vcs)
{
    int shift = 0;
    while (1 << shift < packet_max_lanes(&t->packet, t->tier_count) * route_vcs) shift++;
    return shift;
}

/* How each port arbitrates: by lanes where its link has several, transit
 * first where a rank that routes sends (router.h), else in turn. */
static void init_policies(engine *e)
{
    const topology *t = e->t;
    int router = !t->lattice ? PORT_ROUND_ROBIN : t->packet.router.transit == TRANSIT_PRIORITY ? PORT_TRANSIT
                 : t->packet.router.transit == TRANSIT_AGE ? PORT_AGE
                 : t->packet.router.transit == TRANSIT_BUBBLE ? PORT_BUBBLE : PORT_ROUND_ROBIN;
    if (!e->lanes && router == PORT_ROUND_ROBIN) return;
    e->policy = calloc((size_t)e->all_ports + 1, 1);
    if (!e->policy) out_of_memory();
    for (int p = 0; p < e->all_ports; p++)
        e->policy[p] = e->lanes && e->lanes[p].count > 1 ? PORT_LANES : p < e->port_count ? router : PORT_ROUND_ROBIN;
}

/* Crossbar port C (output_queue.h): no latency, its link's rate times the
 * speedup (at a shared switch, times its ports when more), and an output
 * queue of the switch's tier's room, or room from its pool. */
static void init_crossbar_port(engine *e, int c, double scale)
{
    const topology *t = e->t;
    int p = e->outputs.link_of[c - e->port_count], s = output_queue_switch(t, p), tier = t->switches[s].tier;
    bool shared = t->packet.architecture[tier] == SWITCH_SHARED;
    int64_t room = !e->credit ? 0 : shared ? INT64_MAX / 4 : llround(packet_output_buffer_bytes(t, tier) * scale);
    double speedup = t->packet.speedup, ports = e->outputs.switch_ports[s];
    if (shared && ports > speedup) speedup = ports;
    port_init(&e->ports[c], 0, (long double)t->links[p / 2].bandwidth_Bps * scale * speedup);
    init_buffers(e, c, room);
    if (shared) e->ports[c].pool = s;
    if (e->lanes) e->lanes[c] = e->lanes[p];
}

engine *engine_create(const topology *t, double scale)
{
    engine *e = calloc(1, sizeof *e);
    const packet_params *params = &t->packet;
    e->t = t;
    e->mtu = llround(packet_unit_bytes(params) * scale); /* the engine's packet: a unit (a train of packets) */
    e->packet_mtu = llround(params->mtu_bytes * scale);
    e->header = llround(params->header_bytes * scale);
    if (unit_wire(e, e->mtu) > UINT32_MAX) { /* packet_params.h and the executor's scale keep it under 2^32 */
        fprintf(stderr, "collsim: internal error: a packet of %lld scaled bytes\n", (long long)unit_wire(e, e->mtu));
        abort();
    }
    e->credit = params->flow_control == FLOW_CONTROL_CREDIT;
    e->store_and_forward = params->switching == SWITCHING_STORE_AND_FORWARD;
    e->routing = params->routing;
    e->spray_entropies = (unsigned)params->entropies;
    e->crossbar_scale = 1.0L / params->speedup;
    for (int k = 0; k < t->tier_count; k++) e->voq_switches |= params->architecture[k] == SWITCH_VOQ;
    e->voq_switches |= t->lattice && params->router.architecture == SWITCH_VOQ; /* ranks that route */
    e->adaptive_vc = t->lattice && e->routing == PACKET_ROUTING_ADAPTIVE ? topology_route_vcs(t) : -1;
    int adaptive_channels = e->adaptive_vc >= 0 ? router_adaptive_channels(params) : 0;
    e->route_vcs = topology_route_vcs(t) + adaptive_channels;
    e->vc_shift = vc_shift_for(t, e->route_vcs);
    e->beat = heartbeat_unread();
    e->port_count = 2 * t->link_count;
    output_queues_init(&e->outputs, t, scale);
    e->all_ports = e->port_count + e->outputs.count;
    e->message_inputs = e->all_ports << e->vc_shift;
    e->requests = malloc(sizeof *e->requests * (size_t)(e->message_inputs + 1)); /* messages' come as they grow */
    if (!e->requests) out_of_memory();
    arena_init(&e->memory);
    size_t ports = (size_t)(e->all_ports ? e->all_ports : 1);
    e->ports = arena_take(&e->memory, arena_log2(sizeof *e->ports * ports));
    e->buffers = arena_take(&e->memory, arena_log2(sizeof *e->buffers * (ports << e->vc_shift)));
    e->prefetch_further = (sizeof *e->ports + (sizeof *e->buffers << e->vc_shift)) * ports > PREFETCH_FAR_BYTES;
    if (packet_max_lanes(params, t->tier_count) > 1) {
        e->lanes = calloc(ports, sizeof *e->lanes);
        if (!e->lanes) out_of_memory();
    }
    int64_t buffer[TOPO_MAX_TIERS] = {0};
    for (int k = 0; k < t->tier_count && e->credit; k++) buffer[k] = llround(packet_buffer_bytes(t, k) * scale);
    e->crossbar_as_per_byte = malloc(sizeof *e->crossbar_as_per_byte * ports);
    if (!e->crossbar_as_per_byte) out_of_memory();
    for (int i = 0; i < e->port_count; i++) {
        const topo_link *link = &t->links[i / 2];
        if (link->latency_only) port_init(&e->ports[i], 0, 0);
        else port_init(&e->ports[i], net_time_from_seconds(link->latency_s), (long double)link->bandwidth_Bps * scale);
        e->crossbar_as_per_byte[i] = e->ports[i].as_per_byte * e->crossbar_scale;
        init_buffers(e, i, link->latency_only ? 0 : buffer[link->tier]);
        if (e->lanes) /* lane 0's turn first */
            e->lanes[i] = (port_lanes){(uint8_t)params->virtual_lanes[link->tier], 0, params->lane_weights[0]};
    }
    for (int c = e->port_count; c < e->all_ports; c++) init_crossbar_port(e, c, scale);
    init_policies(e);
    router_init(e);
    e->islip = islip_create(t, &e->outputs, e->all_ports, e->vc_shift);
    event_list_init(&e->events, calendar_slot_bits(t, params));
    route_table_init(&e->routes, t, e->routing != PACKET_ROUTING_ECMP, e->adaptive_vc, adaptive_channels);
    e->free_message = -1;
    return e;
}

void engine_free(engine *e)
{
    if (!e) return;
    arena_free(&e->memory);
    event_list_free(&e->events);
    route_table_free(&e->routes);
    voq_table_free(&e->voqs);
    output_queues_free(&e->outputs);
    islip_free(e->islip);
    free(e->messages);
    free(e->requests);
    free(e->records);
    free(e->lanes);
    free(e->crossbar_as_per_byte);
    free(e->policy);
    router_free(&e->router);
    free(e->wakes);
    free(e->free_wakes);
    free(e);
}

void engine_on_delivery(engine *e, engine_delivery_fn fn, void *ctx)
{
    e->delivered = fn;
    e->delivered_ctx = ctx;
}

void engine_use_virtual_channels(engine *e, bool on)
{
    e->routes.datelines = on;
}

void engine_keep_idle_routes(engine *e, int alternatives)
{
    e->routes.keep_idle = alternatives;
}

void engine_use_escape(engine *e, bool on)
{
    if (on || e->adaptive_vc < 0) return;
    e->adaptive_vc = e->routes.adaptive_vc = -1;
    e->routes.adaptive_channels = 1;
    e->route_vcs = e->routes.route_vcs = topology_route_vcs(e->t);
}

void engine_shuffle_ties(engine *e, uint64_t seed)
{
    event_list_shuffle_ties(&e->events, seed);
}

void engine_keep_messages(engine *e, bool on)
{
    e->keep_records = on;
}

int engine_route(engine *e, int src, int dst, int lane, diag *d)
{
    int route = route_flow(&e->routes, src, dst, lane, d);
    if (route >= 0 && e->voq_switches) voq_assign(&e->voqs, &e->routes, e->t, e->vc_shift, route);
    return route;
}

/* Minimal adaptive routing's choice for a packet of WIRE bytes on ROUTE
 * at its open fork: the route it takes, whose hop there has its room
 * (taken now) unless it is the escape. */
static int choose_hop(engine *e, int route, int64_t wire)
{
    int count = route_choice_count(&e->routes, route);
    int pick = choose_minimal(&e->routes, e->ports, e->buffers, e->vc_shift, engine_requests(e), e->now, route, count,
                              wire, e->credit);
    if (pick < count) {
        const route_option *o = &route_options(&e->routes, route)[pick];
        port_far(e, o->port)[o->vc].credits -= wire;
    }
    return route_alternative(&e->routes, route, pick);
}

/* The message in SLOT offers its next packet to its route's first port
 * (at a fork there, minimal adaptive routing's choice for that packet). */
static void offer_message(engine *e, int slot)
{
    message *m = &e->messages[slot];
    int64_t wire = unit_wire(e, m->unsent < e->mtu ? m->unsent : e->mtu);
    m->packet_route = m->route;
    if (e->adaptive_vc >= 0) {
        const route_branch *branch = route_open_branch(&e->routes, m->route, 0);
        if (branch) {
            m->packet_route = choose_hop(e, m->route, wire);
            route_hold(&e->routes, m->packet_route); /* the message's, then its packet's (cut_packet) */
            if (e->voq_switches) voq_assign(&e->voqs, &e->routes, e->t, e->vc_shift, m->packet_route);
        }
    }
    const net_route *r = &e->routes.routes[m->packet_route];
    const route_stage *s = &e->routes.stages[r->first + r->entry];
    int in = e->message_inputs + slot;
    input_request *i = &e->requests[in];
    i->vc = s->vc;
    i->wire = (uint32_t)wire;
    i->born = 0; /* never compared: see input_request */
    i->eligible = m->ready > e->now ? m->ready : e->now;
    service_request(e, in, s->port);
}

/* Packet X meets BRANCH, a fork of its route: it takes the alternative
 * spray or adaptive routing chooses, from its stage at the fork. */
static void take_fork(engine *e, packet *x, route_branch branch)
{
    int route = e->routes.stages[x->at].route, chosen;
    if (e->adaptive_vc >= 0) chosen = choose_hop(e, route, x->wire_bytes);
    else if (e->routing == PACKET_ROUTING_SPRAY)
        chosen = choose_spray(&e->routes, route, e->messages[x->message].spray_turn++ % e->spray_entropies);
    else {
        int pick = choose_adaptive(&e->routes, e->ports, e->buffers, e->vc_shift, engine_requests(e), e->now, route,
                                   branch);
        chosen = route_alternative(&e->routes, route, pick); /* may grow the table: before reading it */
    }
    if (e->voq_switches) voq_assign(&e->voqs, &e->routes, e->t, e->vc_shift, chosen);
    route_hold(&e->routes, chosen);
    route_release(&e->routes, route); /* the packet leaves it */
    x->at = e->routes.routes[chosen].first + e->routes.routes[chosen].entry;
}

/* Buffer input IN's head packet (a new head) offers itself to its next port;
 * at a fork of spray or adaptive routing it first waits to be there. */
static void offer_head(engine *e, int in)
{
    port_buffer *b = input_buffer(e, in);
    packet *x = packet_queue_front(&b->queue);
    const route_branch *branch = NULL;
    if (e->routes.keep_branches) { /* spray, adaptive */
        int route = e->routes.stages[x->at].route;
        branch = route_open_branch(&e->routes, route, x->at - e->routes.routes[route].first);
    }
    if (branch) {
        if (x->eligible > e->now) {
            engine_schedule(e, x->eligible, EVENT_FORK, in);
            return;
        }
        take_fork(e, x, *branch);
    }
    const route_stage *s = &e->routes.stages[x->at];
    input_request *i = &e->requests[in];
    i->vc = s->vc;
    i->wire = x->wire_bytes;
    i->born = x->born;
    net_time crossbar = crossbar_ready(&b->crossbar);
    i->eligible = x->eligible > crossbar ? x->eligible : crossbar;
    service_request(e, in, port_toward(e, s->port, in));
}

/* Virtual output queue V's head packet (a new head) offers itself to its
 * output, once its buffer's crossbar is free (arbitration checks it again:
 * another queue of the buffer may cross first). */
static void offer_queue_head(engine *e, int v)
{
    voq_entry *q = &e->voqs.entries[v];
    const packet *x = packet_queue_front(&q->queue);
    const route_stage *s = &e->routes.stages[x->at];
    net_time crossbar = crossbar_ready(&input_buffer(e, q->buffer)->crossbar);
    input_request *i = &q->request;
    i->vc = s->vc;
    i->wire = x->wire_bytes;
    i->born = x->born;
    i->eligible = x->eligible > crossbar ? x->eligible : crossbar;
    service_request(e, VOQ_INPUT_BASE + v, port_toward(e, s->port, VOQ_INPUT_BASE + v));
}

int engine_send(engine *e, int route, int64_t bytes, net_time posted, void *cookie)
{
    int slot = e->free_message;
    if (slot >= 0) e->free_message = e->messages[slot].next_free;
    else {
        if (e->message_count == e->message_capacity) {
            e->messages = grow_array(e->messages, &e->message_capacity, e->message_count + 1, sizeof *e->messages);
            size_t room;
            if (!array_bytes((size_t)e->message_inputs + (size_t)e->message_capacity, sizeof *e->requests, &room))
                out_of_memory();
            e->requests = realloc(e->requests, room);
            if (!e->requests) out_of_memory();
        }
        slot = e->message_count++;
    }
    const net_route *r = &e->routes.routes[route];
    int record = -1;
    if (e->keep_records) {
        if (e->record_count == e->record_capacity)
            e->records = grow_array(e->records, &e->record_capacity, e->record_count + 1, sizeof *e->records);
        e->records[record = e->record_count++] = (message_record){posted, e->now, -1, r->src, r->dst, bytes};
    }
    e->messages[slot] = (message){.route = route, .record = record, .unsent = bytes, .next_free = -1,
                                  .ready = e->now + e->routes.stages[r->first].delay, .arrival = e->now,
                                  .tail_delay = r->tail_delay, .cookie = cookie,
                                  .queue = -1, .heap_child = -1, .heap_sibling = -1,
                                  .spray_turn = e->routing == PACKET_ROUTING_SPRAY ? ecmp_hash(r->src, r->dst, SPRAY_SALT) : 0};
    e->in_flight++;
    e->counters.messages++;
    if (!e->router.queues || router_join(e, slot, e->routes.stages[r->first].port)) offer_message(e, slot);
    return record;
}

/* Cut the next packet of the message in SLOT. */
static packet cut_packet(engine *e, int slot)
{
    message *m = &e->messages[slot];
    int64_t payload = m->unsent < e->mtu ? m->unsent : e->mtu;
    m->unsent -= payload;
    m->outstanding++;
    e->counters.packets++;
    if (++e->live_packets > e->counters.peak_packets) e->counters.peak_packets = e->live_packets;
    return (packet){.eligible = e->now, .tail_ready = e->now, .wire_bytes = (uint32_t)unit_wire(e, payload),
                    .born = (uint32_t)e->counters.packets, .message = slot,
                    .at = e->routes.routes[m->packet_route].first + e->routes.routes[m->packet_route].entry};
}

/* Packet X has started its last hop on P, ending at END: the destination
 * takes it whole as its tail arrives. */
static void arrive(engine *e, port *p, port_buffer *far, const packet *x, net_time end)
{
    net_time tail = end + p->latency;
    buffer_leaves(far, tail, x->wire_bytes, &e->memory);
    message *m = &e->messages[x->message];
    int route = e->routes.stages[x->at].route; /* its message's, unless spray or adaptive routing chose */
    net_time arrival = tail + (route == m->route ? m->tail_delay : e->routes.routes[route].tail_delay);
    if (route != m->route) route_release(&e->routes, route); /* a flow's route lives for the run: its line unread */
    if (arrival > m->arrival) m->arrival = arrival;
    m->outstanding--;
    if (m->unsent == 0 && m->outstanding == 0) engine_schedule(e, m->arrival, EVENT_DELIVERED, x->message);
    e->live_packets--;
}

/* Packet X enters a buffer of a voq switch: at a fork it chooses its
 * output now (its queue is the output's), and it joins that output's
 * queue.  False when the buffer is not at a switch (a FIFO, at a rank). */
static bool enqueue_at_switch(engine *e, packet *x)
{
    if (e->routes.keep_branches) {
        int route = e->routes.stages[x->at].route;
        const route_branch *branch = route_open_branch(&e->routes, route, x->at - e->routes.routes[route].first);
        if (branch) take_fork(e, x, *branch);
    }
    int v = e->routes.stages[x->at].voq;
    if (v < 0) return false;
    packet_queue *q = &e->voqs.entries[v].queue;
    packet_queue_push(q, x, &e->memory);
    if (q->count == 1) offer_queue_head(e, v);
    return true;
}

/* Packet X, started on P now and ending at END, goes into P's far buffer
 * FAR (input TO); at the head of it, it asks for its next port. */
static void forward(engine *e, port *p, port_buffer *far, int to, packet *x, net_time end)
{
    x->at++;
    net_time crossbar = e->routes.stages[x->at].delay;
    x->tail_ready = end + p->latency + crossbar;
    x->eligible = e->store_and_forward ? x->tail_ready : e->now + p->latency + crossbar;
    if (e->voq_switches && enqueue_at_switch(e, x)) return;
    packet_queue_push(&far->queue, x, &e->memory);
    if (far->queue.count == 1) offer_head(e, to);
}

/* Packet X, started on crossbar port P now and crossing until END, goes
 * into P's output queue FAR (input TO), cut-through: it may leave as soon
 * as it starts crossing (output_queue.h). */
static void enter_output_queue(engine *e, port *p, port_buffer *far, int to, packet *x, net_time end)
{
    if (p->pool >= 0) {
        p->pool_queued += x->wire_bytes;
        e->outputs.pools[p->pool].used += x->wire_bytes;
    }
    x->eligible = e->now;
    x->tail_ready = end;
    packet_queue_push(&far->queue, x, &e->memory);
    if (far->queue.count == 1) offer_head(e, to);
}

void engine_start(engine *e, int pi, int in)
{
    port *p = &e->ports[pi];
    bool from_source = is_message_input(e, in);
    int vc = input_of(e, in)->vc, feeding = in; /* the buffer input it leaves */
    packet_queue *q = NULL;
    packet x;
    if (from_source) x = cut_packet(e, message_slot(e, in));
    else {
        if (is_voq_input(in)) {
            feeding = e->voqs.entries[in - VOQ_INPUT_BASE].buffer;
            q = &e->voqs.entries[in - VOQ_INPUT_BASE].queue;
        } else q = &input_buffer(e, in)->queue;
        x = *packet_queue_front(q);
        packet_queue_pop(q);
    }
    net_time end = port_transmit(p, e->now, x.wire_bytes, x.tail_ready);
    bool crossing = pi >= e->port_count; /* a crossbar port: into an output queue */
    /* a link sends no faster than the tail comes in; a crossbar port takes the next packet (another input's)
       once this one's bytes have crossed at its rate, whenever its tail comes */
    p->free_at = crossing ? p->serializing.formula_end : end;
    if (!crossing) e->counters.packet_hops++;
    if (!from_source) { /* its tail leaves the buffer it came from at END */
        port_buffer *from = input_buffer(e, feeding);
        port *feeder = &e->ports[input_port(e, feeding)];
        if (!is_output_queue(e, feeding)) /* the next crosses after it */
            busy_period_end(&from->crossbar, e->now, x.wire_bytes, e->crossbar_as_per_byte[input_port(e, feeding)]);
        else if (feeder->pool >= 0) { /* its room goes back to the pool */
            feeder->pool_queued -= x.wire_bytes;
            e->outputs.pools[feeder->pool].used -= x.wire_bytes;
            service_pool_freed(e, &e->outputs.pools[feeder->pool]);
        }
        buffer_leaves(from, end, x.wire_bytes, &e->memory);
        service_credit_due(e, input_port(e, feeding), from, end);
    }
    port_buffer *far = &port_far(e, pi)[vc];
    p->vcs_used |= 1u << vc;
    buffer_settle(far, p->latency, e->now);
    buffer_enter(far, e->now, x.wire_bytes, !adaptive_room_taken(e->adaptive_vc, e->route_vcs, vc));
    if (crossing) enter_output_queue(e, p, far, buffer_input(e, pi, vc), &x, end);
    else if (e->routes.stages[x.at].last) arrive(e, p, far, &x, end);
    else forward(e, p, far, buffer_input(e, pi, vc), &x, end);
    if (from_source) { /* the message offers its next packet */
        int slot = message_slot(e, in);
        if (e->messages[slot].queue >= 0) { /* its injection queue's next packet */
            int next = router_sent(e, slot);
            if (next >= 0) offer_message(e, next);
        } else if (e->messages[slot].unsent > 0) offer_message(e, slot);
        if (e->messages[slot].unsent == 0 && e->injected) e->injected(e->injected_ctx, e->messages[slot].cookie);
    } else if (is_voq_input(in)) { /* (its queue again: a fork taken in forward may have grown the table) */
        if (e->voqs.entries[in - VOQ_INPUT_BASE].queue.count > 0) offer_queue_head(e, in - VOQ_INPUT_BASE);
    } else if (q->count > 0) offer_head(e, in);
}

static void delivered(engine *e, int slot)
{
    message *m = &e->messages[slot];
    if (m->record >= 0) e->records[m->record].delivered = e->now;
    void *cookie = m->cookie;
    m->next_free = e->free_message;
    e->free_message = slot;
    e->in_flight--;
    if (e->delivered) e->delivered(e->delivered_ctx, cookie);
}

void engine_on_injected(engine *e, engine_delivery_fn fn, void *ctx)
{
    e->injected = fn;
    e->injected_ctx = ctx;
}

void engine_on_wake(engine *e, engine_delivery_fn fn, void *ctx)
{
    e->woke = fn;
    e->woke_ctx = ctx;
}

void engine_wake_at(engine *e, net_time time, void *cookie)
{
    int slot;
    if (e->free_wake_count > 0) slot = e->free_wakes[--e->free_wake_count];
    else {
        e->wakes = grow_array(e->wakes, &e->wake_capacity, e->wake_count + 1, sizeof *e->wakes);
        slot = e->wake_count++;
    }
    e->wakes[slot] = cookie;
    engine_schedule(e, time > e->now ? time : e->now, EVENT_WAKE, slot);
}

static void woke(engine *e, int slot)
{
    void *cookie = e->wakes[slot];
    e->wakes[slot] = NULL;
    e->free_wakes = grow_array(e->free_wakes, &e->free_wake_capacity, e->free_wake_count + 1, sizeof *e->free_wakes);
    e->free_wakes[e->free_wake_count++] = slot;
    if (e->woke) e->woke(e->woke_ctx, cookie);
}

static void process(engine *e, const event *ev)
{
    e->now = ev->time;
    if ((++e->counters.events & (ENGINE_BEAT_EVENTS - 1)) == 0) heartbeat_reach(e->beat, net_time_to_seconds(e->now));
    switch (ev->kind) {
    case EVENT_PORT:
        if (e->ports[ev->target].wake_at == ev->time) e->ports[ev->target].wake_at = NET_TIME_NEVER;
        service_port(e, ev->target);
        break;
    case EVENT_FORK: offer_head(e, ev->target); break;
    case EVENT_DELIVERED: delivered(e, ev->target); break;
    case EVENT_WAKE: woke(e, ev->target); break;
    default: break;
    }
}

bool engine_run_until(engine *e, net_time until)
{
    event ev;
    while (!e->failed && event_pop(&e->events, until, &ev)) {
        prefetch_ahead(e);
        process(e, &ev);
    }
    if (!e->failed && until != NET_TIME_NEVER && until > e->now) e->now = until;
    return !e->failed;
}

bool engine_run_to_delivery(engine *e, net_time limit, net_time *delivery)
{
    event ev;
    net_time bound = limit;
    *delivery = NET_TIME_NEVER;
    while (!e->failed && event_pop(&e->events, bound, &ev)) {
        prefetch_ahead(e);
        process(e, &ev);
        if (ev.kind == EVENT_DELIVERED || ev.kind == EVENT_WAKE) *delivery = bound = ev.time;
    }
    if (!e->failed && *delivery == NET_TIME_NEVER && limit != NET_TIME_NEVER && limit > e->now) e->now = limit;
    return !e->failed;
}

void engine_report_to(engine *e, heartbeat *beat)
{
    e->beat = beat;
}
