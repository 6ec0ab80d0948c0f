/* plan.h — from a scenario's cases to what one simulation runs.
 *
 * A simulation (a task of cli/run_cases.c) is the k-th algorithm at the
 * m-th size of every case of a `concurrent:` block (a lone case is a block
 * of one), each case with all its groups.  A case's share of it is a
 * member: what runs (the case's algorithm, protocol and channels, or the
 * tuner's pick under `auto`), its schedule per group (one shared schedule
 * unless the algorithm's schedule depends on where the group sits), where
 * each schedule actor runs, its prediction, and the executor parts.
 *
 * Invariants:
 *   1. Every limit (schedule size, simulated hosts) is checked before
 *      anything is built (plan_check), and every algorithm of every case
 *      builds on its groups before anything runs.
 *   2. The prediction and the executor charge the same endpoint costs
 *      (model_case_costs): a plan never computes them twice differently. */
#ifndef COLLSIM_PLAN_H
#define COLLSIM_PLAN_H

#include <stdbool.h>

#include "exec/executor.h"
#include "model/model.h"
#include "model/tuner.h"
#include "scenario/scenario.h"

typedef enum { MODE_RUN, MODE_VERIFY, MODE_PREDICT } run_mode;

/* What a plan is for: the command's mode, whether every schedule is
 * verified on data first, whether notes go to standard error. */
typedef struct plan_settings {
    run_mode mode;
    bool verify;
    bool quiet;
} plan_settings;

enum { PLAN_UNCALIBRATED, PLAN_FITTED, PLAN_NOT_COVERED };

/* One case's share of a simulation. */
typedef struct plan_member {
    int c, a;              /* the case and its algorithm index */
    double size_bytes;
    tuner_choice run;      /* what runs: the case's algorithm, protocol and channels, or the tuner's pick */
    bool tuned;            /* picked by the tuner (`auto`) */
    schedule **scheds;     /* per group; one shared schedule unless algorithm_per_group */
    int **nodes;           /* per group: where each schedule actor runs */
    double *weights;       /* all-to-all skew block weights, or NULL */
    int segments;          /* P the schedule runs (read from it, or algorithm_segments when predicting) */
    prediction pr;
    endpoint_costs costs;  /* what the executor charges each of its groups (model_case_costs) */
    int calibration;       /* PLAN_UNCALIBRATED, PLAN_FITTED (a calibrated group covers what runs) or
                              PLAN_NOT_COVERED (the platform is calibrated, not for this: published figures) */
    exec_result *results;  /* per group, once simulated */
} plan_member;

/* Every limit of S and every algorithm of every case on its groups, before
 * anything runs (simulated under MODEL: the command line's, which the
 * scenario's `network` key may set when it is NETWORK_DEFAULT); false with
 * the reason in D (exit 2). */
bool plan_check(const scenario *s, run_mode mode, network_model model, diag *d);

/* The schedule operations of one simulation (the A-th algorithms of the
 * concurrent block that case FIRST opens, at their M-th sizes, run),
 * estimated from the algorithms' growth before anything is built. */
double plan_simulation_items(const scenario *s, int first, int a, int m);

/* Choose, build (and verify when asked), and predict member M (its c, a and
 * size_bytes set); exit status: 0, 1 (verification failed) or 2. */
int plan_member_prepare(const scenario *s, const plan_settings *o, plan_member *m);

/* The executor parts of the COUNT members of one simulation (one per group
 * of each, in order) with their endpoint costs; *PART_COUNT receives their
 * number.  Caller frees. */
exec_part *plan_parts(const scenario *s, const plan_member *members, int count, int *part_count);

/* Before a fluid-model simulation whose concurrent parts SimGrid's solver
 * couples past what it finishes in about a minute (exec/coupling.h): say so
 * on standard error, and which model finishes sooner. */
void plan_note_coupling(network_model model, const topology *t, const exec_part *parts, int count, const char *label);

/* An algorithm a case names on a calibrated platform that no calibrated
 * group covers (its primitive, tier and family: protocol.h) is told, on
 * standard error: it runs on the published figures. */
void plan_note_uncalibrated(const scenario *s);

/* A sweep of sizes that stops short of its `to` (as nccl-tests' -e does)
 * is told, on standard error, where it ends and how to include `to`. */
void plan_note_short_sweeps(const scenario *s);

/* The index of case K's largest size. */
int plan_largest_size(const scenario_case *k);

void plan_member_free(plan_member *m, int groups);

/* ---- schedules of a case (case_schedule.c) ---- */

/* Group G's platform ranks in case K. */
const int *plan_group_members(const scenario_case *k, int g);
/* The channels `channels: auto` gives case K on T: one per rail its groups'
 * rings cross nodes on, one per disjoint ring of a full mesh, else one. */
int plan_natural_channels(const topology *t, const scenario_case *k);
/* The schedule of algorithm A on CHANNELS channels for group G of case C at
 * SIZE_BYTES; GENERATE: generated where A has a generator (for the executor
 * only).  NULL with WHY when the algorithm refuses the group. */
schedule *plan_schedule(const scenario *s, int c, const algorithm *a, int channels, int g, double size_bytes,
                        bool generate, char *why, int why_size);
/* The segments algorithm A's schedule for group G would run
 * (algorithm_segments: nothing built), or 0 with WHY when A refuses it. */
int plan_segments(const scenario *s, int c, const algorithm *a, int channels, int g, double size_bytes, char *why,
                  int why_size);
/* The same over every group A is built for (one unless algorithm_per_group):
 * group 0's segments, or 0 with WHY when A refuses any of them. */
int plan_case_segments(const scenario *s, int c, const algorithm *a, int channels, double size_bytes, char *why,
                       int why_size);
/* The schedule operations A of case C on CHANNELS channels needs at
 * SIZE_BYTES over all its groups (algorithm_schedule_size), GENERATED where
 * it runs so (`run`) or stored (`verify`, a prediction that reads it). */
double plan_schedule_items_at(const scenario *s, int c, const algorithm *a, int channels, double size_bytes,
                              bool generated);
/* What runs for algorithm A of case C at SIZE_BYTES: the case's own
 * algorithm, protocol and channels, or the tuner's pick; false when the
 * tuner finds nothing the group supports.  Under MODE_PREDICT the tuner
 * checks its candidates by their segments (nothing built) where the model
 * needs no schedule. */
bool plan_choose(const scenario *s, int c, int a, double size_bytes, run_mode mode, plan_member *m);

#endif
