/* skew.c — reading `skew:` and the block weights of a skewed all-to-all. */
#include "scenario/skew.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void skew_free(a2a_skew *k)
{
    free(k->matrix);
    k->matrix = NULL;
}

static bool read_matrix(yaml_tree *tree, ynode *node, int n, a2a_skew *out, diag *d)
{
    if (yaml_sequence_length(node) != n)
        return yaml_error(tree, node, d, "the skew matrix has %d rows; the group has %d ranks: give %d rows of %d weights",
                          yaml_sequence_length(node), n, n, n);
    for (int s = 0; s < n; s++) { /* every row's length before the N x N matrix is allocated */
        ynode *row = yaml_sequence_item(tree, node, s);
        if (yaml_sequence_length(row) != n)
            return yaml_error(tree, row, d, "row %d of the skew matrix must list %d weights (one per destination)", s, n);
    }
    out->kind = SKEW_MATRIX;
    out->n = n;
    out->matrix = malloc(sizeof(double) * (size_t)n * (size_t)n);
    snprintf(out->text, sizeof out->text, "matrix");
    double total = 0;
    for (int s = 0; s < n; s++) {
        ynode *row = yaml_sequence_item(tree, node, s);
        for (int t = 0; t < n; t++) {
            ynode *item = yaml_sequence_item(tree, row, t);
            const char *text = item->type == YAML_SCALAR_NODE ? (const char *)item->data.scalar.value : "";
            char *end = NULL;
            double w = strtod(text, &end);
            if (end == text || *end != '\0' || !(w >= 0) || !isfinite(w))
                return yaml_error(tree, item, d, "skew weight '%s' must be a number, 0 or more: give the relative traffic "
                                  "from row to column", text);
            out->matrix[s * n + t] = w;
            total += w;
        }
    }
    if (!(total > 0)) return yaml_error(tree, node, d, "the skew matrix is all zeros: some block must carry traffic");
    for (int i = 0; i < n * n; i++) out->matrix[i] *= (double)n * n / total;
    return true;
}

bool skew_read(yaml_tree *tree, ynode *node, int group_size, a2a_skew *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (node->type == YAML_SEQUENCE_NODE) {
        if (!read_matrix(tree, node, group_size, out, d)) {
            skew_free(out);
            return false;
        }
        return true;
    }
    const char *text = node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : "";
    double s;
    char tail;
    if (strcmp(text, "uniform") == 0) out->kind = SKEW_UNIFORM;
    else if (sscanf(text, "zipf(%lf%c", &s, &tail) == 2 && tail == ')' && strchr(text, ')')[1] == '\0') {
        if (!(s > 0) || !isfinite(s))
            return yaml_error(tree, node, d, "zipf's exponent must be greater than 0, e.g. zipf(1.2)");
        out->kind = SKEW_ZIPF;
        out->exponent = s;
    } else
        return yaml_error(tree, node, d, "'skew' takes uniform, zipf(S) (e.g. zipf(1.2)) or an N x N weight matrix");
    snprintf(out->text, sizeof out->text, "%s", text);
    return true;
}

double *skew_block_weights(const a2a_skew *k, int n)
{
    if (k->kind == SKEW_UNIFORM) return NULL;
    double *w = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (k->kind == SKEW_MATRIX) {
        memcpy(w, k->matrix, sizeof(double) * (size_t)n * (size_t)n);
        return w;
    }
    double total = 0;
    for (int t = 0; t < n; t++) total += pow(t + 1, -k->exponent);
    for (int s = 0; s < n; s++)
        for (int t = 0; t < n; t++) w[s * n + t] = n * pow(t + 1, -k->exponent) / total;
    return w;
}
