/* library.h — a platform's collective library and its published figures
 * (docs/platforms.md, "The collective library"): which library runs the
 * collectives (`library: nccl | rccl | none`), the GPUs' generation
 * (`architecture:`), the protocols the library enables (`protocols:`), its
 * bus-bandwidth caps (`ll_max_bw`, `ll128_max_bw`) and NVLS's derating
 * (`nvls_efficiency`, NCCL's per-architecture figure by default). */
#ifndef COLLSIM_LIBRARY_H
#define COLLSIM_LIBRARY_H

#include <stdbool.h>

#include "platform/topology.h"
#include "util/diag.h"
#include "yaml/yaml_tree.h"

/* The top-level keys library_read reads, NULL-terminated. */
extern const char *const library_keys[];

/* Read those keys of the platform mapping MAP into T; false with D set
 * (FILE:LINE:COL and the fix). */
bool library_read(yaml_tree *tree, ynode *map, topology *t, diag *d);

/* NCCL's algorithm rows of its tuning tables, the families a log names
 * (NCCL_ALGO) and a calibrated group measured: the protocol figures an
 * algorithm's schedule takes (docs/model.md, "Protocols"). */
typedef enum { FAMILY_RING, FAMILY_TREE, FAMILY_NVLS } algorithm_family;

/* FAMILY's name (ring, tree, nvls); its family from NAME, or -1. */
const char *algorithm_family_name(int family);
int algorithm_family_from_name(const char *name);

const char *library_name(collective_library l);
const char *architecture_name(gpu_architecture a);

#endif
