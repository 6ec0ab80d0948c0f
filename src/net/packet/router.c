/* router.c — injection queues at ranks that route (router.h).  A queue's
 * waiting messages form a pairing heap (Fredman, Sedgewick, Sleator and
 * Tarjan, "The pairing heap: a new form of self-adjusting heap",
 * Algorithmica 1, 1986) threaded through the messages themselves: no
 * memory per queue beyond its root.  The least message sends next: the one
 * whose route is longest in time (`order: farthest`), then the one whose
 * turn came first.  Farthest first is Jackson's rule for one machine whose
 * jobs have delivery times (a packet's flight after it leaves): sending
 * them longest flight first minimizes the latest arrival (Jackson,
 * "Scheduling a production line to minimize maximum tardiness", 1955). */
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
    r->farthest = t->packet.router.order == INJECTION_FARTHEST;
    size_t count = (size_t)e->port_count * (size_t)r->queues + 1;
    r->sending = malloc(sizeof *r->sending * count);
    r->waiting = malloc(sizeof *r->waiting * count);
    r->turns = calloc(count, sizeof *r->turns);
    r->joins = calloc((size_t)e->port_count + 1, sizeof *r->joins);
    if (!r->sending || !r->waiting || !r->turns || !r->joins) out_of_memory();
    for (size_t k = 0; k < count; k++) r->sending[k] = r->waiting[k] = -1;
}

void router_free(router_state *r)
{
    free(r->sending);
    free(r->waiting);
    free(r->turns);
    free(r->joins);
    *r = (router_state){0};
}

/* Whether message A sends before message B. */
static bool before(const message *a, const message *b)
{
    if (a->flight != b->flight) return a->flight > b->flight;
    return a->turn < b->turn;
}

/* The heap of roots A and B. */
static int meld(message *m, int a, int b)
{
    if (a < 0) return b;
    if (b < 0) return a;
    if (before(&m[b], &m[a])) {
        int swap = a;
        a = b;
        b = swap;
    }
    m[b].heap_sibling = m[a].heap_child;
    m[a].heap_child = b;
    return a;
}

/* The heap of ROOT's children (two passes: pairs left to right, then the
 * pairs melded right to left). */
static int meld_children(message *m, int root)
{
    int pairs = -1; /* melded pairs, the last first, through heap_sibling */
    for (int a = m[root].heap_child; a >= 0;) {
        int b = m[a].heap_sibling, next = b >= 0 ? m[b].heap_sibling : -1;
        m[a].heap_sibling = -1;
        if (b >= 0) m[b].heap_sibling = -1;
        int pair = meld(m, a, b);
        m[pair].heap_sibling = pairs;
        pairs = pair;
        a = next;
    }
    int heap = -1;
    while (pairs >= 0) {
        int next = m[pairs].heap_sibling;
        m[pairs].heap_sibling = -1;
        heap = meld(m, heap, pairs);
        pairs = next;
    }
    return heap;
}

/* Message SLOT waits in queue Q, its turn after every turn given there. */
static void wait_turn(engine *e, int slot, int q)
{
    message *m = &e->messages[slot];
    m->turn = e->router.turns[q]++;
    m->heap_child = m->heap_sibling = -1;
    e->router.waiting[q] = meld(e->messages, e->router.waiting[q], slot);
}

bool router_join(engine *e, int slot, int p)
{
    router_state *r = &e->router;
    int q = p * r->queues + (int)(r->joins[p]++ % (uint32_t)r->queues);
    message *m = &e->messages[slot];
    m->queue = q;
    m->flight = r->farthest ? e->routes.routes[m->route].flight : 0;
    if (r->sending[q] < 0) {
        r->sending[q] = slot;
        return true;
    }
    wait_turn(e, slot, q);
    return false;
}

int router_sent(engine *e, int slot)
{
    router_state *r = &e->router;
    int q = e->messages[slot].queue;
    if (e->messages[slot].unsent > 0) wait_turn(e, slot, q);
    int next = r->waiting[q];
    if (next >= 0) r->waiting[q] = meld_children(e->messages, next);
    return r->sending[q] = next;
}
