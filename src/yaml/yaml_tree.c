/* yaml_tree.c — libyaml document loading and typed, position-aware accessors. */
#include "yaml/yaml_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/input_file.h"

/* libyaml's complaint about TEXT at its position; a reader error (an
 * invalid byte) has an offset instead of a mark. */
static bool syntax_error(const yaml_tree *tree, const yaml_parser_t *parser, const unsigned char *text, diag *d)
{
    int line = (int)parser->problem_mark.line + 1, column = (int)parser->problem_mark.column + 1;
    char detail[32] = "";
    if (parser->error == YAML_READER_ERROR) {
        line = column = 1;
        for (size_t i = 0; i < parser->problem_offset; i++, column++)
            if (text[i] == '\n') line++, column = 0;
        if (parser->problem_value >= 0) snprintf(detail, sizeof detail, " (byte 0x%02x)", (unsigned)parser->problem_value);
    }
    return diag_at(d, tree->path, line, column, "YAML syntax error: %s%s%s%s",
                   parser->problem ? parser->problem : "unknown problem", detail, parser->context ? " " : "",
                   parser->context ? parser->context : "");
}

static bool event_error(const yaml_tree *tree, const yaml_event_t *event, diag *d, const char *message)
{
    return diag_at(d, tree->path, (int)event->start_mark.line + 1, (int)event->start_mark.column + 1, "%s", message);
}

/* One event against the limits: DEPTH and NODES so far, DOCUMENTS seen. */
static bool event_allowed(const yaml_tree *tree, const yaml_event_t *event, int *depth, long *nodes, int *documents,
                          diag *d)
{
    switch (event->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++*documents > 1)
            return event_error(tree, event, d, "a second YAML document ('---'): one file describes one platform or scenario");
        return true;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        --*depth;
        return true;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (++*depth > YAML_MAX_DEPTH)
            return event_error(tree, event, d, "lists and mappings nest more than 64 levels deep here: collsim's files "
                               "nest a few levels (a case's groups are 4 deep); flatten the file");
        break;
    case YAML_SCALAR_EVENT:
    case YAML_ALIAS_EVENT:
        break;
    default:
        return true;
    }
    if (++*nodes > YAML_MAX_NODES)
        return event_error(tree, event, d, "more than 1048576 values: collsim reads YAML files of at most 1048576 "
                           "values (a 1024 x 1024 skew matrix); split the file");
    return true;
}

/* libyaml's event stream of TEXT checked against the limits, before any
 * document is built: one document, the nesting depth, the node count. */
static bool check_events(const yaml_tree *tree, const unsigned char *text, size_t length, diag *d)
{
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, text, length);
    int depth = 0, documents = 0;
    long nodes = 0;
    bool ok = true, end = false;
    while (ok && !end) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            ok = syntax_error(tree, &parser, text, d);
            break;
        }
        end = event.type == YAML_STREAM_END_EVENT;
        ok = event_allowed(tree, &event, &depth, &nodes, &documents, d);
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    if (ok && documents == 0) ok = diag_at(d, tree->path, 1, 1, "the file is empty: expected a YAML mapping");
    return ok;
}

/* TEXT (LENGTH bytes) into TREE's document. */
static bool load_text(yaml_tree *tree, const unsigned char *text, size_t length, diag *d)
{
    if (!check_events(tree, text, length, d)) return false;
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, text, length);
    bool ok = yaml_parser_load(&parser, &tree->document) || syntax_error(tree, &parser, text, d);
    yaml_parser_delete(&parser);
    if (!ok) return false;
    tree->loaded = true;
    if (yaml_document_get_root_node(&tree->document)) return true;
    yaml_tree_free(tree);
    return diag_at(d, tree->path, 1, 1, "the file is empty: expected a YAML mapping");
}

const input_kind yaml_file_kind = {
    .name = "a YAML file", .example = "a .yaml file",
    .fifo_advice = "collsim reads platform and scenario files whole, and relative paths in them from their folder; "
                   "save the YAML to a file",
    .max_bytes = YAML_MAX_BYTES, .max_text = "4 MiB"};

bool yaml_tree_load(yaml_tree *tree, const char *path, diag *d)
{
    memset(tree, 0, sizeof *tree);
    snprintf(tree->path, sizeof tree->path, "%s", path);
    size_t length = 0;
    unsigned char *text = (unsigned char *)input_read(path, &yaml_file_kind, &length, d);
    bool ok = text && load_text(tree, text, length, d);
    free(text);
    return ok;
}

bool yaml_tree_load_string(yaml_tree *tree, const char *name, const char *text, diag *d)
{
    memset(tree, 0, sizeof *tree);
    snprintf(tree->path, sizeof tree->path, "%s", name);
    size_t length = strlen(text);
    if (length > (size_t)YAML_MAX_BYTES) return diag_at(d, name, 0, 0, "is larger than 4 MiB, the largest YAML text collsim reads");
    return load_text(tree, (const unsigned char *)text, length, d);
}

void yaml_tree_free(yaml_tree *tree)
{
    if (tree->loaded) yaml_document_delete(&tree->document);
    tree->loaded = false;
    free(tree->origins);
    tree->origins = NULL;
    tree->origin_count = 0;
}

const char *yaml_node_file(const yaml_tree *tree, const ynode *node)
{
    int id = node ? (int)(node - tree->document.nodes.start) + 1 : 0;
    const char *path = tree->path;
    for (int i = 0; i < tree->origin_count && tree->origins[i].first <= id; i++) path = tree->origins[i].path;
    return path;
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
    return diag_at(d, yaml_node_file(tree, node), line, column, "%s", message);
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

bool yaml_read_int(yaml_tree *tree, const ynode *node, const char *key, long min, long max, int *out, diag *d)
{
    const char *text = scalar_text(node);
    char *end = NULL;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    bool number = text && end != text && *end == '\0';
    if (number && !errno && v >= min && v <= max) {
        *out = (int)v;
        return true;
    }
    return yaml_error(tree, node, d, "'%s' must be a whole number from %ld to %ld, not '%s'", key, min, max,
                      text ? text : "a list or mapping");
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
    if (v < YAML_MIN_RATIO || v > YAML_MAX_RATIO)
        return yaml_error(tree, node, d, "'%s' must be from %g to %g, not %s", key, YAML_MIN_RATIO, YAML_MAX_RATIO, text);
    *out = v;
    return true;
}

int yaml_read_list(yaml_tree *tree, const ynode *node, const char *key, const char *example, diag *d)
{
    int n = yaml_sequence_length(node);
    if (n < 0) yaml_error(tree, node, d, "'%s' must be a list, e.g. %s, not %s", key, example,
                          node && node->type == YAML_SCALAR_NODE ? "a single value" : "a mapping");
    return n;
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
