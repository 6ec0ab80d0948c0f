/* yaml_edit.h — changing a loaded YAML document before it is read: a node
 * copied in from another document (with the positions and the file it was
 * read from, so that a message about it names that file), a mapping's key
 * set, and a node's canonical one-line text.
 *
 * libyaml keeps a document's nodes in one array that grows as nodes are
 * added, so a node pointer is stale after any call here: these functions
 * take and return node ids (1-based), never pointers. */
#ifndef COLLSIM_YAML_EDIT_H
#define COLLSIM_YAML_EDIT_H

#include <stdbool.h>
#include <stdio.h>

#include "yaml/yaml_tree.h"

/* The id of NODE in TREE (0 for NULL). */
int yaml_node_id(const yaml_tree *tree, const ynode *node);

/* A copy in INTO of node FROM_ID of FROM and everything under it, keeping
 * each node's positions and file; its id, or 0 when libyaml refuses. */
int yaml_edit_copy(yaml_tree *into, yaml_tree *from, int from_id);

/* A new empty mapping in TREE placed at AT (positions of node AT_ID of
 * AT's tree); its id. */
int yaml_edit_new_mapping(yaml_tree *tree, const yaml_tree *at, int at_id);

/* In mapping MAP_ID of TREE, KEY's value becomes node VALUE_ID; a key it
 * lacks is added, placed at node KEY_AT_ID of AT's tree (where the edit was
 * asked for).  False when MAP_ID is not a mapping. */
bool yaml_edit_set(yaml_tree *tree, int map_id, const char *key, int value_id, const yaml_tree *at, int key_at_id);

/* NODE as one line of flow YAML: a scalar as written (quoted when it holds
 * a character that flow YAML reads otherwise), [a, b], {k: v}. */
void yaml_canonical_text(yaml_tree *tree, const ynode *node, FILE *out);

#endif
