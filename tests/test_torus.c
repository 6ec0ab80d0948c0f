/* test_torus.c — the torus algorithms of explainer 02 §3: dimension-
 * decomposed ring AR / AG / RS (§3.4, §3.5), pipelined bidirectional BC and
 * Reduce (§3.2, §3.3), Rabenseifner AR (App. A) and direct-send A2A (§3.6,
 * App. C).  Each verified on data on torus shapes 2x2, 4x4, 2x3x4, 8x8x8 and
 * 3x5, and timed on tori against a formula written here: the seed's where
 * the simulation meets it, else the finite form derived from the schedule
 * and its routes (explained at each formula). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "exec/coupling.h"
#include "exec/executor.h"
#include "sched/verify.h"
#include "test_support.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const primitive prims[] = {PRIM_ALLREDUCE, PRIM_ALLGATHER, PRIM_REDUCESCATTER};
static const char *const verified_shapes[] = {"[2, 2]", "[4, 4]", "[2, 3, 4]", "[8, 8, 8]", "[3, 5]"};
static const double sizes[] = {1e3, 1e6, 1e9};
static const double alpha = 0.5e-6, bw = 900e9;

static void load_shape(const char *dims, topology *t)
{
    char yaml[128];
    snprintf(yaml, sizeof yaml, "kind: torus\ndims: %s\nalpha: 0.5us\nbandwidth: 900GBps\n", dims);
    load_text(yaml, t);
}

static schedule *build_algorithm(const topology *t, primitive prim, const char *name, int root, int segments)
{
    algo_params p = {.ranks = t->ranks, .dim_count = t->dim_count, .root = root, .segments = segments};
    for (int i = 0; i < t->dim_count; i++) p.dims[i] = t->dims[i];
    char why[256] = "";
    schedule *s = algorithm_find(prim, name)->build(&p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s %s refused: %s", primitive_name(prim), name, why);
    return s;
}

static schedule *build_on(const topology *t, primitive prim)
{
    return build_algorithm(t, prim, "torus_dimdecomp", 0, 0);
}

static void verify_on(const topology *t, primitive prim, const char *name, int root, int segments, const char *shape)
{
    schedule *s = build_algorithm(t, prim, name, root, segments);
    char why[512] = "";
    ck_assert_msg(schedule_verify(s, why, sizeof why), "%s %s on %s, root %d, P = %d: %s", primitive_name(prim), name,
                  shape, root, segments, why);
    schedule_free(s);
}

/* Verify PRIM NAME on every shape of verified_shapes up to MAX_RANKS ranks;
 * BC / Reduce at roots 0, N/2, N-1 with P in {0 (default), 1, 3}. */
static void verify_on_shapes(primitive prim, const char *name, int max_ranks)
{
    static const int segment_counts[] = {0, 1, 3};
    bool rooted = prim == PRIM_BCAST || prim == PRIM_REDUCE;
    for (size_t i = 0; i < COUNT(verified_shapes); i++) {
        topology t;
        load_shape(verified_shapes[i], &t);
        if (t.ranks <= max_ranks) {
            int n = t.ranks, roots[] = {0, n / 2, n - 1};
            for (size_t r = 0; r < (rooted ? COUNT(roots) : 1); r++)
                for (size_t k = 0; k < (rooted ? COUNT(segment_counts) : 1); k++)
                    verify_on(&t, prim, name, roots[r], segment_counts[k], verified_shapes[i]);
        }
        topology_free(&t);
    }
}

/* Simulate PRIM NAME on T at every size against EXPECTED(T, M, P). */
static void time_on(const topology *t, primitive prim, const char *name, int root, int segments,
                    double (*expected)(const topology *t, double m, double p))
{
    schedule *s = build_algorithm(t, prim, name, root, segments);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        char what[128];
        snprintf(what, sizeof what, "%d-rank torus %s %s, root %d, P = %d", t->ranks, primitive_name(prim), name, root,
                 s->segments);
        expect_time(t, s, sizes[m], expected(t, sizes[m], s->segments), what);
    }
    schedule_free(s);
}

static void time_on_shipped(const char *platform, primitive prim, const char *name, int root, int segments,
                            double (*expected)(const topology *t, double m, double p))
{
    topology t;
    load_shipped(platform, &t);
    time_on(&t, prim, name, root, segments, expected);
    topology_free(&t);
}

START_TEST(test_dimdecomp_verifies_on_torus_shapes)
{
    for (size_t k = 0; k < COUNT(prims); k++) verify_on_shapes(prims[k], "torus_dimdecomp", 512);
}
END_TEST

START_TEST(test_dimdecomp_torus_matches_formula)
{
    static const char *const platforms[] = {"torus-4x4", "torus-8x8x8"};
    for (size_t i = 0; i < 2; i++) {
        topology t;
        load_shipped(platforms[i], &t);
        double hops = 0, n = t.ranks;
        for (int d = 0; d < t.dim_count; d++) hops += t.dims[d] - 1;
        for (size_t k = 0; k < 3; k++) {
            schedule *s = build_on(&t, prims[k]);
            double halves = prims[k] == PRIM_ALLREDUCE ? 2 : 1;
            for (size_t m = 0; m < 3; m++) {
                char what[96];
                snprintf(what, sizeof what, "%s %s", platforms[i], primitive_name(prims[k]));
                expect_time(&t, s, sizes[m], halves * (hops * alpha + (n - 1) / n * sizes[m] / bw), what); /* 02 §3.4-3.5 */
            }
            schedule_free(s);
        }
        topology_free(&t);
    }
}
END_TEST

START_TEST(test_dimdecomp_refuses_a_shapeless_group)
{
    algo_params p = {.ranks = 8};
    char why[256] = "";
    ck_assert_ptr_null(algorithm_find(PRIM_ALLREDUCE, "torus_dimdecomp")->build(&p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "torus or mesh shape"));
}
END_TEST

/* BC / Reduce: one tree of bidirectional chains, depth L = sum floor(d_i/2)
 * (02 §3.2), every segment forwarded on arrival, so 01 App. C.3's master
 * formula holds with that L: (L + P - 1)(alpha + M/(P BW)).  02 §5.1's
 * L alpha + M/BW is its large-P limit. */
static double torus_chain_time(const topology *t, double m, double p)
{
    double depth = 0;
    for (int i = 0; i < t->dim_count; i++) depth += t->dims[i] / 2;
    return (depth + p - 1) * (alpha + m / (p * bw));
}

START_TEST(test_torus_bcast_verifies_for_roots_and_segment_counts)
{
    verify_on_shapes(PRIM_BCAST, "torus_dimdecomp", 512);
}
END_TEST

START_TEST(test_torus_reduce_verifies_for_roots_and_segment_counts)
{
    verify_on_shapes(PRIM_REDUCE, "torus_dimdecomp", 512);
}
END_TEST

/* Roots at a corner, the middle and the far end; default and chosen P. */
static void time_chains(primitive prim)
{
    static const struct {
        const char *platform;
        int root, segments;
    } cases[] = {{"torus-4x4", 0, 0}, {"torus-4x4", 9, 3}, {"torus-8x8x8", 511, 0}, {"torus-8x8x8", 300, 5}};
    for (size_t i = 0; i < COUNT(cases); i++)
        time_on_shipped(cases[i].platform, prim, "torus_dimdecomp", cases[i].root, cases[i].segments, torus_chain_time);
}

START_TEST(test_torus_bcast_matches_the_pipelined_chain_formula)
{
    time_chains(PRIM_BCAST);
}
END_TEST

START_TEST(test_torus_reduce_matches_the_pipelined_chain_formula)
{
    time_chains(PRIM_REDUCE);
}
END_TEST

START_TEST(test_torus_rabenseifner_verifies_on_torus_shapes)
{
    verify_on_shapes(PRIM_ALLREDUCE, "torus_rabenseifner", 512);
}
END_TEST

/* One RS (or AG) of 02 App. A's halving-doubling on a d-line sharing W
 * bytes, on the torus: the step-j partner is delta = 2^(j-1) hops away
 * (alpha each) and the step moves W/(2 delta) bytes; on every loaded link
 * the messages of delta members meet (delta < d/2: all of an aligned
 * 2-delta block's one-way messages cross its middle link) or, at
 * delta = d/2, d/4 of them (the route's parity tie-break splits them over
 * both arcs; one at d = 2).  Derived from the routes, not the seed's
 * log2 d alpha + (d-1)/d W/BW. */
static double halving_line_time(int d, double w)
{
    double t = 0;
    for (int delta = 1; delta < d; delta *= 2) {
        double sharing = delta < d / 2 ? delta : (d >= 4 ? d / 4 : 1);
        t += delta * alpha + sharing * w / (2 * delta) / bw;
    }
    return t;
}

/* AR: RS dims last to first, W = M / (the dims already reduced), AG mirrors it. */
static double torus_rabenseifner_time(const topology *t, double m, double p)
{
    (void)p;
    double total = 0, w = m;
    for (int i = t->dim_count - 1; i >= 0; i--) {
        total += 2 * halving_line_time(t->dims[i], w);
        w /= t->dims[i];
    }
    return total;
}

START_TEST(test_torus_rabenseifner_matches_the_route_exact_formula)
{
    time_on_shipped("torus-4x4", PRIM_ALLREDUCE, "torus_rabenseifner", 0, 0, torus_rabenseifner_time);
    time_on_shipped("torus-8x8x8", PRIM_ALLREDUCE, "torus_rabenseifner", 0, 0, torus_rabenseifner_time);
}
END_TEST

/* At d = 4 the halvings cost what the ring does (3 alpha, 3/4 W): on the
 * 4x4 torus Rabenseifner equals dim-decomposed ring AR (02 §3.4),
 * 12 alpha + 2 (15/16) M/BW, not App. A's 8 alpha (its BW term does hold). */
static double torus_ring_ar_time(const topology *t, double m, double p)
{
    (void)t;
    (void)p;
    return 2 * (6 * alpha + 15.0 / 16 * m / bw);
}

START_TEST(test_torus_rabenseifner_on_4x4_costs_the_ring)
{
    time_on_shipped("torus-4x4", PRIM_ALLREDUCE, "torus_rabenseifner", 0, 0, torus_ring_ar_time);
}
END_TEST

START_TEST(test_torus_alltoall_verifies_on_torus_shapes)
{
    verify_on_shapes(PRIM_ALLTOALL, "torus", 64); /* 8x8x8 needs N^3 fingerprints: 1 GB, 4 s (done by hand) */
}
END_TEST

/* 02 App. C.2's bottleneck bound, from the fabric's routes: a block of h
 * hops starts moving after h alpha and a directed link drains at BW, so with
 * B_h(e) the bytes of blocks of h or more hops crossing link e,
 * t >= max over e, h of h alpha + B_h(e)/BW.  LOAD_BLOCKS gets the most
 * blocks one directed link carries. */
static double direct_alltoall_bound(const topology *t, double m, int *load_blocks)
{
    int n = t->ranks, longest = t->diameter_links;
    int *blocks = calloc((size_t)(2 * t->link_count * (longest + 1)), sizeof(int)); /* [link, direction][hops] */
    route_hop *hops = malloc(sizeof *hops * (size_t)(longest + 1));
    for (int src = 0; src < n; src++)
        for (int dst = 0; dst < n; dst++) {
            if (src == dst) continue;
            int h = topology_route(t, src, dst, hops);
            for (int j = 0; j < h; j++) blocks[(2 * hops[j].link + hops[j].down) * (longest + 1) + h]++;
        }
    double bound = 0;
    *load_blocks = 0;
    for (int e = 0; e < 2 * t->link_count; e++) {
        int at_least = 0;
        for (int h = longest; h >= 1; h--) {
            at_least += blocks[e * (longest + 1) + h];
            if (at_least > 0) bound = fmax(bound, h * alpha + at_least * m / n / bw);
        }
        if (at_least > *load_blocks) *load_blocks = at_least;
    }
    free(blocks);
    free(hops);
    return bound;
}

static double direct_alltoall_time(const topology *t, double m, double p)
{
    (void)p;
    int load;
    return direct_alltoall_bound(t, m, &load);
}

/* 4x4, 8x8 and 4x4x4 (8x8x8 meets it too, by hand: 4 minutes of simulation). */
START_TEST(test_torus_alltoall_meets_the_bottleneck_bound)
{
    time_on_shipped("torus-4x4", PRIM_ALLTOALL, "torus", 0, 0, direct_alltoall_time);
    static const char *const shapes[] = {"[8, 8]", "[4, 4, 4]"};
    for (size_t i = 0; i < COUNT(shapes); i++) {
        topology t;
        load_shape(shapes[i], &t);
        time_on(&t, PRIM_ALLTOALL, "torus", 0, 0, direct_alltoall_time);
        topology_free(&t);
    }
}
END_TEST

/* On 4x6, SimGrid 3.32's max-min solver crashes at maxmin/precision 1e-12;
 * collsim starts at 1e-9, where it does not (simgrid_run.c), and the bound
 * holds (d/2 = 3 is odd, so the parity tie-break loads links 2:1). */
START_TEST(test_torus_alltoall_on_4x6_meets_the_bound)
{
    topology t;
    load_shape("[4, 6]", &t);
    time_on(&t, PRIM_ALLTOALL, "torus", 0, 0, direct_alltoall_time);
    topology_free(&t);
}
END_TEST

/* 02 App. C.3 on 4x4: every directed link carries 8 blocks of M/16, so the
 * bottleneck drains M/(2 BW) once the first blocks reach it (one hop,
 * alpha); at 1 GB that is the time: alpha + M/(2 BW). */
START_TEST(test_torus_alltoall_on_4x4_at_1_gb_takes_alpha_plus_m_over_2_bw)
{
    topology t;
    load_shipped("torus-4x4", &t);
    int load;
    direct_alltoall_bound(&t, 1e9, &load);
    ck_assert_int_eq(load, 8);
    schedule *s = build_algorithm(&t, PRIM_ALLTOALL, "torus", 0, 0);
    expect_time(&t, s, 1e9, alpha + 1e9 / (2 * bw), "4x4 torus A2A at 1 GB");
    schedule_free(s);
    topology_free(&t);
}
END_TEST

/* One message from actor 0 to actor 1, as a schedule that parts place on nodes. */
static schedule *one_message(void)
{
    schedule *s = schedule_create(PRIM_SENDRECV, 2, 0, 1);
    sched_send(s, 0, 1, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 0, 0, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    return s;
}

/* On 4x4 (node = x + 4y), 0 -> 1 and 2 -> 3 are one hop each on different
 * x links, so solved apart; a third part sending 0 -> 1 crosses the first's
 * link: those two are one system of two flows (each part one distinct pair). */
START_TEST(test_coupling_joins_the_parts_that_share_a_link)
{
    topology t;
    load_shipped("torus-4x4", &t);
    static const int first[] = {0, 1}, second[] = {2, 3};
    schedule *s = one_message();
    exec_part parts[] = {{.s = s, .actor_nodes = first, .size_bytes = 1e6},
                         {.s = s, .actor_nodes = second, .size_bytes = 1e6},
                         {.s = s, .actor_nodes = first, .size_bytes = 1e6}};
    coupling apart = exec_coupling(&t, parts, 2);
    ck_assert_int_eq(apart.parts, 1);
    ck_assert_int_eq(apart.flows, 1);
    coupling joined = exec_coupling(&t, parts, 3);
    ck_assert_int_eq(joined.parts, 2);
    ck_assert_int_eq(joined.flows, 2);
    schedule_free(s);
    topology_free(&t);
}
END_TEST

START_TEST(test_torus_algorithms_refuse_a_shapeless_group)
{
    static const struct {
        primitive prim;
        const char *name;
    } algorithms[] = {{PRIM_BCAST, "torus_dimdecomp"},
                      {PRIM_REDUCE, "torus_dimdecomp"},
                      {PRIM_ALLREDUCE, "torus_rabenseifner"},
                      {PRIM_ALLTOALL, "torus"}};
    for (size_t i = 0; i < COUNT(algorithms); i++) {
        algo_params p = {.ranks = 8};
        char why[256] = "";
        ck_assert_ptr_null(algorithm_find(algorithms[i].prim, algorithms[i].name)->build(&p, why, sizeof why));
        ck_assert_ptr_nonnull(strstr(why, "torus or mesh shape"));
    }
}
END_TEST

START_TEST(test_torus_chains_refuse_a_root_outside_the_group)
{
    algo_params p = {.ranks = 16, .dim_count = 2, .dims = {4, 4}, .root = 16};
    char why[256] = "";
    ck_assert_ptr_null(bcast_torus_dimdecomp(&p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "root 16"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("torus");
    TCase *tc = tcase_create("dimdecomp");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_dimdecomp_verifies_on_torus_shapes);
    tcase_add_test(tc, test_dimdecomp_torus_matches_formula);
    tcase_add_test(tc, test_dimdecomp_refuses_a_shapeless_group);
    tcase_add_test(tc, test_torus_bcast_verifies_for_roots_and_segment_counts);
    tcase_add_test(tc, test_torus_reduce_verifies_for_roots_and_segment_counts);
    tcase_add_test(tc, test_torus_bcast_matches_the_pipelined_chain_formula);
    tcase_add_test(tc, test_torus_reduce_matches_the_pipelined_chain_formula);
    tcase_add_test(tc, test_torus_rabenseifner_verifies_on_torus_shapes);
    tcase_add_test(tc, test_torus_rabenseifner_matches_the_route_exact_formula);
    tcase_add_test(tc, test_torus_rabenseifner_on_4x4_costs_the_ring);
    tcase_add_test(tc, test_torus_alltoall_verifies_on_torus_shapes);
    tcase_add_test(tc, test_torus_alltoall_meets_the_bottleneck_bound);
    tcase_add_test(tc, test_torus_alltoall_on_4x4_at_1_gb_takes_alpha_plus_m_over_2_bw);
    tcase_add_test(tc, test_torus_alltoall_on_4x6_meets_the_bound);
    tcase_add_test(tc, test_coupling_joins_the_parts_that_share_a_link);
    tcase_add_test(tc, test_torus_algorithms_refuse_a_shapeless_group);
    tcase_add_test(tc, test_torus_chains_refuse_a_root_outside_the_group);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
