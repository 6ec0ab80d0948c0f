/* groups.c — reading `groups:` and laying groups out on the platform's ranks. */
#include "scenario/groups.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/shuffle.h"

void groups_all(int platform_ranks, group_set *out)
{
    *out = (group_set){.count = 1, .size = platform_ranks, .whole = true, .layout = "all"};
    out->members = malloc(sizeof(int) * (size_t)platform_ranks);
    for (int r = 0; r < platform_ranks; r++) out->members[r] = r;
}

void groups_free(group_set *g)
{
    free(g->members);
    g->members = NULL;
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Groups of a layout; false when LAYOUT is not one. */
static bool lay_out(const char *layout, int platform_ranks, group_set *g)
{
    int n = g->count * g->size;
    g->members = malloc(sizeof(int) * (size_t)n);
    uint64_t seed;
    if (strcmp(layout, "prefix") == 0) {
        for (int i = 0; i < n; i++) g->members[i] = i;
    } else if (strcmp(layout, "strided") == 0) {
        for (int grp = 0; grp < g->count; grp++)
            for (int k = 0; k < g->size; k++) g->members[grp * g->size + k] = grp + k * g->count;
    } else if (seeded_name(layout, "random", &seed)) {
        int *order = malloc(sizeof(int) * (size_t)platform_ranks);
        for (int r = 0; r < platform_ranks; r++) order[r] = r;
        uint64_t state = seed;
        random_shuffle(order, platform_ranks, &state);
        memcpy(g->members, order, sizeof(int) * (size_t)n);
        free(order);
        for (int grp = 0; grp < g->count; grp++) qsort(g->members + grp * g->size, (size_t)g->size, sizeof(int), compare_ints);
    } else {
        groups_free(g);
        return false;
    }
    snprintf(g->layout, sizeof g->layout, "%s", layout);
    return true;
}

static bool read_layout(yaml_tree *tree, ynode *node, int platform_ranks, group_set *g, diag *d)
{
    static const char *const keys[] = {"count", "size", "layout", NULL};
    if (!yaml_map_check_keys(tree, node, keys, d)) return false;
    int count = 1, size;
    ynode *c = yaml_map_get(tree, node, "count"), *s = yaml_map_require(tree, node, "size", d);
    if (!s || (c && !yaml_read_int(tree, c, "count", 1, platform_ranks, &count, d)) ||
        !yaml_read_int(tree, s, "size", 1, platform_ranks, &size, d))
        return false;
    double needed = (double)count * (double)size; /* in double: huge counts must not wrap */
    if (needed > platform_ranks)
        return yaml_error(tree, node, d, "%d groups of %d ranks need %.0f ranks; the platform has %d: lower 'count' or 'size'",
                          count, size, needed, platform_ranks);
    g->count = count;
    g->size = size;
    ynode *l = yaml_map_get(tree, node, "layout");
    const char *layout = "prefix";
    if (l && !yaml_read_string(tree, l, "layout", &layout, d)) return false;
    if (lay_out(layout, platform_ranks, g)) return true;
    if (strncmp(layout, "random(", 7) == 0)
        return yaml_error(tree, l, d, "'%s': random(SEED) takes a whole-number seed, e.g. random(7)", layout);
    return yaml_error(tree, l, d, "unknown layout '%s': expected prefix, strided or random(SEED), e.g. random(7)", layout);
}

/* One explicit list of ranks into G's group GRP; SEEN marks ranks already taken. */
static bool read_rank_list(yaml_tree *tree, ynode *list, int grp, int platform_ranks, char *seen, group_set *g, diag *d)
{
    for (int k = 0; k < g->size; k++) {
        ynode *item = yaml_sequence_item(tree, list, k);
        const char *text = item && item->type == YAML_SCALAR_NODE ? (const char *)item->data.scalar.value : "";
        char *end = NULL;
        long r = strtol(text, &end, 10);
        if (end == text || *end != '\0')
            return yaml_error(tree, item, d, "a group lists rank numbers, e.g. [0, 1, 2, 3]");
        if (r < 0 || r >= platform_ranks)
            return yaml_error(tree, item, d, "rank %ld is outside the platform: list ranks 0 to %d, or name a larger "
                              "platform", r, platform_ranks - 1);
        if (seen[r])
            return yaml_error(tree, item, d, "rank %ld is in two groups of this case: groups of one case must not overlap "
                              "(declare a concurrent case for traffic that shares ranks)", r);
        seen[r] = 1;
        g->members[grp * g->size + k] = (int)r;
    }
    return true;
}

/* `[[0, 1, 2, 3], [4, 5, 6, 7]]`, or one group `[0, 1, 2, 3]`. */
static bool read_lists(yaml_tree *tree, ynode *node, int platform_ranks, group_set *g, diag *d)
{
    int n = yaml_sequence_length(node);
    if (n <= 0) return yaml_error(tree, node, d, "'groups' lists no ranks: give [[0, 1], [2, 3]], {count, size, layout} or all");
    ynode *first = yaml_sequence_item(tree, node, 0);
    bool nested = first->type == YAML_SEQUENCE_NODE;
    g->count = nested ? n : 1;
    g->size = nested ? yaml_sequence_length(first) : n;
    snprintf(g->layout, sizeof g->layout, "list");
    g->members = malloc(sizeof(int) * (size_t)(g->count * g->size + 1));
    char *seen = calloc((size_t)platform_ranks, 1);
    bool ok = true;
    for (int grp = 0; ok && grp < g->count; grp++) {
        ynode *list = nested ? yaml_sequence_item(tree, node, grp) : node;
        if (list->type != YAML_SEQUENCE_NODE)
            ok = yaml_error(tree, list, d, "each group is a list of ranks: write [[0, 1], [2, 3]], or one group [0, 1, 2, 3]");
        else if (yaml_sequence_length(list) != g->size)
            ok = yaml_error(tree, list, d, "every group of a case has the same size (%d ranks here): put groups of another "
                            "size in a case of their own", g->size);
        else ok = read_rank_list(tree, list, grp, platform_ranks, seen, g, d);
    }
    free(seen);
    if (!ok) groups_free(g);
    return ok;
}

bool groups_read(yaml_tree *tree, ynode *node, int platform_ranks, group_set *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (node->type == YAML_SCALAR_NODE) {
        if (strcmp((const char *)node->data.scalar.value, "all") == 0) {
            groups_all(platform_ranks, out);
            return true;
        }
        return yaml_error(tree, node, d, "'groups' takes all, rank lists [[0, 1], [2, 3]], or {count: 8, size: 64, "
                          "layout: prefix | strided | random(SEED)}");
    }
    bool ok = node->type == YAML_MAPPING_NODE ? read_layout(tree, node, platform_ranks, out, d)
                                               : read_lists(tree, node, platform_ranks, out, d);
    if (ok && out->size < 2) {
        groups_free(out);
        return yaml_error(tree, node, d, "a group of %d rank%s has nothing to communicate: give each group 2 ranks or more",
                          out->size, out->size == 1 ? "" : "s");
    }
    return ok;
}
