/* key_map.c — linear probing over a power-of-two table, kept under half full. */
#include "util/key_map.h"

#include <stdlib.h>

#include "util/memory.h"

void key_map_init(key_map *m)
{
    *m = (key_map){0};
}

void key_map_free(key_map *m)
{
    free(m->keys);
    free(m->values);
    key_map_init(m);
}

static long slot_of(uint64_t key, long capacity)
{
    key ^= key >> 33; /* murmur3's finalizer */
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (long)(key & (uint64_t)(capacity - 1));
}

void *key_map_get(const key_map *m, uint64_t key)
{
    if (!m->capacity) return NULL;
    for (long i = slot_of(key, m->capacity);; i = (i + 1) & (m->capacity - 1)) {
        if (!m->values[i]) return NULL;
        if (m->keys[i] == key) return m->values[i];
    }
}

static void insert(uint64_t *keys, void **values, long capacity, uint64_t key, void *value)
{
    long i = slot_of(key, capacity);
    while (values[i] && keys[i] != key) i = (i + 1) & (capacity - 1);
    keys[i] = key;
    values[i] = value;
}

void key_map_put(key_map *m, uint64_t key, void *value)
{
    if (2 * (m->count + 1) > m->capacity) {
        long capacity = m->capacity ? 2 * m->capacity : 64;
        uint64_t *keys = calloc((size_t)capacity, sizeof *keys);
        void **values = calloc((size_t)capacity, sizeof *values);
        if (!keys || !values) out_of_memory();
        for (long i = 0; i < m->capacity; i++)
            if (m->values[i]) insert(keys, values, capacity, m->keys[i], m->values[i]);
        free(m->keys);
        free(m->values);
        m->keys = keys;
        m->values = values;
        m->capacity = capacity;
    }
    if (!key_map_get(m, key)) m->count++;
    insert(m->keys, m->values, m->capacity, key, value);
}
