/* voq.c — numbering virtual output queues as routes are compiled (voq.h).
 * Not on a packet's path: a route's stages get their queue once. */
#include "net/packet/voq.h"

#include <stdlib.h>

#include "util/memory.h"

void voq_table_free(voq_table *v)
{
    free(v->entries);
    free(v->keys);
    free(v->values);
    *v = (voq_table){0};
}

static uint64_t hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    return key ^ (key >> 33);
}

static void map_put(voq_table *v, uint64_t key, int32_t value);

/* The map at twice its capacity (from 64), its entries put again. */
static void map_grow(voq_table *v)
{
    uint64_t *keys = v->keys;
    int32_t *values = v->values;
    int capacity = v->map_capacity;
    v->map_capacity = capacity ? 2 * capacity : 64;
    v->keys = calloc((size_t)v->map_capacity, sizeof *v->keys);
    v->values = malloc(sizeof *v->values * (size_t)v->map_capacity);
    if (!v->keys || !v->values) out_of_memory();
    for (int i = 0; i < capacity; i++)
        if (keys[i]) map_put(v, keys[i], values[i]);
    free(keys);
    free(values);
}

static void map_put(voq_table *v, uint64_t key, int32_t value)
{
    uint64_t mask = (uint64_t)v->map_capacity - 1;
    uint64_t i = hash(key) & mask;
    while (v->keys[i]) i = (i + 1) & mask;
    v->keys[i] = key;
    v->values[i] = value;
}

/* The queue of (BUFFER input, OUTPUT port), numbered now if new. */
static int32_t queue_of(voq_table *v, int buffer, int output)
{
    uint64_t key = ((uint64_t)(uint32_t)buffer << 32 | (uint32_t)output) + 1;
    if (v->map_capacity) {
        uint64_t mask = (uint64_t)v->map_capacity - 1;
        for (uint64_t i = hash(key) & mask; v->keys[i]; i = (i + 1) & mask)
            if (v->keys[i] == key) return v->values[i];
    }
    if (2 * (v->count + 1) > v->map_capacity) map_grow(v);
    v->entries = grow_array(v->entries, &v->capacity, v->count + 1, sizeof *v->entries);
    int32_t q = v->count++;
    v->entries[q] = (voq_entry){.buffer = buffer};
    map_put(v, key, q);
    return q;
}

/* The node at port P's far end: UP goes ends[0] -> ends[1] (topology.h). */
static int far_node(const topology *t, int p)
{
    const topo_link *link = &t->links[p / 2];
    return p % 2 ? link->ends[0] : link->ends[1];
}

void voq_assign(voq_table *v, route_table *r, const topology *t, int vc_shift, int route)
{
    net_route *n = &r->routes[route];
    if (n->voqs_assigned) return;
    n->voqs_assigned = true;
    for (int k = n->first + 1; k < n->first + n->count; k++) {
        route_stage *s = &r->stages[k];
        const route_stage *before = &r->stages[k - 1];
        int node = far_node(t, before->port);
        if (node < t->ranks ? !(t->lattice && t->packet.router.architecture == SWITCH_VOQ) /* a rank that routes */
                            : t->packet.architecture[t->switches[node - t->ranks].tier] != SWITCH_VOQ)
            continue;
        s->voq = queue_of(v, before->port << vc_shift | before->vc, s->port);
    }
}
