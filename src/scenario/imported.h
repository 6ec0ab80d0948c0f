/* imported.h — `algorithms: [msccl:PATH.xml]` in a case: an MSCCL algorithm
 * file read beside the built-in algorithms (docs/schedules.md). */
#ifndef COLLSIM_IMPORTED_H
#define COLLSIM_IMPORTED_H

#include "scenario/scenario.h"
#include "yaml/yaml_tree.h"

#define IMPORTED_PREFIX "msccl:"

/* Read algorithm I of case C, NAME ("msccl:PATH", at ITEM; PATH relative to
 * the scenario's folder): the file's program and its record. */
bool imported_read(yaml_tree *tree, ynode *item, const scenario *s, scenario_case *c, int i, const char *name, diag *d);
/* Once the case is read (its groups, root, channels, skew): every imported
 * algorithm of C builds on its groups, or D names the file's line. */
bool imported_check(yaml_tree *tree, ynode *node, scenario_case *c, diag *d);
void imported_free(scenario_case *c);

#endif
