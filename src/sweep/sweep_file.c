/* sweep_file.c — reading a sweep file (docs/sweeps.md): its base scenario,
 * its axes as a grid (every combination, the last axis varying fastest) or
 * a list of axis points; each axis point's scenario derived and checked
 * (derive.c), a refusal put at the sweep file's position of the value to
 * blame; then the points, their ids and cost estimates. */
#include <ctype.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "sweep/sweep.h"
#include "yaml/yaml_edit.h"

/* CPU seconds per schedule operation: scripts/bench's star-512 ring
 * (docs/architecture.md, "Benchmark"): 7.37 s for 1,046,528 operations. */
#define SECONDS_PER_OPERATION 7.0e-6

double sweep_seconds(double items)
{
    return items * SECONDS_PER_OPERATION;
}

static ynode *node_of(sweep *w, int id)
{
    return yaml_document_get_node(&w->tree.document, id);
}

/* KEY's syntax: NAME[.NAME...], each NAME letters, digits and '_', perhaps with [I]. */
static bool key_well_formed(const char *key)
{
    const char *p = key;
    for (;;) {
        if (!isalpha((unsigned char)*p)) return false;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        if (*p == '[') {
            if (!isdigit((unsigned char)*++p)) return false;
            while (isdigit((unsigned char)*p)) p++;
            if (*p++ != ']') return false;
        }
        if (*p == '\0') return true;
        if (*p++ != '.') return false;
    }
}

/* The axis named at KEY_NODE: its index (added when new), or -1 with D set. */
static int axis_of(sweep *w, ynode *key_node, diag *d)
{
    const char *key = key_node->type == YAML_SCALAR_NODE ? (const char *)key_node->data.scalar.value : "";
    if (!key_well_formed(key) || strlen(key) >= sizeof w->axes[0].key) {
        yaml_error(&w->tree, key_node, d, "'%s' is not an axis: name a key of the scenario, as network, eta, "
                   "platform.efficiency, platform.packet.buffer, cases.algorithms or cases[1].sizes", key);
        return -1;
    }
    for (int a = 0; a < w->axis_count; a++)
        if (strcmp(w->axes[a].key, key) == 0) return a;
    if (w->axis_count == SWEEP_MAX_AXES) {
        yaml_error(&w->tree, key_node, d, "more than %d axes: a sweep varies at most %d keys", SWEEP_MAX_AXES, SWEEP_MAX_AXES);
        return -1;
    }
    snprintf(w->axes[w->axis_count].key, sizeof w->axes[0].key, "%s", key);
    return w->axis_count++;
}

static sweep_axis_point *new_axis_point(sweep *w)
{
    w->axis_points = realloc(w->axis_points, sizeof *w->axis_points * (size_t)(w->axis_point_count + 1));
    sweep_axis_point *p = &w->axis_points[w->axis_point_count++];
    memset(p, 0, sizeof *p);
    return p;
}

/* `grid:` — every combination of its axes' values, the last axis fastest. */
static bool read_grid(sweep *w, ynode *grid, diag *d)
{
    if (!yaml_expect_mapping(&w->tree, grid, "'grid' (axis: [value, value, ...])", d)) return false;
    int pairs = (int)(grid->data.mapping.pairs.top - grid->data.mapping.pairs.start);
    if (pairs == 0) return yaml_error(&w->tree, grid, d, "the grid is empty: give it an axis and its values, e.g. "
                                      "platform.efficiency: [1, 0.8, 0.6]");
    int keys[SWEEP_MAX_AXES], lists[SWEEP_MAX_AXES], axes[SWEEP_MAX_AXES];
    double combinations = 1;
    for (int i = 0; i < pairs; i++) {
        yaml_node_pair_t pair = grid->data.mapping.pairs.start[i];
        ynode *key = node_of(w, pair.key), *list = node_of(w, pair.value);
        int a = axis_of(w, key, d);
        if (a < 0) return false;
        if (a != w->axis_count - 1) return yaml_error(&w->tree, key, d, "axis '%s' appears twice in the grid: keep one",
                                                      w->axes[a].key);
        int n = yaml_read_list(&w->tree, list, w->axes[a].key, "[1, 0.8, 0.6]", d);
        if (n < 0) return false;
        if (n == 0) return yaml_error(&w->tree, list, d, "axis '%s' lists no values: the grid would be empty; give "
                                      "it one or more, or remove it", w->axes[a].key);
        keys[i] = pair.key;
        lists[i] = pair.value;
        axes[i] = a;
        combinations *= n;
    }
    if (combinations > SWEEP_MAX_AXIS_POINTS)
        return yaml_error(&w->tree, grid, d, "the grid has %.0f axis points; a sweep holds at most %d: split it",
                          combinations, SWEEP_MAX_AXIS_POINTS);
    int choice[SWEEP_MAX_AXES] = {0};
    for (int count = 0; count < (int)combinations; count++) {
        sweep_axis_point *p = new_axis_point(w);
        for (int i = 0; i < pairs; i++) {
            p->value[axes[i]] = yaml_node_id(&w->tree, yaml_sequence_item(&w->tree, node_of(w, lists[i]), choice[i]));
            p->key_node[axes[i]] = keys[i];
        }
        for (int i = pairs - 1; i >= 0; i--) { /* the next combination, the last axis fastest */
            if (++choice[i] < yaml_sequence_length(node_of(w, lists[i]))) break;
            choice[i] = 0;
        }
    }
    return true;
}

/* `points:` — a list of axis points, each a mapping of axis values. */
static bool read_points(sweep *w, ynode *list, diag *d)
{
    int n = yaml_read_list(&w->tree, list, "points", "[{platform.efficiency: 0.8}, {network: packet}]", d);
    if (n < 0) return false;
    if (n == 0) return yaml_error(&w->tree, list, d, "'points' is empty: list one or more axis points");
    if (n > SWEEP_MAX_AXIS_POINTS)
        return yaml_error(&w->tree, list, d, "%d axis points; a sweep holds at most %d: split it", n, SWEEP_MAX_AXIS_POINTS);
    for (int i = 0; i < n; i++) {
        int item = yaml_node_id(&w->tree, yaml_sequence_item(&w->tree, list, i));
        ynode *point = node_of(w, item);
        if (!yaml_expect_mapping(&w->tree, point, "an axis point {axis: value, ...}", d)) return false;
        int pairs = (int)(point->data.mapping.pairs.top - point->data.mapping.pairs.start);
        if (pairs == 0) return yaml_error(&w->tree, point, d, "an empty axis point: give it one axis value or more");
        sweep_axis_point *p = new_axis_point(w);
        p->node = item;
        for (int k = 0; k < pairs; k++) {
            yaml_node_pair_t pair = node_of(w, item)->data.mapping.pairs.start[k];
            int a = axis_of(w, node_of(w, pair.key), d);
            if (a < 0) return false;
            if (p->value[a]) return yaml_error(&w->tree, node_of(w, pair.key), d, "axis '%s' appears twice in this "
                                               "point: keep one", w->axes[a].key);
            p->value[a] = pair.value;
            p->key_node[a] = pair.key;
        }
    }
    return true;
}

/* NODE's canonical text, allocated. */
static char *canonical(sweep *w, int id)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    yaml_canonical_text(&w->tree, node_of(w, id), out);
    fclose(out);
    return text;
}

static void label_axis_point(sweep *w, sweep_axis_point *p)
{
    size_t size = 0;
    FILE *out = open_memstream(&p->label, &size);
    for (int a = 0, n = 0; a < w->axis_count; a++) {
        if (!p->value[a]) continue;
        p->values[a] = canonical(w, p->value[a]);
        fprintf(out, "%s%s = %s", n++ ? ", " : "", w->axes[a].key, p->values[a]);
    }
    fclose(out);
}

/* Where to put a refusal of axis point P that no single value of it causes. */
static int blame_node(const sweep *w, const sweep_axis_point *p)
{
    if (p->node) return p->node;
    int last = 0;
    for (int a = 0; a < w->axis_count; a++)
        if (p->value[a]) last = p->value[a];
    return last;
}

/* Derive axis point P's scenario.  A refusal outside the sweep file's own
 * nodes is put on the value that alone makes the scenario refuse, else on
 * the axis point, with the scenario's own message. */
static bool derive_axis_point(sweep *w, sweep_axis_point *p, diag *d)
{
    diag inner = {0};
    if (sweep_derive(w, p->value, p->key_node, &p->scenario, &inner)) return true;
    if (strcmp(inner.file, w->path) == 0) {
        *d = inner;
        return false;
    }
    int blame = 0;
    for (int a = 0; a < w->axis_count && !blame; a++) {
        if (!p->value[a]) continue;
        int alone[SWEEP_MAX_AXES] = {0};
        alone[a] = p->value[a];
        scenario s;
        diag why = {0};
        if (sweep_derive(w, alone, p->key_node, &s, &why)) scenario_free(&s);
        else blame = a + 1;
    }
    char reason[sizeof inner.message + 600];
    if (inner.line > 0) snprintf(reason, sizeof reason, "%s:%d:%d: %s", inner.file, inner.line, inner.column, inner.message);
    else snprintf(reason, sizeof reason, "%s%s%s", inner.file, inner.file[0] ? ": " : "", inner.message);
    ynode *at = node_of(w, blame ? p->value[blame - 1] : blame_node(w, p));
    if (blame)
        return yaml_error(&w->tree, at, d, "axis '%s' value %s: the scenario refuses it: %s", w->axes[blame - 1].key,
                          p->values[blame - 1], reason);
    return yaml_error(&w->tree, at, d, "axis point %s: the scenario refuses it: %s", p->label, reason);
}

/* FNV-1a, 64 bits. */
static uint64_t hash_text(const char *text)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Point T's id: the hash of its axis values sorted by key, its case, algorithm and size. */
static void point_id(sweep *w, const sweep_axis_point *p, sweep_point *t)
{
    int order[SWEEP_MAX_AXES], n = 0;
    for (int a = 0; a < w->axis_count; a++) {
        if (!p->value[a]) continue;
        int j = n++;
        for (; j > 0 && strcmp(w->axes[order[j - 1]].key, w->axes[a].key) > 0; j--) order[j] = order[j - 1];
        order[j] = a;
    }
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    for (int i = 0; i < n; i++) fprintf(out, "%s=%s\n", w->axes[order[i]].key, p->values[order[i]]);
    const scenario_case *k = &p->scenario.cases[t->first];
    fprintf(out, "case=%d\nalgorithm=%d %s\nsize=%d %.17g\n", t->first, t->a, k->algorithms[t->a], t->m, k->sizes[t->m]);
    fclose(out);
    snprintf(t->id, sizeof t->id, "%016llx", (unsigned long long)hash_text(text));
    free(text);
}

/* The simulations of axis point V, in the order `collsim run` makes them. */
static bool add_points(sweep *w, int v, diag *d)
{
    sweep_axis_point *p = &w->axis_points[v];
    const scenario *s = &p->scenario;
    p->first_point = w->point_count;
    for (int c = 0; c < s->case_count; c++) {
        if (s->cases[c].together_first != c) continue;
        for (int a = 0; a < s->cases[c].algorithm_count; a++)
            for (int m = 0; m < s->cases[c].size_count; m++) {
                if (w->point_count == SWEEP_MAX_POINTS)
                    return yaml_error(&w->tree, yaml_tree_root(&w->tree), d, "more than %d simulations: split the sweep",
                                      SWEEP_MAX_POINTS);
                w->points = realloc(w->points, sizeof *w->points * (size_t)(w->point_count + 1));
                sweep_point *t = &w->points[w->point_count++];
                *t = (sweep_point){.axis_point = v, .first = c, .a = a, .m = m, .items = plan_simulation_items(s, c, a, m)};
                point_id(w, p, t);
            }
    }
    p->point_count = w->point_count - p->first_point;
    return true;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const sweep_point *)a)->id, ((const sweep_point *)b)->id);
}

/* No two points share an id: the same axis point given twice is refused at its second place. */
static bool ids_distinct(sweep *w, diag *d)
{
    sweep_point *sorted = malloc(sizeof *sorted * (size_t)(w->point_count + 1));
    memcpy(sorted, w->points, sizeof *sorted * (size_t)w->point_count);
    qsort(sorted, (size_t)w->point_count, sizeof *sorted, by_id);
    bool ok = true;
    for (int i = 1; ok && i < w->point_count; i++) {
        if (strcmp(sorted[i].id, sorted[i - 1].id) != 0) continue;
        int later = sorted[i].axis_point > sorted[i - 1].axis_point ? i : i - 1, earlier = i + i - 1 - later;
        const sweep_axis_point *p = &w->axis_points[sorted[later].axis_point];
        ynode *at = node_of(w, blame_node(w, p));
        ok = yaml_error(&w->tree, at, d, "axis point %s is given twice (axis points %d and %d): its simulations would be "
                        "run twice; remove one", p->label, sorted[earlier].axis_point + 1, sorted[later].axis_point + 1);
    }
    free(sorted);
    return ok;
}

static const char *eta_profile_name(const scenario *s)
{
    for (int c = 0; c < s->case_count; c++)
        if (s->cases[c].eta.mode != s->eta.mode) return "per case";
    return s->eta.mode == ETA_SEED ? "seed" : s->eta.mode == ETA_GIVEN ? "given" : "ideal";
}

/* The sweep file's own keys. */
static bool read_sweep(sweep *w, diag *d)
{
    ynode *root = yaml_tree_root(&w->tree);
    static const char *const keys[] = {"name", "description", "scenario", "grid", "points", NULL};
    if (!yaml_expect_mapping(&w->tree, root, "a sweep", d) || !yaml_map_check_keys(&w->tree, root, keys, d)) return false;
    const char *text = NULL;
    ynode *name = yaml_map_get(&w->tree, root, "name");
    if (name && !yaml_read_string(&w->tree, name, "name", &text, d)) return false;
    if (text && strlen(text) >= sizeof w->name)
        return yaml_error(&w->tree, name, d, "'name' holds at most %zu characters", sizeof w->name - 1);
    char file[512];
    snprintf(file, sizeof file, "%s", w->path);
    snprintf(w->name, sizeof w->name, "%s", text ? text : basename(file));
    if (!text && strrchr(w->name, '.')) *strrchr(w->name, '.') = '\0';
    ynode *base = yaml_map_require(&w->tree, root, "scenario", d);
    if (!base || !yaml_read_string(&w->tree, base, "scenario", &text, d)) return false;
    if (strlen(text) >= sizeof w->base) return yaml_error(&w->tree, base, d, "'scenario' is too long a path");
    snprintf(w->base, sizeof w->base, "%s", text);
    char folder[512];
    snprintf(folder, sizeof folder, "%s", w->path);
    if (text[0] == '/') snprintf(w->base_path, sizeof w->base_path, "%s", text);
    else snprintf(w->base_path, sizeof w->base_path, "%s/%s", dirname(folder), text);
    ynode *grid = yaml_map_get(&w->tree, root, "grid"), *points = yaml_map_get(&w->tree, root, "points");
    if (!grid == !points)
        return yaml_error(&w->tree, root, d, "a sweep gives its axes as 'grid' (every combination) or as 'points' (a "
                          "list of axis points): %s", grid ? "not both" : "add one");
    return grid ? read_grid(w, grid, d) : read_points(w, points, d);
}

bool sweep_load(const char *path, sweep *w, diag *d)
{
    memset(w, 0, sizeof *w);
    snprintf(w->path, sizeof w->path, "%s", path);
    bool ok = yaml_tree_load(&w->tree, path, d) && read_sweep(w, d);
    for (int v = 0; ok && v < w->axis_point_count; v++) {
        sweep_axis_point *p = &w->axis_points[v];
        label_axis_point(w, p);
        if (!(ok = derive_axis_point(w, p, d))) break;
        snprintf(p->eta_profile, sizeof p->eta_profile, "%s", eta_profile_name(&p->scenario));
        network_model model = scenario_network(&p->scenario, NETWORK_DEFAULT);
        sim_options sim = {.model = model};
        char label[sizeof p->model];
        snprintf(p->model, sizeof p->model, "%s", network_label(&sim, label, sizeof label));
        ok = add_points(w, v, d);
    }
    if (ok) ok = ids_distinct(w, d);
    if (!ok) sweep_free(w);
    return ok;
}

void sweep_free(sweep *w)
{
    for (int v = 0; v < w->axis_point_count; v++) {
        sweep_axis_point *p = &w->axis_points[v];
        scenario_free(&p->scenario);
        for (int a = 0; a < SWEEP_MAX_AXES; a++) free(p->values[a]);
        free(p->label);
    }
    free(w->axis_points);
    free(w->points);
    yaml_tree_free(&w->tree);
    memset(w, 0, sizeof *w);
}

typedef struct costed {
    double items;
    int index;
} costed;

/* The larger estimate first; equal ones in the sweep's order. */
static int by_cost(const void *a, const void *b)
{
    const costed *x = a, *y = b;
    if (x->items != y->items) return x->items > y->items ? -1 : 1;
    return x->index - y->index;
}

void sweep_shards(const sweep *w, int shards, int *shard)
{
    costed *order = malloc(sizeof *order * (size_t)(w->point_count + 1));
    double *load = calloc((size_t)shards, sizeof *load);
    for (int i = 0; i < w->point_count; i++) order[i] = (costed){w->points[i].items, i};
    qsort(order, (size_t)w->point_count, sizeof *order, by_cost);
    for (int i = 0; i < w->point_count; i++) {
        int least = 0;
        for (int k = 1; k < shards; k++)
            if (load[k] < load[least]) least = k;
        shard[order[i].index] = least;
        load[least] += order[i].items;
    }
    free(order);
    free(load);
}
