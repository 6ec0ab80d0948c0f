/* yaml_edit.c — copying nodes between documents, setting a mapping's key,
 * canonical one-line text (yaml_edit.h).
 *
 * Invariants:
 *   1. Every node added keeps a file: the origin list of the tree it is
 *      added to says which file each id range came from (yaml_tree.h).
 *   2. A copied node keeps its source positions, so a message about it is
 *      FILE:LINE:COL in the file it was written in. */
#include "yaml/yaml_edit.h"

#include <stdlib.h>
#include <string.h>

int yaml_node_id(const yaml_tree *tree, const ynode *node)
{
    return node ? (int)(node - tree->document.nodes.start) + 1 : 0;
}

/* Node ID of TREE was read from PATH: extend the origin list if it names another file. */
static void note_origin(yaml_tree *tree, int id, const char *path)
{
    const char *last = tree->origin_count ? tree->origins[tree->origin_count - 1].path : tree->path;
    if (strcmp(last, path) == 0) return;
    tree->origins = realloc(tree->origins, sizeof *tree->origins * (size_t)(tree->origin_count + 1));
    yaml_origin *o = &tree->origins[tree->origin_count++];
    o->first = id;
    snprintf(o->path, sizeof o->path, "%s", path);
}

/* Node ID of TREE takes the positions of SOURCE (of SOURCE_TREE) and its file. */
static void place(yaml_tree *tree, int id, const yaml_tree *source_tree, const ynode *source)
{
    ynode *node = yaml_document_get_node(&tree->document, id);
    node->start_mark = source->start_mark;
    node->end_mark = source->end_mark;
    note_origin(tree, id, yaml_node_file(source_tree, source));
}

int yaml_edit_copy(yaml_tree *into, yaml_tree *from, int from_id)
{
    ynode *node = yaml_document_get_node(&from->document, from_id);
    if (!node) return 0;
    int id = 0;
    yaml_node_type_t type = node->type;
    if (type == YAML_SCALAR_NODE)
        id = yaml_document_add_scalar(&into->document, node->tag, node->data.scalar.value, (int)node->data.scalar.length,
                                      node->data.scalar.style);
    else if (type == YAML_SEQUENCE_NODE)
        id = yaml_document_add_sequence(&into->document, node->tag, YAML_FLOW_SEQUENCE_STYLE);
    else if (type == YAML_MAPPING_NODE)
        id = yaml_document_add_mapping(&into->document, node->tag, YAML_FLOW_MAPPING_STYLE);
    if (!id) return 0;
    place(into, id, from, node);
    if (type == YAML_SEQUENCE_NODE) {
        int count = (int)(node->data.sequence.items.top - node->data.sequence.items.start);
        for (int i = 0; i < count; i++) {
            int item = yaml_document_get_node(&from->document, from_id)->data.sequence.items.start[i];
            int copy = yaml_edit_copy(into, from, item);
            if (!copy || !yaml_document_append_sequence_item(&into->document, id, copy)) return 0;
        }
    } else if (type == YAML_MAPPING_NODE) {
        int count = (int)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
        for (int i = 0; i < count; i++) {
            yaml_node_pair_t pair = yaml_document_get_node(&from->document, from_id)->data.mapping.pairs.start[i];
            int key = yaml_edit_copy(into, from, pair.key), value = key ? yaml_edit_copy(into, from, pair.value) : 0;
            if (!value || !yaml_document_append_mapping_pair(&into->document, id, key, value)) return 0;
        }
    }
    return id;
}

int yaml_edit_new_mapping(yaml_tree *tree, const yaml_tree *at, int at_id)
{
    int id = yaml_document_add_mapping(&tree->document, NULL, YAML_FLOW_MAPPING_STYLE);
    if (id) place(tree, id, at, yaml_document_get_node((yaml_document_t *)&at->document, at_id));
    return id;
}

bool yaml_edit_set(yaml_tree *tree, int map_id, const char *key, int value_id, const yaml_tree *at, int key_at_id)
{
    ynode *map = yaml_document_get_node(&tree->document, map_id);
    if (!map || map->type != YAML_MAPPING_NODE) return false;
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        ynode *k = yaml_document_get_node(&tree->document, pair->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0) {
            pair->value = value_id;
            return true;
        }
    }
    int key_id = yaml_document_add_scalar(&tree->document, NULL, (const yaml_char_t *)key, (int)strlen(key),
                                          YAML_PLAIN_SCALAR_STYLE);
    if (!key_id) return false;
    place(tree, key_id, at, yaml_document_get_node((yaml_document_t *)&at->document, key_at_id));
    return yaml_document_append_mapping_pair(&tree->document, map_id, key_id, value_id) != 0;
}

/* A scalar that flow YAML would read as written: nothing to quote. */
static bool plain(const char *text)
{
    return text[0] && !strpbrk(text, ",[]{}:#'\"\\\n\t") && text[0] != ' ' && text[strlen(text) - 1] != ' ' &&
           !strchr("&*!|>%@`-?", text[0]);
}

void yaml_canonical_text(yaml_tree *tree, const ynode *node, FILE *out)
{
    if (!node) return;
    if (node->type == YAML_SCALAR_NODE) {
        const char *text = (const char *)node->data.scalar.value;
        if (plain(text)) {
            fputs(text, out);
            return;
        }
        fputc('"', out);
        for (const char *p = text; *p; p++) {
            if (*p == '"' || *p == '\\') fputc('\\', out);
            if (*p == '\n') fputs("\\n", out);
            else if (*p == '\t') fputs("\\t", out);
            else fputc(*p, out);
        }
        fputc('"', out);
    } else if (node->type == YAML_SEQUENCE_NODE) {
        fputc('[', out);
        for (int i = 0; i < yaml_sequence_length(node); i++) {
            if (i) fputs(", ", out);
            yaml_canonical_text(tree, yaml_sequence_item(tree, node, i), out);
        }
        fputc(']', out);
    } else if (node->type == YAML_MAPPING_NODE) {
        fputc('{', out);
        for (yaml_node_pair_t *pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; pair++) {
            if (pair > node->data.mapping.pairs.start) fputs(", ", out);
            yaml_canonical_text(tree, yaml_document_get_node(&tree->document, pair->key), out);
            fputs(": ", out);
            yaml_canonical_text(tree, yaml_document_get_node(&tree->document, pair->value), out);
        }
        fputc('}', out);
    }
}
