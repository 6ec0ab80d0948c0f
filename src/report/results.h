/* results.h — what a run or a prediction found, before it is rendered:
 * one row per (case, algorithm, size) with its terms and link view, the η
 * fitted per case (analysis/eta_fits.c), the crossovers of a case's
 * algorithms.  docs/output.md describes every field. */
#ifndef COLLSIM_RESULTS_H
#define COLLSIM_RESULTS_H

#include <stdbool.h>

#include "platform/topology.h"
#include "sched/schedule.h"

#define REPORT_MAX_TERMS 4

/* One tier's share of a row (a phase of a hierarchical schedule, or the whole
 * collective when the row has a single term). */
typedef struct row_term {
    char tier[24];             /* platform tier name */
    char label[24];            /* "inner RS", "outer AR", or the algorithm */
    double n_alpha, n_beta, alpha_s, bandwidth_Bps;
    double predicted_s;        /* this term's time with the case's η */
    double time_s;             /* the phase's simulated time; -1 when not timed */
} row_term;

#define REPORT_HOT_LINKS 10

/* One direction of one link in a simulation (the per-link view, docs/output.md):
 * what it carried against what it could have. */
typedef struct link_row {
    int port;                  /* link * 2 + (1 when DOWN): the engine's port */
    char link[48];             /* the platform's name for the link (collsim platform route shows it) */
    bool down;                 /* the direction: UP as the link is built (from its first end), or DOWN */
    char tier[24];
    char from[TOPO_NODE_NAME_SIZE], to[TOPO_NODE_NAME_SIZE]; /* the nodes it joins in this direction, or "TIER tier"
                                                                  (spread's aggregated uplinks: a tier name and 5) */
    double bandwidth_Bps;
    double bytes;              /* carried (packet model: with packet headers) */
    double utilization;        /* bytes / (bandwidth x the simulation's time) */
    double peak_buffer_bytes;  /* packet model: the most the buffer at its far end held; NaN under fluid */
    double mean_buffer_bytes;  /* packet model: that buffer's mean occupancy over the simulation; NaN under fluid */
    double stalled_s;          /* packet model: time it waited for credits with packets ready; NaN under fluid */
} link_row;

/* One flow of a traffic matrix as it ran (a traffic row's per-flow view, docs/output.md). */
typedef struct flow_row {
    int src, dst;              /* platform ranks */
    double size_bytes, start_s;
    double finish_s;           /* its last byte's arrival; its completion time is finish_s - start_s */
} flow_row;

typedef struct result_row {
    int case_index;
    char platform[TOPO_NAME_SIZE]; /* the platform the case runs on (a case may name its own) */
    primitive prim;
    char algorithm[32];        /* what ran (the tuner's pick under `auto`) */
    char inner[32], outer[32]; /* a hierarchical algorithm's tiers' algorithms ("" when not hierarchical) */
    char protocol[8];          /* none (the seed's model), simple, ll128 or ll */
    int channels;              /* NCCL-style channels the schedule ran on */
    bool tuned;                /* algorithm, protocol and channels picked by the tuner (`auto`) */
    double launch_s;           /* per-collective launch cost in predicted_s (platform launch + protocol base) */
    int group;                 /* the slowest of the case's groups: the row's time is its finish */
    int groups;                /* groups of the case, all running at the same time (05 §3.2) */
    char layout[48];           /* how they were laid out: all, list, prefix, strided, random(SEED) */
    char skew[32];             /* all-to-all skew ("" when uniform or not all-to-all) */
    char background[112];      /* the background traffic it ran with ("" when none) */
    double background_load;    /* that background's offered load on its busiest link; NaN when none */
    int block_first, block_count; /* the cases simulated together (`concurrent:`), this one included */
    int ranks;                 /* per group */
    double size_bytes;
    int segments;              /* pipelining segments P of the schedule that ran */
    bool simulated;            /* false under `collsim predict`: time_s and ratio are absent */
    double time_s;             /* simulated: the slowest group's finish */
    double time_fastest_s;     /* simulated: the fastest group's finish */
    double predicted_s;        /* analytic, with the case's η profile */
    double ideal_s;            /* analytic, η = 1 */
    double ratio;              /* time_s / predicted_s */
    double n_alpha, n_beta, alpha_s, bandwidth_Bps; /* ideal counts against the bottleneck tier */
    double algbw_Bps, busbw_Bps; /* of time_s (or of predicted_s under predict), 01 App. D */
    int term_count;
    row_term terms[REPORT_MAX_TERMS];
    double measured_s;         /* from a --measured log of the same collective, ranks and size; 0 when none */
    /* simulated only: the messages of all the case's groups (op_times.h) */
    long messages;
    double latency_p50_s, latency_p99_s, latency_max_s;
    double rank_spread_s;      /* the slowest group's last rank finish minus its first */
    int contended;             /* 1: a message of a group took longer than alone on its route (it shared a link),
                                  0: none did, -1: not known (predict, or a model whose lone message is not
                                  alpha + M/BW: lv08, packet) */
    char calibration[16];      /* on a calibrated platform: "fitted" (a calibrated group covers what ran) or
                                  "not covered" (the published figures); "" on a platform without one */
    char best[48];             /* the case's algorithm of least simulated time at this size ("" : one algorithm,
                                  or predicted only; analysis/eta_fits.c) */
    char slower_than[48];      /* a tuned row: the candidate that simulates over 5 % faster than the pick, or "" */
    bool auto_pick;            /* the case's `auto` entry: the algorithm is the tuner's pick */
    int hot_count;             /* the simulation's busiest link directions, busiest first */
    link_row hot[REPORT_HOT_LINKS];
    link_row *links;           /* every link direction (--links), or NULL; the report owns it */
    int link_count;
    /* a traffic case (docs/scenarios.md, "Traffic"; prim PRIM_TRAFFIC): messages and the latency percentiles
       are its flows' completion times (matrix) or its packets' delays (synthetic) */
    char traffic[112];         /* what ran ("matrix perm.cm", "uniform bernoulli, load 0.8 over 16 ranks"), "" otherwise */
    double latency_min_s, latency_mean_s; /* traffic: the least and the mean of those; NaN otherwise */
    double offered_load, delivered_load;  /* synthetic: packets per packet time per port (1: the link rate); NaN otherwise */
    double delivered_Bps;      /* synthetic: what one port delivered, bytes per second; NaN otherwise */
    flow_row *flows;           /* matrix: every flow, in the file's order, or NULL; the report owns it */
    int flow_count;
} result_row;

/* η of one (case, algorithm, group), whole or for one term (tier). */
typedef struct eta_row {
    int case_index;
    primitive prim;
    char algorithm[32];
    int group;
    char tier[24];             /* "" for the whole collective */
    char label[24];            /* the term's label, "" for the whole collective */
    int points;                /* sizes fitted */
    double eta_alpha, eta_beta;
    double eta_beta_busbw;     /* busbw / BW at the largest M (05 §4.1); whole collective only */
    double max_rel_residual;
    char note[112];            /* why the fit is not a result ("" when it is): too few sizes, η_α < 0, degenerate */
} eta_row;

/* Two algorithms of one case whose predictions cross (01 §5.3, App. B.3). */
typedef struct crossover_row {
    int case_index;
    char a[32], b[32];
    double size_bytes;         /* M* where they take the same time */
    bool simulated;            /* from the simulated times (analysis/eta_fits.c); else predicted: where the
                                  predictions' linear forms A + B·M are equal */
} crossover_row;

typedef struct report {
    const char *scenario, *platform_name, *platform_kind, *model;
    int platform_ranks;
    bool simulated;            /* run (true) or predict (false) */
    bool measured;             /* --measured logs given: the measured columns are printed */
    bool all_links;            /* --links: every row lists every link direction */
    const char *eta;           /* the η profile the predictions use: "ideal", "seed" or "given" */
    result_row *rows;
    int row_count, row_capacity;
    eta_row *etas;
    int eta_count, eta_capacity;
    crossover_row *crossovers;
    int crossover_count, crossover_capacity;
    const char *const *case_notes; /* the plot: what each case's panels add to their titles (a sweep's axis values), or NULL */
    int case_note_count;
} report;

void report_add(report *r, const result_row *row);
void report_add_eta(report *r, const eta_row *e);
void report_add_crossover(report *r, const crossover_row *x);
void report_free(report *r);

#endif
