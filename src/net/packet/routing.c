/* routing.c — compiling platform routes into port stages, and the
 * alternatives at equal-cost forks, kept once for every packet whose
 * remaining path is the same (routing.h's invariants). */
#include "net/packet/routing.h"

#include <stdlib.h>
#include <string.h>

#include "net/packet/lanes.h"
#include "util/memory.h"

/* Where a compiled route's kept part lies: from START (the hop into the
 * node of fork AT, or the source when AT is -1) to END (its open fork's
 * stage included, or the destination); a packet enters it at START +
 * ENTRY; OPEN is the index of its open fork among the compiled route's
 * forks, -1 when none. */
typedef struct suffix {
    int at, start, entry, end, open;
} suffix;

static void compiled_init(route_compiled *x, const topology *t)
{
    size_t hops = (size_t)(t->route_hops_max > 0 ? t->route_hops_max : 1);
    *x = (route_compiled){.stages = malloc(sizeof *x->stages * hops)};
    if (!x->stages) out_of_memory();
}

void route_table_init(route_table *r, const topology *t, bool keep_branches, int adaptive_vc, int adaptive_channels)
{
    *r = (route_table){.t = t, .keep_branches = keep_branches, .datelines = true, .adaptive_vc = adaptive_vc,
                       .adaptive_channels = adaptive_vc >= 0 ? adaptive_channels : 1,
                       .route_vcs = topology_route_vcs(t) + (adaptive_vc >= 0 ? adaptive_channels : 0),
                       .hops = route_buffer(t), .free_route = -1, .keep_idle = ROUTE_KEEP_IDLE};
    for (int k = 0; k < ROUTE_BLOCK_CLASSES; k++) r->free_stages[k] = r->free_options[k] = -1;
    compiled_init(&r->scratch[0], t);
    compiled_init(&r->scratch[1], t);
}

void route_table_free(route_table *r)
{
    free(r->routes);
    free(r->stages);
    free(r->options);
    free(r->shared);
    free(r->history);
    free(r->hops);
    free(r->scratch[0].stages);
    free(r->scratch[1].stages);
    *r = (route_table){0};
}

/* The virtual channel a hop onto LINK on routing channel VC fills, for
 * traffic of LANE. */
static int16_t hop_vc(const route_table *r, const topo_link *link, int vc, int lane)
{
    int lanes = r->t->packet.virtual_lanes[link->tier];
    bool adaptive = r->adaptive_vc >= 0 && vc >= r->adaptive_vc;
    return (int16_t)(lane_on_link(lane, lanes) * r->route_vcs + (r->datelines || adaptive ? vc : 0));
}

int route_compile(route_table *r, int src, int dst, int lane, route_choices *c, int decided, int channel,
                  route_compiled *out)
{
    const topology *t = r->t;
    route_hop *hops = r->hops;
    int count = topology_route_choices(t, src, dst, c, hops);
    out->count = 0;
    out->choices = *c;
    if (count <= 0) return -1;
    int adaptive_hop = channel >= 0 && decided > 0 && r->adaptive_vc >= 0 ? c->forks[decided - 1].hop : -1;
    int fork = 0;
    net_time delay = 0, flight = 0;
    for (int h = 0; h < count; h++) {
        const topo_link *link = &t->links[hops[h].link];
        for (; fork < c->fork_count && c->forks[fork].hop == h; fork++) out->fork_stage[fork] = out->count;
        delay += net_time_from_seconds(link->latency_s) * link->latency_only;
        if (link->latency_only) continue;
        out->stages[out->count++] = (route_stage){
            .delay = delay, .port = 2 * hops[h].link + hops[h].down, .route = -1,
            .vc = hop_vc(r, link, h == adaptive_hop ? r->adaptive_vc + channel : hops[h].vc, lane), .voq = -1};
        flight += delay + net_time_from_seconds(link->latency_s);
        delay = 0;
    }
    for (; fork < c->fork_count; fork++) out->fork_stage[fork] = out->count;
    if (out->count > 0) out->stages[out->count - 1].last = true;
    out->tail_delay = delay;
    out->flight = flight + delay;
    return out->count;
}

/* The part of X kept for a packet at fork AT (-1: a flow's route, from its
 * source), up to fork OPEN (-1: to the destination). */
static suffix suffix_of(const route_compiled *x, int at, int open)
{
    int fork = at >= 0 ? x->fork_stage[at] : 0, start = fork > 0 ? fork - 1 : 0;
    return (suffix){at, start, fork - start, open >= 0 ? x->fork_stage[open] + 1 : x->count, open};
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdu;
}

/* A hash of what invariant 1 compares: X's stages from S's start to the
 * destination, its forks from S's open one, LANE and S's entry. */
static uint32_t content_hash(const route_compiled *x, suffix s, int lane)
{
    uint64_t h = mix(mix(mix((uint64_t)lane, (uint64_t)s.entry), (uint64_t)x->tail_delay), (uint64_t)(s.open >= 0));
    for (int k = s.start; k < x->count; k++) {
        const route_stage *g = &x->stages[k];
        h = mix(mix(mix(h, (uint64_t)g->port), (uint64_t)g->vc), (uint64_t)g->delay);
    }
    for (int k = s.open; k >= 0 && k < x->choices.fork_count; k++)
        h = mix(mix(mix(h, (uint64_t)(x->fork_stage[k] - s.start)), (uint64_t)x->choices.forks[k].count),
                (uint64_t)x->choices.forks[k].node);
    return (uint32_t)(h >> 32);
}

static bool same_stage(const route_stage *a, const route_stage *b)
{
    return a->port == b->port && a->vc == b->vc && a->delay == b->delay && a->last == b->last;
}

/* Whether compiled X (kept as S) and Y (kept as T) leave their packets the
 * same path: stages, forks, tail, entry. */
static bool same_suffix(const route_compiled *x, suffix s, const route_compiled *y, suffix t)
{
    if (x->count - s.start != y->count - t.start || s.entry != t.entry || x->tail_delay != y->tail_delay ||
        (s.open < 0) != (t.open < 0))
        return false;
    for (int k = 0; k < x->count - s.start; k++)
        if (!same_stage(&x->stages[s.start + k], &y->stages[t.start + k])) return false;
    if (s.open < 0) return true;
    if (x->choices.fork_count - s.open != y->choices.fork_count - t.open) return false;
    for (int k = 0; k < x->choices.fork_count - s.open; k++) {
        const route_fork *f = &x->choices.forks[s.open + k], *g = &y->choices.forks[t.open + k];
        if (x->fork_stage[s.open + k] - s.start != y->fork_stage[t.open + k] - t.start || f->count != g->count ||
            f->node != g->node)
            return false;
    }
    return true;
}

/* The choices of ROUTE's history: its first packet's at each fork it
 * decided (invariant 2). */
static void history(const route_table *r, int route, route_choices *c)
{
    route_choices_init(c);
    const int8_t *h = &r->history[(size_t)route * ROUTE_MAX_FORKS];
    for (int k = 0; k < r->routes[route].decided; k++) c->choice[k] = h[k];
}

/* The class of a block of COUNT items: the least power of two holding them. */
static int block_class(int count)
{
    int c = 0;
    while (1 << c < count) c++;
    return c;
}

/* A block of 2^CLASS items of STRIDE bytes from the free list FREE
 * (linked through the first four bytes of each free block), else
 * appended to *ARRAY of *COUNT items. */
static int take_block(void **array, int *count, int *capacity, size_t stride, int *free, int class)
{
    int first = free[class];
    if (first >= 0) {
        free[class] = *(int32_t *)((char *)*array + (size_t)first * stride);
        return first;
    }
    *array = grow_array(*array, capacity, *count + (1 << class), stride);
    first = *count;
    *count += 1 << class;
    return first;
}

/* Block FIRST of 2^CLASS items back on free list FREE. */
static void give_block(void *array, size_t stride, int *free, int class, int first)
{
    *(int32_t *)((char *)array + (size_t)first * stride) = free[class];
    free[class] = first;
}

/* Whether kept route ID leaves its packets the path compiled X (kept as S)
 * leaves them on LANE: compared whole when ID runs to the destination, else
 * against its history compiled again. */
static bool kept_as(route_table *r, int id, const route_compiled *x, suffix s, int lane)
{
    const net_route *n = &r->routes[id];
    if (n->lane != lane) return false;
    if (n->open.count == 0) {
        if (s.open >= 0 || x->count - s.start != n->count || s.entry != n->entry || x->tail_delay != n->tail_delay)
            return false;
        for (int k = 0; k < n->count; k++)
            if (!same_stage(&x->stages[s.start + k], &r->stages[n->first + k])) return false;
        return true;
    }
    route_choices c;
    history(r, id, &c);
    route_compiled *y = &r->scratch[1];
    route_compile(r, n->src, n->dst, n->lane, &c, n->decided, n->channel, y);
    suffix t = suffix_of(y, n->decided - 1, n->decided);
    if (t.entry > 0) y->stages[t.start].vc = r->stages[n->first].vc; /* the hop in, as its packets took it */
    return same_suffix(x, s, y, t);
}

static void shared_grow(route_table *r)
{
    int capacity = r->shared_capacity ? 2 * r->shared_capacity : 1024;
    uint64_t *slots = calloc((size_t)capacity, sizeof *slots);
    if (!slots || capacity <= 0) out_of_memory();
    for (int i = 0; i < r->shared_capacity; i++) {
        uint64_t v = r->shared[i];
        if (!v) continue;
        uint32_t k = (uint32_t)(v >> 32) & (uint32_t)(capacity - 1);
        while (slots[k]) k = (k + 1) & (uint32_t)(capacity - 1);
        slots[k] = v;
    }
    free(r->shared);
    r->shared = slots;
    r->shared_capacity = capacity;
}

/* A route's id: a freed one, else the next. */
static int take_id(route_table *r)
{
    int id = r->free_route;
    if (id >= 0) {
        r->free_route = r->routes[id].options;
        return id;
    }
    int capacity = r->route_capacity;
    r->routes = grow_array(r->routes, &r->route_capacity, r->route_count + 1, sizeof *r->routes);
    if (r->keep_branches && r->route_capacity != capacity) {
        r->history = realloc(r->history, (size_t)r->route_capacity * ROUTE_MAX_FORKS);
        if (!r->history) out_of_memory();
    }
    r->routes[r->route_count].gen = 0;
    return r->route_count++;
}

/* Append X's kept part S as a route: an alternative TAKEN at fork S.at
 * (a flow's route when S.at is -1) of SRC -> DST on LANE. */
static int append(route_table *r, const route_compiled *x, suffix s, int src, int dst, int lane, int taken,
                  int channel)
{
    int kept = s.end - s.start, id = take_id(r), first;
    if (s.at < 0) { /* a flow's: for the run */
        r->stages = grow_array(r->stages, &r->stage_capacity, r->stage_count + kept, sizeof *r->stages);
        first = r->stage_count;
        r->stage_count += kept;
    } else {
        first = take_block((void **)&r->stages, &r->stage_count, &r->stage_capacity, sizeof *r->stages, r->free_stages,
                           block_class(kept));
        if (++r->alternatives_kept > r->alternatives_peak) r->alternatives_peak = r->alternatives_kept;
    }
    net_route *n = &r->routes[id];
    uint32_t gen = n->gen;
    *n = (net_route){.src = src, .dst = dst, .first = first, .count = kept, .tail_delay = x->tail_delay,
                     .flight = x->flight, .options = -1, .lane = (int16_t)lane,
                     .taken = (int16_t)taken, .decided = (int16_t)(s.at + 1),
                     .entry = (int16_t)s.entry, .channel = (int8_t)channel, .gen = gen};
    int8_t *h = r->history ? &r->history[(size_t)id * ROUTE_MAX_FORKS] : NULL;
    for (int k = 0; h && k <= s.at; k++) h[k] = (int8_t)x->choices.choice[k];
    if (s.open >= 0) {
        const route_fork *f = &x->choices.forks[s.open];
        n->open = (route_branch){.stage = x->fork_stage[s.open] - s.start, .count = f->count, .node = f->node,
                                 .taken = f->taken};
    }
    memcpy(&r->stages[n->first], &x->stages[s.start], sizeof *r->stages * (size_t)kept);
    for (int k = 0; k < kept; k++) r->stages[n->first + k].route = id;
    return id;
}

/* The kept route leaving its packets the path of X's part S, alternative
 * TAKEN at the open fork of ROUTE: found by its content, else appended
 * (invariant 1). */
static int keep(route_table *r, const route_compiled *x, suffix s, int route, int taken, int channel)
{
    const net_route *from = &r->routes[route];
    int src = from->src, dst = from->dst, lane = from->lane;
    if (2 * (r->shared_count + 1) > r->shared_capacity) shared_grow(r);
    uint32_t hash = content_hash(x, s, lane), mask = (uint32_t)(r->shared_capacity - 1), k = hash & mask;
    for (; r->shared[k]; k = (k + 1) & mask)
        if ((uint32_t)(r->shared[k] >> 32) == hash && kept_as(r, (int)(r->shared[k] & 0xffffffffu) - 1, x, s, lane))
            return (int)(r->shared[k] & 0xffffffffu) - 1;
    int id = append(r, x, s, src, dst, lane, taken, channel);
    r->routes[id].hash = hash;
    r->shared[k] = (uint64_t)hash << 32 | (uint32_t)(id + 1);
    r->shared_count++;
    return id;
}

int route_flow(route_table *r, int src, int dst, int lane, diag *d)
{
    route_choices c;
    route_choices_init(&c);
    route_compiled *x = &r->scratch[0];
    if (route_compile(r, src, dst, lane, &c, 0, 0, x) < 0) {
        char a[64], b[64];
        topology_node_name(r->t, src, a, sizeof a);
        topology_node_name(r->t, dst, b, sizeof b);
        diag_fail(d, "platform '%s' has no route from %s to %s", r->t->name, a, b);
        return -1;
    }
    return append(r, x, suffix_of(x, -1, r->keep_branches && c.fork_count > 0 ? 0 : -1), src, dst, lane, 0, 0);
}

/* The hop into the node of ROUTE's open fork, kept as the first stage of
 * X's part S: on the channel the packet took (ROUTE's, an adaptive hop's
 * among them), so that the queue it joins at the fork belongs to the
 * buffer it waits in (voq.h). */
static void took_the_hop_in(const route_table *r, int route, route_compiled *x, suffix s)
{
    const net_route *from = &r->routes[route];
    if (s.entry > 0) x->stages[s.start].vc = r->stages[from->first + from->open.stage - 1].vc;
}

/* The adaptive channel of ROUTE's alternative CHOICE, -1 for the escape. */
static int choice_channel(const route_table *r, int route, int choice)
{
    return choice == route_choice_count(r, route) ? -1 : choice / r->routes[route].open.count;
}

/* ROUTE's alternative CHOICE (route_alternative's) compiled into X; its
 * kept part. */
static suffix compile_alternative(route_table *r, int route, int choice, route_compiled *x)
{
    const net_route *from = &r->routes[route];
    route_choices c;
    history(r, route, &c);
    int channel = choice_channel(r, route, choice), at = from->decided;
    c.choice[at] = channel < 0 ? 0 : choice % from->open.count; /* the escape: dimension order from the fork on */
    route_compile(r, from->src, from->dst, from->lane, &c, at + 1, channel, x);
    suffix s = suffix_of(x, at, r->keep_branches && at + 1 < x->choices.fork_count ? at + 1 : -1);
    took_the_hop_in(r, route, x, s);
    return s;
}

/* The alternatives of ROUTE's open fork, the escape with them. */
static int option_count(const route_table *r, int route)
{
    return route_choice_count(r, route) + (r->adaptive_vc >= 0);
}

const route_option *route_options(route_table *r, int route)
{
    if (r->routes[route].options < 0) {
        int count = option_count(r, route);
        int first = take_block((void **)&r->options, &r->option_count, &r->option_capacity, sizeof *r->options,
                               r->free_options, block_class(count));
        r->routes[route].options = first;
        for (int i = 0; i < count; i++) {
            route_compiled *x = &r->scratch[0];
            suffix s = compile_alternative(r, route, i, x);
            const route_stage *hop = &x->stages[s.start + s.entry];
            r->options[first + i] = (route_option){.route = -1, .port = hop->port, .vc = hop->vc};
        }
    }
    return &r->options[r->routes[route].options];
}

int route_alternative(route_table *r, int route, int choice)
{
    const route_option *options = route_options(r, route); /* may grow the options: before reading them */
    int slot = (int)(options - r->options) + choice;
    int kept = r->options[slot].route;
    if (kept >= 0 && r->routes[kept].gen == r->options[slot].gen) return kept; /* not freed since (invariant 4) */
    route_compiled *x = &r->scratch[0];
    suffix s = compile_alternative(r, route, choice, x);
    int channel = choice_channel(r, route, choice);
    int id = keep(r, x, s, route, channel < 0 ? 0 : choice % r->routes[route].open.count, channel);
    r->options[slot] = (route_option){.route = id, .gen = r->routes[id].gen, .port = r->options[slot].port,
                                      .vc = r->options[slot].vc};
    return id;
}

int route_decided(route_table *r, int route, route_pick_fn pick, const void *ctx)
{
    const net_route *from = &r->routes[route];
    int src = from->src, dst = from->dst, lane = from->lane, at = from->decided;
    route_choices c;
    history(r, route, &c);
    route_compiled *x = &r->scratch[0];
    for (int k = at;; k++) { /* a fork's node is known once the choices before it are */
        route_compile(r, src, dst, lane, &c, at + 1, 0, x);
        if (k >= x->choices.fork_count) break;
        c.choice[k] = pick(ctx, x->choices.forks[k].node, x->choices.forks[k].count);
    }
    suffix s = suffix_of(x, at, -1);
    took_the_hop_in(r, route, x, s);
    return keep(r, x, s, route, c.choice[at], false);
}

const route_branch *route_open_branch(const route_table *r, int route, int stage)
{
    const route_branch *b = &r->routes[route].open;
    return b->count > 0 && b->stage == stage ? b : NULL;
}

/* Take ROUTE (an alternative, hash HASH) out of the shared table: its slot
 * emptied and the entries after it in its run moved back (linear
 * probing's deletion). */
static void unshare(route_table *r, int route, uint32_t hash)
{
    uint32_t mask = (uint32_t)(r->shared_capacity - 1), i = hash & mask;
    while ((uint32_t)(r->shared[i] & 0xffffffffu) != (uint32_t)(route + 1)) i = (i + 1) & mask;
    for (uint32_t j = (i + 1) & mask; r->shared[j]; j = (j + 1) & mask) {
        uint32_t home = (uint32_t)(r->shared[j] >> 32) & mask;
        if (((j - home) & mask) >= ((j - i) & mask)) { /* its home is at or before the hole */
            r->shared[i] = r->shared[j];
            i = j;
        }
    }
    r->shared[i] = 0;
    r->shared_count--;
}

void route_release(route_table *r, int route)
{
    net_route *n = &r->routes[route];
    if (n->decided == 0 || --n->refs > 0 || r->alternatives_kept <= r->keep_idle) return; /* a flow's, taken, kept */
    unshare(r, route, n->hash);
    give_block(r->stages, sizeof *r->stages, r->free_stages, block_class(n->count), n->first);
    if (n->options >= 0)
        give_block(r->options, sizeof *r->options, r->free_options, block_class(option_count(r, route)), n->options);
    n->gen++;
    n->options = r->free_route;
    r->free_route = route;
    r->alternatives_kept--;
}
