/* test_support.h — loading shipped or inline platforms and simulating flows
 * from Check tests. */
#ifndef COLLSIM_TEST_SUPPORT_H
#define COLLSIM_TEST_SUPPORT_H

#include <check.h>

#include "algo/algorithm.h"
#include "model/protocol.h"
#include "net/fluid/simgrid_run.h"
#include "sched/schedule.h"
#include "platform/platform.h"

/* Load platforms/NAME.yaml from the source tree; fails the test on error. */
void load_shipped(const char *name, topology *t);
/* Load a platform from YAML text; fails the test on error. */
void load_text(const char *yaml, topology *t);
/* Simulated arrival time of one message SRC -> DST of SIZE bytes under CM02. */
double simulate_one(const topology *t, int src, int dst, double size_bytes);
/* Simulate COUNT concurrent flows; fails the test if the simulation fails. */
void simulate_flows(const topology *t, const flow *flows, int count, double *finish_s);
/* Simulate S on T (schedule actor a on rank a) for SIZE_BYTES and fail the
 * test unless the time is within 1e-9 of EXPECTED_S; WHAT names the case. */
void expect_time(const topology *t, schedule *s, double size_bytes, double expected_s, const char *what);
/* Simulate S on T (group rank a on platform rank RANK_NODES[a], or a when
 * RANK_NODES is NULL; switch actors where S puts them) at SIZE_BYTES charging
 * COSTS (launch, per-message sender overheads, wire bytes; NULL: none);
 * returns the time and, when RANK_FINISH_S is not NULL, fills each group
 * rank's finish. */
double simulate_schedule(const topology *t, schedule *s, const int *rank_nodes, double size_bytes,
                         const endpoint_costs *costs, double *rank_finish_s);
/* The same under network model MODEL. */
double simulate_schedule_with(const topology *t, schedule *s, const int *rank_nodes, double size_bytes,
                              const endpoint_costs *costs, double *rank_finish_s, network_model model);
/* Fail unless S simulates in EXPECTED_S to 1e-9 in both network models, the
 * fluid CM02 and the packet model (the latter up to EXPECT_PACKET_MAX_BYTES,
 * to keep the suite quick: its cost grows with the packets). */
#define EXPECT_PACKET_MAX_BYTES 16e6
void expect_simulated(const topology *t, schedule *s, const int *rank_nodes, double size_bytes, const endpoint_costs *costs,
                      double expected_s, const char *what);
/* The same in one network model: where the packet model serializes what the
 * fluid model shares (two flows on one port: packet by packet, not at half
 * rate each), its time is not the fluid form's. */
void expect_simulated_in(network_model model, const topology *t, schedule *s, const int *rank_nodes, double size_bytes,
                         const endpoint_costs *costs, double expected_s, const char *what);
/* The same under the network model OPTIONS select. */
void expect_time_with(const topology *t, schedule *s, double size_bytes, double expected_s, const char *what,
                      const sim_options *options);
/* Algorithm tests: a builder (src/algo), the group sizes every schedule is
 * verified at, and a seed time in seconds for N ranks, M bytes, P segments. */
typedef schedule *(*schedule_builder)(const algo_params *p, char *why, int why_size);
typedef double (*time_formula)(double n, double m, double p);
extern const int verified_group_sizes[9]; /* 2, 3, 4, 5, 7, 8, 16, 64, 72 */
/* Build P and fail the test unless it is accepted and computes its primitive. */
void expect_verified(schedule_builder build, const algo_params *p, const char *name);
/* Verify at every group size (root 0, default segments); when
 * POWER_OF_TWO_ONLY, other sizes must be refused with a "power-of-two" message. */
void verify_group_sizes(schedule_builder build, const char *name, bool power_of_two_only);
/* Verify at every group size, for roots 0, N/2, N-1 and segments 0, 1, 3, 9. */
void verify_roots_and_segments(schedule_builder build, const char *name);
/* Simulate P's schedule on "kind: star" with p->ranks ranks, alpha 0.5 us,
 * 900 GBps, for M = 1 KB, 1 MB, 1 GB, against EXPECTED (01 §1 units: M is
 * what the primitive's formulas call M; A2A: each rank's payload). */
void expect_star_times(schedule_builder build, const algo_params *p, time_formula expected, const char *name);
/* The same at N = 4, 16, 64 (timed_group_sizes), default parameters. */
extern const int timed_group_sizes[3];
void expect_star_times_at_timed_ranks(schedule_builder build, const char *name, time_formula expected);
#define STAR_ALPHA_S 0.5e-6
#define STAR_BANDWIDTH_BPS 900e9

/* One path class of a shipped platform (the seed's: neighbours, farthest
 * pair, same leaf, across spines, SuperPOD same-rail and cross-rail), with
 * what its route should be, written from the platform files, not read back
 * from the code: latency, bottleneck bandwidth, and its serializing links
 * (RELAY_LINKS faster ones of RELAY_BPS first, then LINKS - RELAY_LINKS at
 * the bottleneck bandwidth). */
typedef struct path_case {
    const char *platform;
    int src, dst;     /* dst may be a switch node */
    double alpha_s;
    double bandwidth_Bps;
    int links, relay_links;
    double relay_Bps;
    const char *what;
} path_case;
extern const path_case path_cases[];
extern const int path_case_count;
/* A flow from a rank in [SRC_FIRST, SRC_LAST] to one in [DST_FIRST,
 * DST_LAST] whose route's hop HOP uses (SAME) or not (!SAME) the link of hop
 * HOP of the route FROM -> TO: where ECMP piles flows up, or spreads them.
 * False when there is none. */
bool find_flow_by_hop(const topology *t, int from, int to, int hop, int src_first, int src_last, int dst_first,
                      int dst_last, bool same, flow *out);
/* A shipped platform with YAML text appended (a `packet:` mapping, which
 * replaces the file's own one-line `packet:` mapping). */
void load_shipped_with(const char *name, const char *extra_yaml, topology *t);

/* Run every test of S (forking per test) and return the process exit status. */
/* GENERATED (a schedule.h generator) holds the ops of STORED (sealed), each
 * field, dependency, phase and slice owner; nothing is stored per op. */
void expect_generated_equals_stored(const schedule *generated, const schedule *stored, const char *what);
int run_suite(Suite *s);
/* |a/b - 1| */
double relative_error(double a, double b);

#endif
