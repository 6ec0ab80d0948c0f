/* event_list.c — the calendar queue of pending events. */
#include "net/event_list.h"

#include <stdlib.h>

#include "util/memory.h"

#define BUCKET_BITS 14
#define BUCKETS (1 << BUCKET_BITS)
#define WORDS (BUCKETS / 64)

typedef struct event_heap event_heap;

void event_list_init(event_list *l, int slot_bits)
{
    *l = (event_list){.free = -1, .slot_bits = slot_bits};
    l->first = malloc(sizeof *l->first * BUCKETS);
    l->last = malloc(sizeof *l->last * BUCKETS);
    for (int b = 0; b < BUCKETS; b++) l->first[b] = l->last[b] = -1;
    l->occupied = calloc(WORDS, sizeof *l->occupied);
}

void event_list_free(event_list *l)
{
    free(l->nodes);
    free(l->first);
    free(l->last);
    free(l->occupied);
    free(l->current);
    free(l->later.nodes);
    *l = (event_list){0};
}

static inline bool earlier(const event_list *l, int32_t a, int32_t b)
{
    const event *x = &l->nodes[a].e, *y = &l->nodes[b].e;
    return x->time < y->time || (x->time == y->time && x->sequence < y->sequence);
}

static void heap_push(event_list *l, event_heap *h, int32_t n)
{
    if (h->count == h->capacity) h->nodes = grow_array(h->nodes, &h->capacity, h->count + 1, sizeof *h->nodes);
    int i = h->count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!earlier(l, n, h->nodes[parent])) break;
        h->nodes[i] = h->nodes[parent];
        i = parent;
    }
    h->nodes[i] = n;
}

static int32_t heap_pop(event_list *l, event_heap *h)
{
    int32_t top = h->nodes[0], last = h->nodes[--h->count];
    int i = 0, n = h->count;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && earlier(l, h->nodes[child + 1], h->nodes[child])) child++;
        if (!earlier(l, h->nodes[child], last)) break;
        h->nodes[i] = h->nodes[child];
        i = child;
    }
    if (n > 0) h->nodes[i] = last;
    return top;
}

static inline net_time slot_of(const event_list *l, net_time time)
{
    return time >> l->slot_bits << l->slot_bits;
}

static inline int bucket_of(const event_list *l, net_time time)
{
    return (int)((time >> l->slot_bits) & (BUCKETS - 1));
}

/* Node N among the current slot's events, after every event it does not
 * precede: mostly the last place (events come nearly in order). */
static void file_current(event_list *l, int32_t n)
{
    if (l->current_count == l->current_capacity)
        l->current = grow_array(l->current, &l->current_capacity, l->current_count + 1, sizeof *l->current);
    int i = l->current_count++;
    while (i > l->soonest && earlier(l, n, l->current[i - 1])) {
        l->current[i] = l->current[i - 1];
        i--;
    }
    l->current[i] = n;
}

/* Node N into the current slot, its slot's list, or the later heap. */
static void file(event_list *l, int32_t n)
{
    net_time time = l->nodes[n].e.time;
    if (slot_of(l, time) == l->window) file_current(l, n);
    else if (time - l->window < ((net_time)BUCKETS << l->slot_bits)) {
        int b = bucket_of(l, time);
        l->nodes[n].next = -1;
        if (l->last[b] < 0) l->first[b] = n;
        else l->nodes[l->last[b]].next = n;
        l->last[b] = n;
        l->occupied[b / 64] |= 1ULL << (b % 64);
    } else heap_push(l, &l->later, n);
}

void event_schedule(event_list *l, net_time time, int kind, int target)
{
    int32_t n = l->free;
    if (n >= 0) l->free = l->nodes[n].next;
    else {
        if (l->node_count == l->node_capacity)
            l->nodes = grow_array(l->nodes, &l->node_capacity, l->node_count + 1, sizeof *l->nodes);
        n = l->node_count++;
    }
    l->nodes[n].e = (event){time, l->scheduled++, kind, target};
    l->count++;
    file(l, n);
}

/* The first non-empty bucket after the current slot's, cyclically; -1 if none. */
static int next_bucket(const event_list *l)
{
    int start = (bucket_of(l, l->window) + 1) & (BUCKETS - 1), w = start / 64;
    uint64_t bits = l->occupied[w] & (~0ULL << (start % 64));
    for (int k = 0; k <= WORDS; k++) {
        if (bits) return (w * 64 + __builtin_ctzll(bits)) & (BUCKETS - 1);
        w = (w + 1) % WORDS;
        bits = l->occupied[w];
    }
    return -1;
}

/* The current slot is empty: make the next one with events current, unless
 * it starts after UNTIL (events may still be scheduled before it: the
 * calendar never starts after a time the engine can still schedule at). */
static bool next_slot(event_list *l, net_time until)
{
    int b = next_bucket(l);
    net_time start;
    if (b >= 0) start = l->window + ((net_time)((b - bucket_of(l, l->window)) & (BUCKETS - 1)) << l->slot_bits);
    else if (l->later.count) start = slot_of(l, l->nodes[l->later.nodes[0]].e.time);
    else return false;
    if (start > until) return false;
    l->window = start;
    l->soonest = l->current_count = 0;
    if (b >= 0) { /* the list, in the order scheduled: mostly in time order already */
        int32_t n = l->first[b];
        l->first[b] = l->last[b] = -1;
        l->occupied[b / 64] &= ~(1ULL << (b % 64));
        while (n >= 0) {
            int32_t next = l->nodes[n].next;
            file_current(l, n);
            n = next;
        }
    }
    while (l->later.count && l->nodes[l->later.nodes[0]].e.time - l->window < ((net_time)BUCKETS << l->slot_bits))
        file(l, heap_pop(l, &l->later));
    return true;
}

bool event_pop(event_list *l, net_time until, event *out)
{
    if (l->soonest == l->current_count && !next_slot(l, until)) return false;
    int32_t n = l->current[l->soonest];
    if (l->nodes[n].e.time > until) return false;
    l->soonest++;
    *out = l->nodes[n].e;
    l->nodes[n].next = l->free;
    l->free = n;
    l->count--;
    return true;
}
