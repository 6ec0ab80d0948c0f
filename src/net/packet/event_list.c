/* event_list.c — the calendar queue of pending events. */
#include "net/packet/event_list.h"

#include <stdlib.h>

#include "util/memory.h"
#include "util/shuffle.h"

#define BUCKETS EVENT_BUCKETS
#define WORDS (BUCKETS / 64)

typedef struct event_heap event_heap;

void event_list_init(event_list *l, int slot_bits)
{
    *l = (event_list){.slot_bits = slot_bits, .free_chunk = -1, .peek_chunk = -1};
    arena_init(&l->memory);
    l->first = arena_take(&l->memory, arena_log2(sizeof *l->first * BUCKETS));
    l->last = arena_take(&l->memory, arena_log2(sizeof *l->last * BUCKETS));
    for (int b = 0; b < BUCKETS; b++) l->first[b] = l->last[b] = -1;
    l->occupied = arena_take(&l->memory, arena_log2(sizeof *l->occupied * WORDS));
    for (int w = 0; w < WORDS; w++) l->occupied[w] = 0;
}

void event_list_shuffle_ties(event_list *l, uint64_t seed)
{
    l->shuffled = true;
    l->seed = seed;
}

void event_list_free(event_list *l)
{
    free(l->current);
    free(l->spare);
    free(l->later.items);
    arena_free(&l->memory);
    *l = (event_list){0};
}

/* Where X goes among the events at its time under shuffled ties. */
static inline uint64_t tie_key(const event_list *l, const event *x)
{
    uint64_t state = l->seed ^ (uint64_t)x->time * 0x9E3779B97F4A7C15ull ^
                     ((uint64_t)(uint32_t)x->kind << 32 | (uint32_t)x->target) * 0xD1B54A32D192ED03ull;
    return random_next(&state);
}

/* A runs after B: later, or at B's time after it among shuffled ties (and
 * otherwise not: a tie stays in the order scheduled). */
static inline bool runs_after(const event_list *l, const event *a, const event *b)
{
    return a->time > b->time || (a->time == b->time && l->shuffled && tie_key(l, a) > tie_key(l, b));
}

static inline bool later_first(const event_later *a, const event_later *b)
{
    return a->e.time < b->e.time || (a->e.time == b->e.time && a->sequence < b->sequence);
}

static void heap_push(event_heap *h, event_later x)
{
    if (h->count == h->capacity) h->items = grow_array(h->items, &h->capacity, h->count + 1, sizeof *h->items);
    int i = h->count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!later_first(&x, &h->items[parent])) break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = x;
}

static event heap_pop(event_heap *h)
{
    event top = h->items[0].e;
    event_later last = h->items[--h->count];
    int i = 0, n = h->count;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && later_first(&h->items[child + 1], &h->items[child])) child++;
        if (!later_first(&h->items[child], &last)) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n > 0) h->items[i] = last;
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

static inline bool within_calendar(const event_list *l, net_time time)
{
    return time - l->window < ((net_time)BUCKETS << l->slot_bits);
}

/* X among the current slot's events, after every event not later: it is
 * the newest (mostly the last place: events come nearly in order). */
static void file_current(event_list *l, event x)
{
    if (l->current_count == l->current_capacity)
        l->current = grow_array(l->current, &l->current_capacity, l->current_count + 1, sizeof *l->current);
    int i = l->current_count++;
    while (i > l->soonest && runs_after(l, &l->current[i - 1], &x)) {
        l->current[i] = l->current[i - 1];
        i--;
    }
    l->current[i] = x;
}

/* Twice the room for chunks (from 1,024). */
static void grow_chunks(event_list *l)
{
    int capacity = grow_ring_capacity(l->chunk_capacity, 1024);
    event_chunk *chunks = arena_take(&l->memory, arena_log2(sizeof *chunks * (size_t)capacity));
    for (int c = 0; c < l->chunk_count; c++) chunks[c] = l->chunks[c];
    if (l->chunks) arena_give(&l->memory, l->chunks, arena_log2(sizeof *chunks * (size_t)l->chunk_capacity));
    l->chunks = chunks;
    l->chunk_capacity = capacity;
}

/* X at the end of its bucket B. */
static void file_bucket(event_list *l, int b, event x)
{
    int32_t c = l->last[b];
    if (c < 0 || l->chunks[c].count == EVENT_CHUNK) {
        int32_t fresh = l->free_chunk;
        if (fresh >= 0) l->free_chunk = l->chunks[fresh].next;
        else {
            if (l->chunk_count == l->chunk_capacity) grow_chunks(l);
            fresh = l->chunk_count++;
        }
        l->chunks[fresh].next = -1;
        l->chunks[fresh].count = 0;
        if (c < 0) {
            l->first[b] = fresh;
            l->occupied[b / 64] |= 1ULL << (b % 64);
        } else l->chunks[c].next = fresh;
        l->last[b] = c = fresh;
    }
    event_chunk *k = &l->chunks[c];
    k->items[k->count++] = x;
}

void event_file(event_list *l, event x)
{
    if (slot_of(l, x.time) == l->window) file_current(l, x);
    else if (within_calendar(l, x.time)) file_bucket(l, bucket_of(l, x.time), x);
    else heap_push(&l->later, (event_later){x, l->scheduled});
    l->scheduled++;
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

/* Bucket B's events at the end of the current slot's, in the order scheduled. */
static void drain_bucket(event_list *l, int b)
{
    for (int32_t c = l->first[b]; c >= 0;) {
        event_chunk *k = &l->chunks[c];
        if (l->current_count + k->count > l->current_capacity)
            l->current = grow_array(l->current, &l->current_capacity, l->current_count + k->count, sizeof *l->current);
        for (int i = 0; i < k->count; i++) l->current[l->current_count++] = k->items[i];
        int32_t next = k->next;
        k->next = l->free_chunk;
        l->free_chunk = c;
        c = next;
    }
    l->first[b] = l->last[b] = -1;
    l->occupied[b / 64] &= ~(1ULL << (b % 64));
}

/* A slot of more than COUNTING_EVENTS events whose times lie within
 * COUNTING_SPREAD attoseconds is sorted by counting. */
enum { COUNTING_EVENTS = 16, COUNTING_SPREAD = 256 };

/* The current slot's events sorted on time, stably, into the spare array
 * (which then becomes current) by counting: they lie within SPREAD
 * attoseconds of LOW. */
static void counting_sort(event_list *l, net_time low, int spread)
{
    int starts[COUNTING_SPREAD + 1]; /* by time - low: where its first event goes (after counting: one past) */
    for (int k = 0; k <= spread; k++) starts[k] = 0;
    for (int i = 0; i < l->current_count; i++) starts[l->current[i].time - low + 1]++;
    for (int k = 1; k <= spread; k++) starts[k] += starts[k - 1];
    if (l->spare_capacity < l->current_count)
        l->spare = grow_array(l->spare, &l->spare_capacity, l->current_count, sizeof *l->spare);
    for (int i = 0; i < l->current_count; i++) l->spare[starts[l->current[i].time - low]++] = l->current[i];
    event *sorted = l->spare;
    int capacity = l->spare_capacity;
    l->spare = l->current;
    l->spare_capacity = l->current_capacity;
    l->current = sorted;
    l->current_capacity = capacity;
}

/* The current slot's events sorted on time, stably.  Insertion, as they
 * come mostly in order; but a busy slot's events are often many ports'
 * packet times in step, a few attoseconds apart (each busy period rounds
 * on its own), in the order scheduled: far from sorted (insertion moves
 * each past a dozen others, mispredicting as it stops) over few distinct
 * times, which counting places in two passes.  Shuffled ties order by more
 * than the time: insertion. */
static void sort_current(event_list *l)
{
    if (l->current_count < 2) return;
    event *current = l->current;
    net_time low = current[0].time, high = low;
    for (int i = 1; i < l->current_count; i++) {
        if (current[i].time < low) low = current[i].time;
        if (current[i].time > high) high = current[i].time;
    }
    if (!l->shuffled && l->current_count > COUNTING_EVENTS && high - low < COUNTING_SPREAD) {
        counting_sort(l, low, (int)(high - low) + 1);
        return;
    }
    for (int i = 1; i < l->current_count; i++) {
        event x = current[i];
        int j = i;
        while (j > 0 && runs_after(l, &current[j - 1], &x)) {
            current[j] = current[j - 1];
            j--;
        }
        current[j] = x;
    }
}

/* The next slot with events becomes current, unless it starts after UNTIL
 * (events may still be scheduled before it: the calendar never starts after
 * a time the engine can still schedule at).
 * The heap's events that come within the calendar's span go first, to the
 * current slot or their buckets: they are older than any event scheduled
 * there since (those could be scheduled only once the span reached them). */
bool event_next_slot(event_list *l, net_time until)
{
    int b = next_bucket(l);
    net_time start;
    if (b >= 0) start = l->window + ((net_time)((b - bucket_of(l, l->window)) & (BUCKETS - 1)) << l->slot_bits);
    else if (l->later.count) start = slot_of(l, l->later.items[0].e.time);
    else return false;
    if (start > until) return false;
    l->window = start;
    l->soonest = l->current_count = 0;
    while (l->later.count && within_calendar(l, l->later.items[0].e.time)) {
        event x = heap_pop(&l->later);
        if (slot_of(l, x.time) == l->window) file_current(l, x); /* the heap pops them in order */
        else file_bucket(l, bucket_of(l, x.time), x);
    }
    if (b >= 0) drain_bucket(l, b);
    sort_current(l);
    b = next_bucket(l);
    l->peek_chunk = b >= 0 ? l->first[b] : -1;
    return true;
}
