/* shuffle.c — splitmix64, Fisher-Yates, derangements, NAME(SEED). */
#include "util/shuffle.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t random_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void random_shuffle(int *values, int count, uint64_t *state)
{
    for (int r = count - 1; r > 0; r--) {
        int j = (int)(random_next(state) % (uint64_t)(r + 1));
        int swap = values[r];
        values[r] = values[j];
        values[j] = swap;
    }
}

void random_derangement(int n, uint64_t seed, int *to)
{
    uint64_t state = seed;
    for (bool fixed = true; fixed;) { /* shuffle until no value stays put: about e tries */
        for (int i = 0; i < n; i++) to[i] = i;
        random_shuffle(to, n, &state);
        fixed = false;
        for (int i = 0; i < n && !fixed; i++) fixed = to[i] == i;
    }
}

bool seeded_name(const char *text, const char *name, uint64_t *seed)
{
    size_t n = strlen(name);
    if (strncmp(text, name, n) != 0 || text[n] != '(' || !isdigit((unsigned char)text[n + 1])) return false;
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text + n + 1, &end, 10);
    if (errno == ERANGE || strcmp(end, ")") != 0) return false; /* past 2^64 - 1, or more after it */
    *seed = value;
    return true;
}
