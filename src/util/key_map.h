/* key_map.h — a map from 64-bit keys to pointers (open addressing), for
 * lookups done once per connection, never per message. */
#ifndef COLLSIM_KEY_MAP_H
#define COLLSIM_KEY_MAP_H

#include <stdint.h>

typedef struct key_map {
    uint64_t *keys;
    void **values;
    long count, capacity; /* capacity: a power of two, or 0 */
} key_map;

void key_map_init(key_map *m);
/* Frees the map, not the values. */
void key_map_free(key_map *m);
void *key_map_get(const key_map *m, uint64_t key);
void key_map_put(key_map *m, uint64_t key, void *value);

#endif
