/* prefetch.h — the packet engine's prefetching (engine.c's event loop, and
 * prefetch.c's for callers that know their sends ahead): the cache lines
 * the next events will read, asked for a few events ahead. */
#ifndef COLLSIM_PREFETCH_H
#define COLLSIM_PREFETCH_H

#include "net/packet/engine_internal.h"

/* Cache lines the coming events will read, requested a few events ahead:
 * a packet-hop reads its port, the buffer of the input it serves (its head
 * packet, the next one, its departures' ring, and on its second line the
 * crossbar's busy period) or the message it cuts a packet from, the buffer
 * it fills (its ring's tail, and its departures due), its route stage and,
 * on its last hop, its message; each a miss when thousands of ports are
 * busy, each known only from the one before, so they are fetched in stages:
 * the port PREFETCH_PORT events ahead, the two buffers or the message
 * PREFETCH_BUFFERS ahead (the port is in by then), their rings and the
 * message's route PREFETCH_RINGS ahead, the stage and the message of the
 * head packet PREFETCH_STAGE ahead, and what its next hop touches (the
 * request it writes, the port it asks for, that port's far buffer)
 * PREFETCH_NEXT_PORT ahead.  Inlined by force: GCC takes a function of
 * loads and prefetches for pure and drops the call. */
enum { PREFETCH_PORT = 8, PREFETCH_BUFFERS = 5, PREFETCH_RINGS = 3, PREFETCH_STAGE = 2, PREFETCH_NEXT_PORT = 1 };

/* When the ports and their buffers take more than this, a miss costs more
 * and every stage is asked for an event further ahead, and the next hop's
 * lines too; below, those lines stay in the caches and the asking is all
 * cost (the engine alone on star-512: 1.2x CPU with the next hop; the
 * k = 16 fat-tree's 1.5 MB 1.15-1.2x with the stages further out). */
#define PREFETCH_FAR_BYTES ((size_t)8 << 20)

static inline __attribute__((always_inline)) void prefetch_lines(const void *p, int lines)
{
    for (int k = 0; k < lines; k++) __builtin_prefetch((const char *)p + 64 * k);
}

/* The departures of far buffer F that settling it reads first: the
 * oldest not yet returned as credits, the oldest not yet out of its
 * occupancy (a start settles it, and so does arbitration reading its
 * credits). */
static inline __attribute__((always_inline)) void prefetch_departures_due(const port_buffer *f)
{
    if (!f->leaves) return;
    __builtin_prefetch(buffer_leave(f, f->leave_first));
    __builtin_prefetch(buffer_leave(f, f->leave_applied));
}

/* Far buffer F that a packet fills: its departures due and its ring's tail. */
static inline __attribute__((always_inline)) void prefetch_far(const port_buffer *f)
{
    prefetch_departures_due(f);
    const packet_queue *r = &f->queue;
    if (r->capacity) __builtin_prefetch(&r->items[(r->first + r->count) & (r->capacity - 1)]);
}

/* A message (96 bytes: both lines it may straddle). */
static inline __attribute__((always_inline)) void prefetch_message(const message *m)
{
    __builtin_prefetch(m);
    __builtin_prefetch((const char *)(m + 1) - 1);
}

/* Route stage AT, which a hop reads, and the next, which a forward reads. */
static inline __attribute__((always_inline)) void prefetch_stages(const engine *e, int at)
{
    __builtin_prefetch(&e->routes.stages[at]);
    __builtin_prefetch(&e->routes.stages[at + 1]);
}

/* The route stage of the packet port P would start next (the head of the
 * first input waiting for it), -1 when none is known. */
static inline __attribute__((always_inline)) int head_stage(engine *e, int p)
{
    int in = e->ports[p].request_head;
    if (in < 0 || is_voq_input(in)) return -1;
    if (is_message_input(e, in)) {
        const net_route *r = &e->routes.routes[e->messages[message_slot(e, in)].packet_route];
        return r->first + r->entry;
    }
    packet_queue *r = &input_buffer(e, in)->queue;
    return r->count ? packet_queue_front(r)->at : -1;
}

/* What the packet port P starts (at route stage AT) touches once it is in
 * the far buffer (engine.c's forward and enter_output_queue, then
 * offer_head): that input's request, the port it then asks for and the
 * buffer beyond that port.  The port: across a crossbar, the output's
 * link; over a link into a switch, the crossbar port toward its next
 * stage's link; else that link. */
static inline __attribute__((always_inline)) void prefetch_next_hop(engine *e, int p, int at)
{
    const route_stage *s = &e->routes.stages[at];
    __builtin_prefetch(&e->requests[buffer_input(e, p, s->vc)]);
    int next = s->port, vc = s->vc;
    if (p < e->port_count) {
        if (s->last) return;
        next = s[1].port;
        vc = s[1].vc;
        if (e->outputs.crossbar_of && e->outputs.crossbar_of[next] >= 0) next = e->outputs.crossbar_of[next];
    }
    __builtin_prefetch(&e->ports[next]);
    __builtin_prefetch(&port_far(e, next)[vc]); /* which its arbitration settles, if it is free */
}

static inline __attribute__((always_inline)) void prefetch_ahead(engine *e)
{
    int further = e->prefetch_further;
    const event *ev = event_peek(&e->events, PREFETCH_PORT + further);
    if (ev && ev->kind == EVENT_PORT) prefetch_lines(&e->ports[ev->target], 2);
    if ((ev = event_peek(&e->events, PREFETCH_BUFFERS + further)) && ev->kind == EVENT_PORT) {
        const port *q = &e->ports[ev->target];
        int in = q->request_head;
        if (in >= 0 && !is_voq_input(in)) {
            __builtin_prefetch(&e->requests[in]);
            if (!is_message_input(e, in)) { /* and its crossbar's rate, by port */
                prefetch_lines(input_buffer(e, in), 2);
                if (input_port(e, in) < e->port_count) __builtin_prefetch(&e->crossbar_as_per_byte[input_port(e, in)]);
            } else prefetch_message(&e->messages[message_slot(e, in)]);
        } else if (in >= 0) { /* a virtual output queue: its request, its ring, its buffer's slot */
            __builtin_prefetch(&e->voqs.entries[in - VOQ_INPUT_BASE]);
        }
        prefetch_lines(port_far(e, ev->target), 2);
    }
    if ((ev = event_peek(&e->events, PREFETCH_RINGS + further)) && ev->kind == EVENT_PORT) {
        const port *q = &e->ports[ev->target];
        if (q->request_head >= 0 && is_voq_input(q->request_head)) {
            int v = q->request_head - VOQ_INPUT_BASE;
            const voq_entry *r = &e->voqs.entries[v];
            if (r->queue.count) __builtin_prefetch(&r->queue.items[r->queue.first]);
            prefetch_lines(input_buffer(e, r->buffer), 2);
            prefetch_departures_due(&port_far(e, ev->target)[r->request.vc]);
        } else if (q->request_head >= 0 && !is_message_input(e, q->request_head)) {
            const port_buffer *b = input_buffer(e, q->request_head);
            const packet_queue *r = &b->queue;
            if (r->count) {
                __builtin_prefetch(&r->items[r->first]);
                __builtin_prefetch(&r->items[(r->first + 1) & (r->capacity - 1)]);
            }
            if (b->leaves) { /* the newest departure, which the next is compared with, and the next's slot */
                __builtin_prefetch(buffer_leave(b, b->leave_end - 1));
                __builtin_prefetch(buffer_leave(b, b->leave_end));
            }
            prefetch_far(&port_far(e, ev->target)[e->requests[q->request_head].vc]);
        } else if (q->request_head >= 0) { /* a message at its source: the buffer it fills, its route */
            prefetch_far(&port_far(e, ev->target)[e->requests[q->request_head].vc]);
            __builtin_prefetch(&e->routes.routes[e->messages[message_slot(e, q->request_head)].packet_route]);
        }
    }
    if ((ev = event_peek(&e->events, PREFETCH_STAGE + further)) && ev->kind == EVENT_PORT) {
        int at = head_stage(e, ev->target), in = e->ports[ev->target].request_head;
        if (at >= 0) prefetch_stages(e, at);
        if (at >= 0 && !is_message_input(e, in)) /* and the head packet's message, which arrive reads */
            prefetch_message(&e->messages[packet_queue_front(&input_buffer(e, in)->queue)->message]);
    }
    if (further && (ev = event_peek(&e->events, PREFETCH_NEXT_PORT + further)) && ev->kind == EVENT_PORT) {
        int at = head_stage(e, ev->target);
        if (at >= 0) prefetch_next_hop(e, ev->target, at);
    }
}

#endif
