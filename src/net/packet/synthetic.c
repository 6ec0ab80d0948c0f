/* synthetic.c — open-loop sources on the packet engine.  Each source keeps
 * its packets in arrival order and hands the engine one message at a time,
 * the next as the one before leaves (engine_on_injected), so a backlog
 * waits here, not as thousands of inputs of the source's port.  Arrivals
 * are wake-ups of the engine, one pending per source.
 *
 * Invariants:
 *   1. A packet's id indexes packets[]; ids grow with arrivals (at
 *      saturation, with posts).
 *   2. A source has at most one message in the engine that has not left
 *      its source (posted); its pending ids form a list through next.
 *   3. Arrivals stop at the window's end; pending packets still go, so
 *      every packet that arrived while measured is delivered and timed. */
#include "net/packet/synthetic.h"

#include <math.h>
#include <stdlib.h>

#include "net/packet/engine.h"
#include "util/memory.h"
#include "util/shuffle.h"

typedef struct source_state {
    int32_t first, last; /* pending packets, oldest first, -1 when none */
    bool posted;         /* a message of it has not yet left the source */
} source_state;

typedef struct synthetic_packet {
    net_time arrival;
    int32_t sink, source, next; /* next: the source's next pending packet, -1 at the last */
} synthetic_packet;

typedef struct synthetic {
    engine *e;
    const synthetic_spec *spec;
    int *routes;          /* ports x ports: source k to sink j */
    int *permutation;     /* the permutation pattern's sink of each source */
    uint64_t random;
    int64_t bytes;
    net_time slot, window_start, window_end;
    bool saturated, generating;
    source_state *sources;
    synthetic_packet *packets; /* by id */
    int count, capacity;
    long delivered, arrived;
    double *delays_s;     /* of packets arrived while measured */
    int delay_count, delay_capacity;
} synthetic;

static double uniform01(synthetic *s)
{
    return (double)(random_next(&s->random) >> 11) * 0x1p-53;
}

static int uniform_below(synthetic *s, int n)
{
    return (int)(random_next(&s->random) % (uint64_t)n);
}

/* A sink for source K other than K unless self-traffic is allowed. */
static int uniform_sink(synthetic *s, int k)
{
    int n = s->spec->ports;
    if (s->spec->self_traffic) return uniform_below(s, n);
    int j = uniform_below(s, n - 1);
    return j >= k ? j + 1 : j;
}

static int draw_sink(synthetic *s, int k)
{
    const synthetic_spec *spec = s->spec;
    switch (spec->pattern) {
    case SYNTHETIC_PERMUTATION: return s->permutation[k];
    case SYNTHETIC_HOTSPOT:
        if (uniform01(s) < spec->hotspot_share && (spec->self_traffic || k != 0)) return 0;
        return uniform_sink(s, k);
    default: return uniform_sink(s, k);
    }
}

/* A new packet of source K arriving now: its id. */
static int new_packet(synthetic *s, int k)
{
    s->packets = grow_array(s->packets, &s->capacity, s->count + 1, sizeof *s->packets);
    int id = s->count++;
    net_time now = engine_now(s->e);
    s->packets[id] = (synthetic_packet){.arrival = now, .sink = draw_sink(s, k), .source = k, .next = -1};
    if (now >= s->window_start && now < s->window_end) s->arrived++;
    return id;
}

/* Source K hands the engine its oldest pending packet (a new one when backlogged). */
static void post(synthetic *s, int k)
{
    source_state *src = &s->sources[k];
    int id;
    if (src->first >= 0) {
        id = src->first;
        if ((src->first = s->packets[id].next) < 0) src->last = -1;
    } else if (s->saturated && s->generating) id = new_packet(s, k);
    else return;
    src->posted = true;
    int route = s->routes[k * s->spec->ports + s->packets[id].sink];
    engine_send(s->e, route, s->bytes, engine_now(s->e), (void *)(intptr_t)id);
}

/* Packet times until source K's next arrival. */
static double arrival_gap_slots(synthetic *s)
{
    double p = s->spec->load, u = 1 - uniform01(s); /* in (0, 1] */
    if (s->spec->arrivals == ARRIVALS_POISSON) return -log(u) / p;
    return floor(log(u) / log1p(-p)) + 1; /* geometric: the next slot with an arrival */
}

static void schedule_arrival(synthetic *s, int k, net_time after)
{
    net_time at = after + (net_time)llround(arrival_gap_slots(s) * (double)s->slot);
    if (at < s->window_end) engine_wake_at(s->e, at, (void *)(intptr_t)k);
}

static void arrived(void *ctx, void *cookie)
{
    synthetic *s = ctx;
    int k = (int)(intptr_t)cookie, id = new_packet(s, k);
    source_state *src = &s->sources[k];
    if (src->last >= 0) s->packets[src->last].next = id;
    else src->first = id;
    src->last = id;
    if (!src->posted) post(s, k);
    schedule_arrival(s, k, engine_now(s->e));
}

static void left_source(void *ctx, void *cookie)
{
    synthetic *s = ctx;
    int k = s->packets[(intptr_t)cookie].source;
    s->sources[k].posted = false;
    post(s, k);
}

static void delivered(void *ctx, void *cookie)
{
    synthetic *s = ctx;
    int id = (int)(intptr_t)cookie;
    net_time now = engine_now(s->e), arrival = s->packets[id].arrival;
    if (now >= s->window_start && now < s->window_end) s->delivered++;
    if (s->saturated || arrival < s->window_start || arrival >= s->window_end) return;
    s->delays_s = grow_array(s->delays_s, &s->delay_capacity, s->delay_count + 1, sizeof *s->delays_s);
    s->delays_s[s->delay_count++] = net_time_to_seconds(now - arrival);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bool check_spec(const topology *t, const synthetic_spec *spec, diag *d)
{
    if (spec->ports < 2) return diag_fail(d, "synthetic traffic needs at least 2 ports, not %d", spec->ports);
    if (!(spec->load > 0)) return diag_fail(d, "synthetic traffic needs a load above 0, not %g", spec->load);
    if (!(spec->packet_bytes >= 1) || spec->packet_bytes > t->packet.mtu_bytes)
        return diag_fail(d, "synthetic packets of %g B: give 1 B to the mtu (%g B)", spec->packet_bytes,
                         t->packet.mtu_bytes);
    if (spec->slots < 1 || spec->warmup_slots < 0)
        return diag_fail(d, "synthetic traffic needs a window of packet times");
    return true;
}

/* Source 0's packet time: its first link's bandwidth. */
static bool packet_time(const topology *t, const synthetic_spec *spec, net_time *slot, diag *d)
{
    route_hop *hops = malloc(sizeof *hops * (size_t)(t->route_hops_max + 1));
    if (!hops) out_of_memory();
    int n = topology_route(t, spec->sources[0], spec->sinks[1], hops);
    double bandwidth = 0;
    for (int h = 0; h < n && bandwidth == 0; h++)
        if (hops[h].link >= 0 && !t->links[hops[h].link].latency_only) bandwidth = t->links[hops[h].link].bandwidth_Bps;
    free(hops);
    if (bandwidth <= 0)
        return diag_fail(d, "synthetic traffic: source %d has no link to serialize on", spec->sources[0]);
    *slot = net_time_from_seconds(spec->packet_bytes / bandwidth);
    return true;
}

static void summarize(synthetic *s, synthetic_result *out)
{
    const synthetic_spec *spec = s->spec;
    double slots = (double)spec->slots;
    *out = (synthetic_result){.throughput = (double)s->delivered / (spec->ports * slots),
                              .offered = s->saturated ? 1 : (double)s->arrived / (spec->ports * slots),
                              .slot_s = net_time_to_seconds(s->slot), .delivered = s->delivered};
    if (s->delay_count == 0) return;
    qsort(s->delays_s, (size_t)s->delay_count, sizeof *s->delays_s, by_value);
    double sum = 0;
    for (int i = 0; i < s->delay_count; i++) sum += s->delays_s[i];
    out->delay_mean_s = sum / s->delay_count;
    /* nearest rank ceil(p n) in integer arithmetic, as the per-message view (exec/op_times.h) */
    out->delay_p50_s = s->delays_s[(s->delay_count * 50L + 99) / 100 - 1];
    out->delay_p99_s = s->delays_s[(s->delay_count * 99L + 99) / 100 - 1];
    out->delay_max_s = s->delays_s[s->delay_count - 1];
}

static void synthetic_free(synthetic *s)
{
    engine_free(s->e);
    free(s->routes);
    free(s->permutation);
    free(s->sources);
    free(s->packets);
    free(s->delays_s);
}

/* Routes and the permutation; false with a message when a pair has no route. */
static bool prepare(synthetic *s, diag *d)
{
    const synthetic_spec *spec = s->spec;
    int n = spec->ports;
    s->routes = malloc(sizeof *s->routes * (size_t)n * (size_t)n);
    s->permutation = malloc(sizeof *s->permutation * (size_t)n);
    s->sources = malloc(sizeof *s->sources * (size_t)n);
    if (!s->routes || !s->permutation || !s->sources) out_of_memory();
    for (int k = 0; k < n; k++) {
        s->sources[k] = (source_state){-1, -1, false};
        for (int j = 0; j < n; j++) /* without self-traffic source k may be sink k's rank: no route, none needed */
            if (j == k && !spec->self_traffic) s->routes[k * n + j] = -1;
            else if ((s->routes[k * n + j] = engine_route(s->e, spec->sources[k], spec->sinks[j], 0, d)) < 0) return false;
    }
    if (spec->self_traffic) {
        for (int k = 0; k < n; k++) s->permutation[k] = k;
        random_shuffle(s->permutation, n, &s->random);
    } else random_derangement(n, random_next(&s->random), s->permutation);
    return true;
}

bool synthetic_run(const topology *t, const synthetic_spec *spec, synthetic_result *out, diag *d)
{
    synthetic s = {.spec = spec, .random = spec->seed, .bytes = llround(spec->packet_bytes),
                   .saturated = spec->load >= 1, .generating = true};
    if (!check_spec(t, spec, d) || !packet_time(t, spec, &s.slot, d)) return false;
    s.window_start = s.slot * spec->warmup_slots;
    s.window_end = s.window_start + s.slot * spec->slots;
    s.e = engine_create(t, 1.0);
    engine_on_injected(s.e, left_source, &s);
    engine_on_delivery(s.e, delivered, &s);
    engine_on_wake(s.e, arrived, &s);
    bool ok = prepare(&s, d);
    for (int k = 0; k < spec->ports && ok; k++) {
        if (s.saturated) post(&s, k);
        else /* Bernoulli's first slot is slot 0 */
            schedule_arrival(&s, k, spec->arrivals == ARRIVALS_BERNOULLI ? -s.slot : 0);
    }
    ok = ok && engine_run_until(s.e, s.window_end);
    s.generating = false;
    ok = ok && engine_run_until(s.e, NET_TIME_NEVER);
    if (ok && engine_in_flight(s.e) > 0)
        ok = diag_fail(d, "synthetic traffic deadlocked at %.9g s", net_time_to_seconds(engine_now(s.e)));
    else if (!ok && !d->set)
        diag_fail(d, "the packet model's clock passed its limit of 4.6 s of simulated time (docs/packet.md)");
    if (ok) summarize(&s, out);
    synthetic_free(&s);
    return ok;
}
