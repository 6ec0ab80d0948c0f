/* op_classes.c — actors' op graphs, one per class of actors whose
 * dependencies are identical (op_classes.h).  An actor's dependencies are
 * read once (one pass over its ops), hashed, and compared with the
 * classes of that hash; the dependents are built only for a new class. */
#include "exec/op_classes.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/key_map.h"
#include "util/memory.h"

typedef struct op_class {
    int ops;
    int *dep_offset;        /* per op and one past: its dependencies in deps */
    int *deps;
    op_graph g;             /* the dependents (remaining unused: per actor) */
    struct op_class *next;  /* another class of the same hash */
} op_class;

struct op_classes {
    key_map by_hash;
    op_class **all;
    int count, capacity;
    int *dep_offset, *deps; /* scratch: the actor being read */
    int offset_capacity, deps_capacity;
    arena memory;           /* the actors' unmet counts, each read cold at every completion at thousands of
                               actors: in blocks backed by huge pages (arena.h) */
};

op_classes *op_classes_create(void)
{
    op_classes *c = calloc(1, sizeof *c);
    if (!c) out_of_memory();
    key_map_init(&c->by_hash);
    arena_init(&c->memory);
    return c;
}

void op_classes_free(op_classes *c)
{
    if (!c) return;
    for (int i = 0; i < c->count; i++) {
        free(c->all[i]->dep_offset);
        op_graph_free(&c->all[i]->g);
        free(c->all[i]);
    }
    free(c->all);
    free(c->dep_offset);
    free(c->deps);
    key_map_free(&c->by_hash);
    arena_free(&c->memory);
    free(c);
}

/* Read actor A's dependencies into C's scratch; their hash. */
static uint64_t read_actor(op_classes *c, const schedule *s, int a, int ops)
{
    c->dep_offset = grow_array(c->dep_offset, &c->offset_capacity, ops + 1, sizeof *c->dep_offset);
    uint64_t hash = 1469598103934665603ULL ^ (uint64_t)ops;
    int count = 0;
    sched_cursor cursor;
    sched_cursor_init(&cursor, s, a);
    for (int o = 0; o < ops; o++) {
        sched_op op = sched_cursor_op(&cursor, o);
        c->dep_offset[o] = count;
        c->deps = grow_array(c->deps, &c->deps_capacity, count + op.dep_count, sizeof *c->deps);
        for (int d = 0; d < op.dep_count; d++) {
            int dep = sched_op_dep(s, a, o, &op, d);
            c->deps[count++] = dep;
            hash = (hash ^ (uint64_t)(o - dep)) * 1099511628211ULL;
        }
        hash = (hash ^ (uint64_t)op.dep_count << 32) * 1099511628211ULL;
    }
    c->dep_offset[ops] = count;
    return hash;
}

static bool same_as(const op_classes *c, const op_class *k, int ops)
{
    return k->ops == ops && memcmp(k->dep_offset, c->dep_offset, sizeof(int) * (size_t)(ops + 1)) == 0 &&
           memcmp(k->deps, c->deps, sizeof(int) * (size_t)c->dep_offset[ops]) == 0;
}

/* A class from the scratch: its dependencies kept, its dependents built. */
static op_class *new_class(op_classes *c, int ops)
{
    int deps = c->dep_offset[ops];
    op_class *k = calloc(1, sizeof *k);
    if (!k) out_of_memory();
    k->ops = ops;
    k->dep_offset = malloc(sizeof(int) * (size_t)(ops + 1 + deps + 1));
    if (!k->dep_offset) out_of_memory();
    k->deps = k->dep_offset + ops + 1;
    memcpy(k->dep_offset, c->dep_offset, sizeof(int) * (size_t)(ops + 1));
    memcpy(k->deps, c->deps, sizeof(int) * (size_t)deps);
    /* dependents, as sched_op_graph lists them: by dependency, in op order */
    k->g.offset = calloc((size_t)(ops + 1 + deps + 1), sizeof(int));
    if (!k->g.offset) out_of_memory();
    k->g.list = k->g.offset + ops + 1;
    for (int d = 0; d < deps; d++) k->g.offset[k->deps[d] + 1]++;
    for (int o = 0; o < ops; o++) k->g.offset[o + 1] += k->g.offset[o];
    int *fill = calloc((size_t)ops + 1, sizeof(int));
    if (!fill) out_of_memory();
    for (int o = 0; o < ops; o++)
        for (int d = k->dep_offset[o]; d < k->dep_offset[o + 1]; d++) {
            int dep = k->deps[d];
            k->g.list[k->g.offset[dep] + fill[dep]++] = o;
        }
    free(fill);
    c->all = grow_array(c->all, &c->capacity, c->count + 1, sizeof *c->all);
    c->all[c->count++] = k;
    return k;
}

void op_classes_graph(op_classes *c, const schedule *s, int a, op_graph *g)
{
    int ops = s->actor[a].op_count;
    uint64_t hash = read_actor(c, s, a, ops);
    op_class *first = key_map_get(&c->by_hash, hash), *k = first;
    while (k && !same_as(c, k, ops)) k = k->next;
    if (!k) {
        k = new_class(c, ops);
        k->next = first;
        key_map_put(&c->by_hash, hash, k);
    }
    g->offset = k->g.offset;
    g->list = k->g.list;
    g->remaining = arena_carve(&c->memory, sizeof(int) * ((size_t)ops + 1));
    for (int o = 0; o < ops; o++) g->remaining[o] = k->dep_offset[o + 1] - k->dep_offset[o];
}
