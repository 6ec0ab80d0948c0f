/* formulas.h — the seed's single-tier closed forms: for each registered
 * (primitive, algorithm), n_α and n_β on N ranks of one tier (explainer 00 §4,
 * 02 §5.1, 01 App. C.3 for pipelined schedules, 04 §1.4 for INC).  The
 * platform-aware parts (tiers, hierarchical composition, A2A per destination
 * class) are predict.c's. */
#ifndef COLLSIM_MODEL_FORMULAS_H
#define COLLSIM_MODEL_FORMULAS_H

#include "model/model.h"

typedef struct counts {
    double n_alpha, n_beta;
} counts;

/* What a closed form depends on besides the primitive and the algorithm. */
typedef struct shape {
    int ranks;
    int segments;          /* P that runs (pipelined forms); 0 → the algorithm's default */
    const int *dims;       /* torus / mesh shape of the group */
    int dim_count;
    bool wraparound;       /* torus (true) or mesh (false) */
    int inc_depth;         /* switch levels of the INC aggregation tree (k of 04 §2.2) */
    double c_real;         /* DBT's BW coefficient (01 §5.3), 0: 2 (00 §4) */
    model_form form;
} shape;

/* A registered algorithm's closed form, keyed by the algorithm record (its
 * build function): COUNTS is NULL for an algorithm predicted by composition
 * (hierarchical parts, NCCL's node tree), NONE then says how. */
typedef struct formula {
    schedule *(*algorithm)(const algo_params *p, char *why, int why_size);
    counts (*counts)(const shape *s);
    const char *text;        /* the closed form */
    const char *seed;        /* its section */
    const char *alternative; /* another closed form the seed texts state, or NULL */
    const char *none;        /* COUNTS NULL: how the algorithm is predicted instead */
} formula;

/* The formula row of algorithm A (one per registered algorithm), or NULL
 * when A has none. */
const formula *formula_of(const algorithm *a);

/* ⌈log2 n⌉ */
int ceil_log2(int n);

/* A term of OUT at TIER (predict.c): its overhead, protocol efficiency and η
 * from OUT's endpoint costs and C's profile. */
void model_add_term(prediction *out, const model_case *c, int tier, int phase, const char *label, counts k,
                    double alpha_s, double bandwidth_Bps);
/* The terms of C's schedule (c->sched) along its critical path at C's size,
 * one per tier its messages climb to (schedule_path.c). */
bool schedule_path_terms(const model_case *c, prediction *out, char *why, int why_size);


#endif
