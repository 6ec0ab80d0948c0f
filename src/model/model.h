/* model.h — the analytic α-β model beside every simulated time (docs/model.md):
 * for a (platform, primitive, algorithm, N, M, P) the seed formula's n_α, n_β,
 * α, BW and predicted time, split into per-tier terms so hierarchical
 * schedules (03 §2.1, §2.2) and per-tier η (05 §4.2) have a place to live.
 *
 *   t = launch + Σ_terms  η_α · n_α · α  +  n_α · o  +  n_β · M / (η_β · e · BW)
 *
 * launch is the per-collective cost (the platform's `launch` plus the
 * protocol's base latency, NCCL's baseLat, plus its per-hop latency once
 * per step of the collective), o the sender overhead of the term's tier per
 * message on the critical path (LogP's o), e the protocol's wire efficiency
 * (under its bandwidth cap); without them (the seed's model) launch = o = 0
 * and e = 1.
 *
 * n_β of a term is in units of the case's M (a hierarchical outer phase that
 * ships M·L/N carries that factor in its n_β).  docs/model.md lists every
 * formula with its seed section. */
#ifndef COLLSIM_MODEL_H
#define COLLSIM_MODEL_H

#include <stdbool.h>

#include "algo/algorithm.h"
#include "model/protocol.h"
#include "platform/topology.h"
#include "sched/schedule.h"

#define MODEL_MAX_TERMS 4

/* Which closed form a pipelined schedule is predicted with (01 App. C). */
typedef enum {
    FORM_EXACT,      /* the finite-P master formula (L+P-1)(α + M/(P·BW)) at the P that runs */
    FORM_ASYMPTOTIC, /* its large-M floor L·α + M/BW, the form of the seed's tables */
    FORM_SEED        /* as exact, without the real-system terms (docs/model.md): a hop pays its tier's α (no NVLink
                        relay on rail fabrics), channels gain nothing, no launch, overhead or protocol */
} model_form;

/* η of one tier (05 §4): η_α ≥ 1 inflates α, η_β ≤ 1 deflates BW. */
typedef struct eta_pair {
    double alpha, beta;
} eta_pair;

typedef enum { ETA_IDEAL, ETA_SEED, ETA_GIVEN } eta_mode;

/* A scenario's `eta:` (ideal, seed, or numbers, for every tier or per tier). */
typedef struct eta_profile {
    eta_mode mode;
    eta_pair all;                          /* ETA_GIVEN without per-tier entries */
    int tier_count;                        /* ETA_GIVEN per tier: tier names and values */
    char tier_names[TOPO_MAX_TIERS][24];
    eta_pair tiers[TOPO_MAX_TIERS];
} eta_profile;

typedef struct model_term {
    int tier;                  /* index into the platform's tiers */
    int phase;                 /* schedule phase this term times, -1 for the whole collective */
    char label[24];            /* "inner RS", "outer AR", ... or the algorithm */
    double n_alpha, n_beta;    /* counts against alpha_s and M / bandwidth_Bps */
    double alpha_s, bandwidth_Bps; /* bandwidth_Bps: the data rate, the protocol's efficiency applied */
    double overhead_s;         /* sender overhead per message of this tier (0 in the seed's model) */
    eta_pair eta;              /* from the case's η profile (1, 1 when ideal) */
} model_term;

typedef struct prediction {
    double launch_s;           /* per collective (in time_s and ideal_s) */
    double time_s;             /* with η applied */
    double ideal_s;            /* η = 1 */
    /* The whole collective as one α-β pair, against the bottleneck term's α
     * and BW (the term of smallest BW, 03 §2.1's BW_bottleneck; the first of
     * equals): n_alpha·alpha_s = Σ n_α α and n_beta / bandwidth_Bps = Σ n_β / BW. */
    double n_alpha, n_beta, alpha_s, bandwidth_Bps;
    int term_count;
    model_term terms[MODEL_MAX_TERMS];
    const char *formula;       /* the closed form, in the seed's notation */
    const char *seed;          /* where it comes from */
    const char *alternative;   /* where the seed texts state another form (DBT's BW term), else NULL */
    endpoint_costs costs;      /* what the terms and launch_s charge (model_case_costs) */
    int slices;                /* hierarchical_pipelined: its terms are per slice of M/slices until piped (else 1) */
} prediction;

typedef struct model_case {
    const topology *platform;
    primitive prim;
    const algorithm *algorithm; /* looked up once (algorithm_find); its traits decide the form */
    int ranks;
    const int *members;        /* the group's platform ranks (NULL: ranks 0..ranks-1, the whole platform) */
    double size_bytes;
    int segments;              /* P the schedule runs (pipelined algorithms; 0 or 1 otherwise) */
    int root, peer;            /* BC / Reduce root; sendrecv endpoints */
    unsigned long long seed;   /* permutation: its derangement's seed */
    const char *inner, *outer; /* hierarchical tiers' algorithms (NULL: ring) */
    model_form form;
    double c_real;             /* DBT's BW coefficient (01 §5.3's c_real; 0: 2, 00 §4's row) */
    protocol_id protocol;      /* PROTOCOL_NONE: the seed's model (no protocol costs) */
    int channels;              /* NCCL-style channels (0 or 1: one) */
    const eta_profile *eta;    /* NULL: ideal */
    const schedule *sched;     /* an imported algorithm's schedule, predicted by its critical path (schedule_path.c) */
} model_case;

/* The prediction for C; false with WHY when the algorithm is unknown. */
bool model_predict(const model_case *c, prediction *out, char *why, int why_size);

/* Whether C is predicted from its schedule (c->sched, its critical path:
 * model/schedule_path.c) rather than a closed form: an imported MSCCL
 * algorithm, or NCCL's tree on nodes whose GPUs are a full mesh.  Without
 * the schedule such a tree falls back on the chains' closed form. */
bool model_needs_schedule(const model_case *c);

/* The endpoint costs C runs with (protocol.c's, then NCCL's per-step
 * latency charged once per step of the collective — the steps of its
 * prediction without the pipeline's fill or slicing, `form: asymptotic` —
 * and added to the launch, and the protocol's bus-bandwidth cap turned into
 * a wire ratio: when C's predicted bus bandwidth, C(N)·M over its BW terms
 * at the links' simulated rate, exceeds the cap, every byte travels with
 * bus/cap as many wire bytes).  The executor and model_predict charge these
 * same costs; false with WHY as model_predict. */
bool model_case_costs(const model_case *c, endpoint_costs *out, char *why, int why_size);

/* η of tier TIER for case C under PROFILE (05 §4.1 / §4.2 for ETA_SEED). */
eta_pair model_eta(const eta_profile *profile, const model_case *c, int tier);

/* The highest tier any route of C's group climbs (a flat schedule's tier). */
int model_group_tier(const model_case *c);

/* Time of one term (with or without its η). */
double model_term_time(const model_term *t, double size_bytes, bool with_eta);

/* The size M* at which two predictions' linear forms t = A + B·M (η
 * applied, A and B read from their terms) cross: 01 §5.3, App. B.3.  False
 * when they do not cross at a positive size. */
bool model_crossover(const prediction *a, const prediction *b, double *size_bytes);
/* P's linear form t = A + B·M: A the η-weighted α terms, overheads and
 * launch, B the η-weighted bandwidth terms (what model_crossover crosses). */
void model_linear_form(const prediction *p, double *intercept_s, double *slope_s_per_byte);
/* Where two linear forms cross at a positive size (model_crossover's rule). */
bool model_forms_cross(double intercept_a, double slope_a, double intercept_b, double slope_b, double *size_bytes);

#endif
