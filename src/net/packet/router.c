/* router.c — injection queues at ranks that route (router.h). */
#include "net/packet/router.h"

#include <stdlib.h>

#include "net/packet/engine_internal.h"
#include "util/memory.h"

void router_init(engine *e)
{
    const topology *t = e->t;
    router_state *r = &e->router;
    *r = (router_state){0};
    if (!t->lattice || t->packet.router.injection <= 0) return;
    r->queues = t->packet.router.injection;
    size_t count = (size_t)e->port_count * (size_t)r->queues + 1;
    r->head = malloc(sizeof *r->head * count);
    r->tail = malloc(sizeof *r->tail * count);
    r->turn = calloc((size_t)e->port_count + 1, sizeof *r->turn);
    if (!r->head || !r->tail || !r->turn) out_of_memory();
    for (size_t k = 0; k < count; k++) r->head[k] = r->tail[k] = -1;
}

void router_free(router_state *r)
{
    free(r->head);
    free(r->tail);
    free(r->turn);
    *r = (router_state){0};
}

bool router_join(engine *e, int slot, int p)
{
    router_state *r = &e->router;
    int q = p * r->queues + (int)(r->turn[p]++ % (uint32_t)r->queues);
    message *m = &e->messages[slot];
    m->queue = q;
    m->next_queued = -1;
    if (r->tail[q] >= 0) {
        e->messages[r->tail[q]].next_queued = slot;
        r->tail[q] = slot;
        return false;
    }
    r->head[q] = r->tail[q] = slot;
    return true;
}

int router_sent(engine *e, int slot)
{
    router_state *r = &e->router;
    message *m = &e->messages[slot];
    int q = m->queue, next = m->next_queued;
    if (next < 0) /* alone: it goes on, or the queue empties */
        return m->unsent > 0 ? slot : (r->head[q] = r->tail[q] = -1);
    r->head[q] = next;
    if (m->unsent > 0) { /* to the back */
        e->messages[r->tail[q]].next_queued = slot;
        r->tail[q] = slot;
        m->next_queued = -1;
    }
    return next;
}
