/* derive.c — an axis point's scenario: the base scenario's YAML loaded, each
 * axis value copied into it where its key says (the platform file inlined
 * first when a key reaches into it), then read and checked as any scenario
 * is (scenario_load_tree, plan_check).
 *
 * A key is a path: KEY.KEY... through mappings, KEY[I] into a list.  Two
 * rules know the scenario's shape: `cases` without an index is every case
 * (the members of a `concurrent:` block included), `cases[I]` the I-th as
 * the report numbers them; and a `platform` that names a file is replaced
 * by that file's mapping before a key below it is set.  A key the scenario
 * lacks is added; whether it is one the scenario takes is the scenario's
 * reader's to say, at the sweep file's position of the axis. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "sweep/sweep.h"
#include "yaml/yaml_edit.h"

typedef struct derive_context {
    sweep *w;
    yaml_tree *tree;   /* the scenario being derived */
    const char *key;   /* the axis */
    int key_node, value_node; /* in the sweep file */
    diag *d;
} derive_context;

static bool refuse(const derive_context *x, const char *what, const char *segment)
{
    ynode *at = yaml_document_get_node(&x->w->tree.document, x->key_node);
    return yaml_error(&x->w->tree, at, x->d, "axis '%s': %s '%s'", x->key, what, segment);
}

static ynode *node_of(yaml_tree *tree, int id)
{
    return yaml_document_get_node(&tree->document, id);
}

/* The case mappings of `cases:` (node CASES), block members one by one, into IDS; their count. */
static int case_nodes(yaml_tree *tree, int cases, int *ids, int capacity)
{
    int count = 0;
    for (int i = 0; i < yaml_sequence_length(node_of(tree, cases)); i++) {
        ynode *item = yaml_sequence_item(tree, node_of(tree, cases), i);
        ynode *members = yaml_map_get(tree, item, "concurrent");
        if (members && yaml_sequence_length(members) >= 0) {
            for (int k = 0; k < yaml_sequence_length(members) && count < capacity; k++)
                ids[count++] = yaml_node_id(tree, yaml_sequence_item(tree, members, k));
        } else if (count < capacity) ids[count++] = yaml_node_id(tree, item);
    }
    return count;
}

/* The platform file that node ID (a scalar under `platform`) names, read and
 * copied in its place under mapping AT; the copy's id, or 0 with D set. */
static int inline_platform(derive_context *x, int at, int id)
{
    const char *text = (const char *)node_of(x->tree, id)->data.scalar.value;
    char folder[1024], file[2048];
    snprintf(folder, sizeof folder, "%s", x->tree->path);
    if (text[0] == '/') snprintf(file, sizeof file, "%s", text);
    else snprintf(file, sizeof file, "%s/%s", dirname(folder), text);
    yaml_tree platform;
    diag why = {0};
    if (!yaml_tree_load(&platform, file, &why)) {
        yaml_tree_free(&platform);
        char reason[sizeof why.message + 16];
        snprintf(reason, sizeof reason, "%s (%s)", file, why.message);
        refuse(x, "reaches into a platform file that cannot be read:", reason);
        return 0;
    }
    int copy = yaml_edit_copy(x->tree, &platform, yaml_node_id(&platform, yaml_tree_root(&platform)));
    yaml_tree_free(&platform);
    if (!copy || !yaml_edit_set(x->tree, at, "platform", copy, x->tree, id)) return 0;
    return copy;
}

#define SEGMENT_SIZE 64

/* The first segment of PATH into NAME and INDEX (-1 without [I]); the rest after it, or NULL. */
static const char *split(const char *path, char *name, int *index)
{
    size_t length = strcspn(path, ".[");
    snprintf(name, SEGMENT_SIZE, "%.*s", (int)length, path);
    *index = -1;
    const char *p = path + length;
    if (*p == '[') {
        *index = atoi(p + 1);
        p = strchr(p, ']') + 1;
    }
    return *p == '.' ? p + 1 : NULL;
}

/* Set the rest of the key, PATH, under mapping AT (ROOT: the scenario's own). */
static bool apply(derive_context *x, int at, const char *path, bool root)
{
    char name[SEGMENT_SIZE];
    int index;
    const char *rest = split(path, name, &index);
    if (node_of(x->tree, at)->type != YAML_MAPPING_NODE) return refuse(x, "there is no mapping to set a key in at", name);
    if (!rest) {
        if (index >= 0) return refuse(x, "ends in a list item; name a key of it instead:", path);
        int copy = yaml_edit_copy(x->tree, &x->w->tree, x->value_node);
        return copy && yaml_edit_set(x->tree, at, name, copy, &x->w->tree, x->key_node);
    }
    ynode *child = yaml_map_get(x->tree, node_of(x->tree, at), name);
    int id = yaml_node_id(x->tree, child);
    if (root && strcmp(name, "cases") == 0) {
        int ids[SCENARIO_MAX_CASES];
        int count = child ? case_nodes(x->tree, id, ids, SCENARIO_MAX_CASES) : 0;
        if (index >= count) {
            char which[64];
            snprintf(which, sizeof which, "cases[%d] (it has %d)", index, count);
            return refuse(x, "names a case the scenario does not have:", which);
        }
        for (int i = index >= 0 ? index : 0; i < (index >= 0 ? index + 1 : count); i++)
            if (!apply(x, ids[i], rest, false)) return false;
        return true;
    }
    if (child && child->type == YAML_SCALAR_NODE && strcmp(name, "platform") == 0 && !(id = inline_platform(x, at, id)))
        return false;
    if (!child) {
        id = yaml_edit_new_mapping(x->tree, &x->w->tree, x->key_node);
        if (!id || !yaml_edit_set(x->tree, at, name, id, &x->w->tree, x->key_node)) return false;
    }
    if (index >= 0) {
        ynode *list = node_of(x->tree, id);
        if (index >= yaml_sequence_length(list)) return refuse(x, "names a list item the scenario does not have:", path);
        id = yaml_node_id(x->tree, yaml_sequence_item(x->tree, list, index));
    }
    return apply(x, id, rest, false);
}

bool sweep_derive(sweep *w, const int *values, const int *key_nodes, scenario *s, diag *d)
{
    yaml_tree tree;
    if (!yaml_tree_load(&tree, w->base_path, d)) {
        yaml_tree_free(&tree);
        return false;
    }
    int root = yaml_node_id(&tree, yaml_tree_root(&tree));
    bool ok = yaml_expect_mapping(&tree, yaml_tree_root(&tree), "a scenario", d);
    for (int a = 0; ok && a < w->axis_count; a++) {
        if (!values[a]) continue;
        derive_context x = {w, &tree, w->axes[a].key, key_nodes[a], values[a], d};
        ok = apply(&x, root, w->axes[a].key, true);
        if (!ok && !d->set) refuse(&x, "could not be set (libyaml refused the copy):", w->axes[a].key);
    }
    if (!ok) {
        yaml_tree_free(&tree);
        return false;
    }
    if (!scenario_load_tree(&tree, w->base_path, s, d)) return false;
    if (plan_check(s, MODE_RUN, NETWORK_DEFAULT, d)) return true;
    scenario_free(s);
    return false;
}
