/* skew.h — all-to-all traffic that is not uniform (docs/scenarios.md, `skew:`; the
 * skewed MoE routing of explainer 05 §3.3).  Each rank still sends M in all
 * on average, but block (s, d) carries w(s, d)·M/N with
 *   uniform    w = 1,
 *   zipf(S)    w(s, d) = N · z(d) / Σ z,  z(d) = 1 / (d + 1)^S: destination
 *              (expert) d's popularity falls as a Zipf law, group rank 0
 *              the hottest, the same for every source,
 *   a matrix   [[w00, w01, ...], ...] (N x N, source-major, any scale:
 *              normalised to mean 1).
 * The analytic model prices uniform traffic; the gap is the skew's η. */
#ifndef COLLSIM_SKEW_H
#define COLLSIM_SKEW_H

#include <stdbool.h>

#include "util/diag.h"
#include "yaml/yaml_tree.h"

typedef enum { SKEW_UNIFORM, SKEW_ZIPF, SKEW_MATRIX } skew_kind;

typedef struct a2a_skew {
    skew_kind kind;
    double exponent;   /* zipf's S */
    int n;             /* matrix side */
    double *matrix;    /* n x n, normalised to mean 1; owned */
    char text[32];     /* as given: "uniform", "zipf(1.2)", "matrix" */
} a2a_skew;

/* Read NODE (the value of `skew:`) for groups of GROUP_SIZE ranks. */
bool skew_read(yaml_tree *tree, ynode *node, int group_size, a2a_skew *out, diag *d);
/* The N x N block weights (mean 1), or NULL for uniform traffic; caller frees. */
double *skew_block_weights(const a2a_skew *k, int n);
void skew_free(a2a_skew *k);

#endif
