/* yaml_tree.h — a YAML document loaded with libyaml, with every node's source
 * position kept, and the small set of typed accessors that platform and
 * scenario readers need.  Accessors report errors as FILE:LINE:COL through a
 * diag, naming the key and what was expected.
 *
 * Loading is bounded (docs/reliability.md): a regular file of at most
 * YAML_MAX_BYTES, one document, nesting at most YAML_MAX_DEPTH deep, at most
 * YAML_MAX_NODES nodes, all checked on libyaml's event stream before the
 * document is built (libyaml itself has no limit, and its time grows with the
 * square of the nesting depth). */
#ifndef COLLSIM_YAML_TREE_H
#define COLLSIM_YAML_TREE_H

#include <stdbool.h>
#include <yaml.h>

#include "util/diag.h"
#include "util/input_file.h"
#include "util/units.h"

#define YAML_MAX_BYTES (4L << 20) /* 4 MiB: shipped files are under 10 KB */
#define YAML_MAX_DEPTH 64         /* scenarios nest 7 deep */
#define YAML_MAX_NODES (1L << 20) /* a 1024 x 1024 skew matrix */

/* Nodes added to a document after it was loaded (yaml_edit.h: a sweep's
 * axis values, a platform file inlined) keep the file they were read from:
 * node ids from FIRST on, up to the next origin's, come from PATH. */
typedef struct yaml_origin {
    int first;
    char path[512];
} yaml_origin;

/* What a YAML file may be (util/input_file.h): a regular file of at most
 * YAML_MAX_BYTES. */
extern const input_kind yaml_file_kind;

typedef struct yaml_tree {
    yaml_document_t document;
    char path[512];
    bool loaded;
    yaml_origin *origins;  /* ascending FIRST; nodes before the first are PATH's */
    int origin_count;
} yaml_tree;

typedef yaml_node_t ynode;

/* Load the single YAML document of PATH.  False (with diag) on I/O or syntax
 * errors, or past a limit; the tree then holds nothing (freeing it is harmless). */
bool yaml_tree_load(yaml_tree *tree, const char *path, diag *d);
/* Load from an in-memory string; NAME is used in messages. */
bool yaml_tree_load_string(yaml_tree *tree, const char *name, const char *text, diag *d);
void yaml_tree_free(yaml_tree *tree);

ynode *yaml_tree_root(yaml_tree *tree);
/* The file NODE was read from: the tree's own, or an added node's origin. */
const char *yaml_node_file(const yaml_tree *tree, const ynode *node);

/* Report an error positioned at NODE. Returns false. */
bool yaml_error(const yaml_tree *tree, const ynode *node, diag *d, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Mapping helpers.  NODE must be a mapping (checked by yaml_expect_mapping). */
bool yaml_expect_mapping(const yaml_tree *tree, const ynode *node, const char *what, diag *d);
ynode *yaml_map_get(yaml_tree *tree, const ynode *map, const char *key);
/* Fails on the first key not in ALLOWED (NULL-terminated), naming the allowed set. */
bool yaml_map_check_keys(yaml_tree *tree, const ynode *map, const char *const *allowed, diag *d);
/* Fails if KEY is absent, positioned at the mapping. */
ynode *yaml_map_require(yaml_tree *tree, const ynode *map, const char *key, diag *d);

/* Scalar readers. Each fails with a message naming KEY when the node is not the expected type. */
bool yaml_read_string(yaml_tree *tree, const ynode *node, const char *key, const char **out, diag *d);
/* A whole number from MIN to MAX (every count collsim reads fits an int). */
bool yaml_read_int(yaml_tree *tree, const ynode *node, const char *key, long min, long max, int *out, diag *d);
bool yaml_read_quantity(yaml_tree *tree, const ynode *node, const char *key, unit_kind kind,
                        bool allow_zero, double *out, diag *d);
/* A plain number (a ratio: efficiency, oversubscription, eta, factor) from
 * YAML_MIN_RATIO to YAML_MAX_RATIO: beyond them times overflow to infinity. */
#define YAML_MIN_RATIO 1e-6
#define YAML_MAX_RATIO 1e6
bool yaml_read_positive_number(yaml_tree *tree, const ynode *node, const char *key, double *out, diag *d);
/* NODE must be a list (a scalar where a list belongs is a mistake, not an
 * empty list): its length, or -1 with a message naming KEY and EXAMPLE. */
int yaml_read_list(yaml_tree *tree, const ynode *node, const char *key, const char *example, diag *d);

/* Sequence helpers. */
int yaml_sequence_length(const ynode *node);
ynode *yaml_sequence_item(yaml_tree *tree, const ynode *node, int index);

#endif
