/* yaml_tree.c — libyaml document loading and typed, position-aware accessors. */
#include "yaml/yaml_tree.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool load_with_parser(yaml_tree *tree, yaml_parser_t *parser, diag *d)
{
    if (!yaml_parser_load(parser, &tree->document)) {
        diag_at(d, tree->path, (int)parser->problem_mark.line + 1, (int)parser->problem_mark.column + 1,
                "YAML syntax error: %s%s%s", parser->problem ? parser->problem : "unknown problem",
                parser->context ? " " : "", parser->context ? parser->context : "");
        return false;
    }
    tree->loaded = true;
    if (!yaml_document_get_root_node(&tree->document))
        return diag_at(d, tree->path, 1, 1, "the file is empty: expected a YAML mapping");
    yaml_document_t extra;
    if (yaml_parser_load(parser, &extra)) {
        bool more = yaml_document_get_root_node(&extra) != NULL;
        int line = more ? (int)yaml_document_get_root_node(&extra)->start_mark.line + 1 : 0;
        yaml_document_delete(&extra);
        if (more)
            return diag_at(d, tree->path, line, 1,
                           "a second YAML document ('---'): one file describes one platform or scenario");
    }
    return true;
}

bool yaml_tree_load(yaml_tree *tree, const char *path, diag *d)
{
    memset(tree, 0, sizeof *tree);
    snprintf(tree->path, sizeof tree->path, "%s", path);
    FILE *file = fopen(path, "rb");
    if (!file) return diag_at(d, path, 0, 0, "cannot open: %s", strerror(errno));
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, file);
    bool ok = load_with_parser(tree, &parser, d);
    yaml_parser_delete(&parser);
    fclose(file);
    return ok;
}

bool yaml_tree_load_string(yaml_tree *tree, const char *name, const char *text, diag *d)
{
    memset(tree, 0, sizeof *tree);
    snprintf(tree->path, sizeof tree->path, "%s", name);
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    bool ok = load_with_parser(tree, &parser, d);
    yaml_parser_delete(&parser);
    return ok;
}

void yaml_tree_free(yaml_tree *tree)
{
    if (tree->loaded) yaml_document_delete(&tree->document);
    tree->loaded = false;
}

ynode *yaml_tree_root(yaml_tree *tree)
{
    return yaml_document_get_root_node(&tree->document);
}

bool yaml_error(const yaml_tree *tree, const ynode *node, diag *d, const char *fmt, ...)
{
    char message[sizeof d->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    int line = node ? (int)node->start_mark.line + 1 : 0;
    int column = node ? (int)node->start_mark.column + 1 : 0;
    return diag_at(d, tree->path, line, column, "%s", message);
}

static const char *scalar_text(const ynode *node)
{
    return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

bool yaml_expect_mapping(const yaml_tree *tree, const ynode *node, const char *what, diag *d)
{
    if (node && node->type == YAML_MAPPING_NODE) return true;
    return yaml_error(tree, node, d, "%s must be a mapping of 'key: value' lines", what);
}

static ynode *node_at(yaml_tree *tree, int index)
{
    return yaml_document_get_node(&tree->document, index);
}

ynode *yaml_map_get(yaml_tree *tree, const ynode *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        const char *k = scalar_text(node_at(tree, pair->key));
        if (k && strcmp(k, key) == 0) return node_at(tree, pair->value);
    }
    return NULL;
}

bool yaml_map_check_keys(yaml_tree *tree, const ynode *map, const char *const *allowed, diag *d)
{
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
        ynode *key_node = node_at(tree, pair->key);
        const char *k = scalar_text(key_node);
        if (!k) return yaml_error(tree, key_node, d, "keys must be plain names");
        bool known = false;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, k) == 0) known = true;
        if (known) {
            for (yaml_node_pair_t *other = map->data.mapping.pairs.start; other < pair; other++) {
                const char *earlier = scalar_text(node_at(tree, other->key));
                if (earlier && strcmp(earlier, k) == 0)
                    return yaml_error(tree, key_node, d, "key '%s' appears twice: keep one", k);
            }
            continue;
        }
        char list[512] = "";
        for (const char *const *a = allowed; *a; a++) {
            if (list[0]) strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, *a, sizeof list - strlen(list) - 1);
        }
        return yaml_error(tree, key_node, d, "unknown key '%s': expected one of %s", k, list);
    }
    return true;
}

ynode *yaml_map_require(yaml_tree *tree, const ynode *map, const char *key, diag *d)
{
    ynode *value = yaml_map_get(tree, map, key);
    if (!value) yaml_error(tree, map, d, "missing key '%s'", key);
    return value;
}

bool yaml_read_string(yaml_tree *tree, const ynode *node, const char *key, const char **out, diag *d)
{
    const char *text = scalar_text(node);
    if (!text || !text[0]) return yaml_error(tree, node, d, "'%s' must be a non-empty text value", key);
    *out = text;
    return true;
}

bool yaml_read_positive_int(yaml_tree *tree, const ynode *node, const char *key, long *out, diag *d)
{
    const char *text = scalar_text(node);
    if (!text) return yaml_error(tree, node, d, "'%s' must be a positive whole number", key);
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno)
        return yaml_error(tree, node, d, "'%s' must be a positive whole number, not '%s'", key, text);
    if (v <= 0) return yaml_error(tree, node, d, "'%s' must be positive, not %ld", key, v);
    *out = v;
    return true;
}

bool yaml_read_positive_number(yaml_tree *tree, const ynode *node, const char *key, double *out, diag *d)
{
    const char *text = scalar_text(node);
    if (!text) return yaml_error(tree, node, d, "'%s' must be a positive number", key);
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v))
        return yaml_error(tree, node, d, "'%s' must be a positive number, not '%s'", key, text);
    if (v <= 0) return yaml_error(tree, node, d, "'%s' must be positive, not %s", key, text);
    *out = v;
    return true;
}

bool yaml_read_quantity(yaml_tree *tree, const ynode *node, const char *key, unit_kind kind,
                        bool allow_zero, double *out, diag *d)
{
    const char *text = scalar_text(node);
    if (!text) return yaml_error(tree, node, d, "'%s' must be a single value with a unit", key);
    char why[256];
    double v;
    if (!units_parse(text, kind, &v, why, sizeof why)) return yaml_error(tree, node, d, "'%s': %s", key, why);
    if (v < 0 || (v == 0 && !allow_zero))
        return yaml_error(tree, node, d, "'%s' must be %s, not '%s'", key, allow_zero ? "zero or more" : "positive", text);
    *out = v;
    return true;
}

int yaml_sequence_length(const ynode *node)
{
    if (!node || node->type != YAML_SEQUENCE_NODE) return -1;
    return (int)(node->data.sequence.items.top - node->data.sequence.items.start);
}

ynode *yaml_sequence_item(yaml_tree *tree, const ynode *node, int index)
{
    return node_at(tree, node->data.sequence.items.start[index]);
}
