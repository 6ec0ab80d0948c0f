/* background_spec.h — reading `background:` of a case (docs/scenarios.md):
 * which ranks send background traffic, in which pattern, how hard, with
 * what messages; the result is built and its rate calibrated on the case's
 * platform (net/background.h). */
#ifndef COLLSIM_BACKGROUND_SPEC_H
#define COLLSIM_BACKGROUND_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "net/background.h"
#include "platform/topology.h"
#include "util/diag.h"
#include "yaml/yaml_tree.h"

/* Read NODE (the value of `background:`) for platform T into OUT, and a
 * one-line description into TEXT ("uniform over 24 ranks, 64 KB poisson,
 * load 0.8 of spine"). */
bool background_read(yaml_tree *tree, ynode *node, const topology *t, background *out, char *text, size_t text_size,
                     diag *d);

#endif
