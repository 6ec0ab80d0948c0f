/* background.c — background traffic: its sources and rates from a
 * scenario's request (the load calibrated on the platform's routes), and
 * each source's seeded arrival sequence. */
#include "net/background.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/shuffle.h"

/* Destinations of every source, as SPEC's pattern says. */
static void set_targets(background *b, const background_spec *spec)
{
    int n = spec->rank_count;
    b->source_count = n;
    b->sources = calloc((size_t)n + 1, sizeof *b->sources);
    int per_source = spec->pattern == BACKGROUND_UNIFORM ? n - 1 : 1;
    b->targets = malloc(sizeof *b->targets * ((size_t)n * (size_t)per_source + 1));
    int *to = malloc(sizeof *to * ((size_t)n + 1));
    if (spec->pattern == BACKGROUND_PERMUTATION) random_derangement(n, spec->seed, to);
    for (int i = 0; i < n; i++) {
        background_source *s = &b->sources[i];
        *s = (background_source){.node = spec->ranks[i], .target_first = b->target_count,
                                 .message_bytes = spec->message_bytes, .periodic = spec->periodic,
                                 .seed = spec->seed * 0x9E3779B97F4A7C15ull + (uint64_t)i};
        if (spec->pattern == BACKGROUND_UNIFORM)
            for (int j = 0; j < n; j++) {
                if (j != i) b->targets[b->target_count++] = spec->ranks[j];
            }
        else b->targets[b->target_count++] = spec->pattern == BACKGROUND_INCAST ? spec->to : spec->ranks[to[i]];
        s->target_count = b->target_count - s->target_first;
    }
    free(to);
}

bool background_build(background *b, const topology *t, const background_spec *spec, char *why, int why_size)
{
    *b = (background){.load = spec->load};
    set_targets(b, spec);
    /* seconds per byte/s of each source's rate that every link direction carries, over its bandwidth */
    double *share = calloc((size_t)t->link_count * 2 + 1, sizeof *share);
    route_hop *hops = route_buffer(t);
    for (int i = 0; i < b->source_count; i++) {
        const background_source *s = &b->sources[i];
        for (int k = 0; k < s->target_count; k++) {
            int count = topology_route(t, s->node, b->targets[s->target_first + k], hops);
            for (int h = 0; h < count; h++) {
                const topo_link *l = &t->links[hops[h].link];
                if (!l->latency_only) share[hops[h].link * 2 + hops[h].down] += 1.0 / s->target_count / l->bandwidth_Bps;
            }
        }
    }
    free(hops);
    double busiest = 0;
    for (int p = 0; p < 2 * t->link_count; p++)
        if ((spec->tier < 0 || t->links[p / 2].tier == spec->tier) && share[p] > busiest) {
            busiest = share[p];
            b->busiest_Bps = t->links[p / 2].bandwidth_Bps;
        }
    free(share);
    if (busiest == 0) {
        snprintf(why, (size_t)why_size, "the background's routes cross no link of tier '%s'", t->tiers[spec->tier].name);
        background_free(b);
        return false;
    }
    for (int i = 0; i < b->source_count; i++) b->sources[i].rate_per_s = spec->load / busiest / spec->message_bytes;
    /* by default the packet model runs it alone for 100 messages' time on the busiest link at full rate */
    b->virtual_lane = spec->virtual_lane;
    b->warmup_s = spec->warmup_s >= 0 ? spec->warmup_s : 100 * spec->message_bytes / b->busiest_Bps;
    return true;
}

void background_free(background *b)
{
    free(b->sources);
    free(b->targets);
    *b = (background){0};
}

/* Uniform in (0, 1]: never 0, so that its logarithm is finite. */
static double uniform(uint64_t *state)
{
    return (double)((random_next(state) >> 11) + 1) / 9007199254740992.0;
}

void background_clock_start(background_clock *c, const background_source *s)
{
    c->state = s->seed;
    double gap = 1 / s->rate_per_s;
    c->next_s = s->periodic ? uniform(&c->state) * gap : -log(uniform(&c->state)) * gap;
}

int background_clock_tick(background_clock *c, const background_source *s)
{
    int target = (int)(random_next(&c->state) % (uint64_t)s->target_count);
    double gap = 1 / s->rate_per_s;
    c->next_s += s->periodic ? gap : -log(uniform(&c->state)) * gap; /* Poisson: exponential gaps */
    return target;
}

static bool earlier(const background_stream *s, int a, int b)
{
    double x = s->clocks[a].next_s, y = s->clocks[b].next_s;
    return x < y || (x == y && a < b);
}

/* Restore the heap below position I. */
static void sift_down(background_stream *s, int i)
{
    int n = s->b->source_count;
    for (;;) {
        int least = i, left = 2 * i + 1, right = left + 1;
        if (left < n && earlier(s, s->heap[left], s->heap[least])) least = left;
        if (right < n && earlier(s, s->heap[right], s->heap[least])) least = right;
        if (least == i) return;
        int swap = s->heap[i];
        s->heap[i] = s->heap[least];
        s->heap[least] = swap;
        i = least;
    }
}

void background_stream_start(background_stream *s, const background *b)
{
    s->b = b;
    s->clocks = malloc(sizeof *s->clocks * ((size_t)b->source_count + 1));
    s->heap = malloc(sizeof *s->heap * ((size_t)b->source_count + 1));
    for (int i = 0; i < b->source_count; i++) {
        background_clock_start(&s->clocks[i], &b->sources[i]);
        s->heap[i] = i;
    }
    for (int i = b->source_count / 2 - 1; i >= 0; i--) sift_down(s, i);
}

double background_stream_next_s(const background_stream *s)
{
    return s->b->source_count ? s->clocks[s->heap[0]].next_s : INFINITY;
}

void background_stream_pop(background_stream *s, int *source, int *target)
{
    *source = s->heap[0];
    *target = background_clock_tick(&s->clocks[*source], &s->b->sources[*source]);
    sift_down(s, 0); /* its next arrival is later */
}

void background_stream_free(background_stream *s)
{
    free(s->clocks);
    free(s->heap);
}
