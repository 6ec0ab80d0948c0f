/* traffic_spec.h — `traffic:` of a case (docs/scenarios.md, "Traffic"):
 * point-to-point flows read from a traffic matrix file (net/traffic_matrix.h,
 * rows or htsim's connection matrix), or open-loop synthetic traffic on the
 * packet model (net/packet/synthetic.h).  A traffic case has no primitive,
 * algorithms or sizes; its rows report flow completion times or delivered
 * throughput (docs/output.md). */
#ifndef COLLSIM_TRAFFIC_SPEC_H
#define COLLSIM_TRAFFIC_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "net/flow.h"
#include "net/packet/synthetic.h"
#include "platform/topology.h"
#include "util/diag.h"
#include "yaml/yaml_tree.h"

typedef enum { TRAFFIC_NONE, TRAFFIC_MATRIX, TRAFFIC_SYNTHETIC } traffic_kind;

typedef struct traffic_case {
    traffic_kind kind;
    int line, column;          /* where `traffic:` is, for messages at run time */
    flow *flows;               /* matrix: its flows, in file order (owned) */
    int flow_count;
    synthetic_spec synthetic;  /* synthetic: sources and sinks are `ports` (owned) */
    int *ports;
    char text[112];            /* what it is, for the report: "matrix perm.cm", "uniform bernoulli load 0.8" */
} traffic_case;

/* Read NODE (the value of `traffic:`) of a case in the scenario at PATH,
 * for platform T, into OUT; a matrix file's mistakes are refused at their
 * own FILE:LINE:COL. */
bool traffic_read(yaml_tree *tree, ynode *node, const char *path, const topology *t, traffic_case *out, diag *d);
void traffic_free(traffic_case *c);

#endif
