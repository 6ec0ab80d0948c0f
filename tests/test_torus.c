/* test_torus.c — dimension-decomposed ring AR / AG / RS (explainer 02 §3.4,
 * §3.5): verified on data on torus shapes 2x2, 4x4, 2x3x4 and 8x8x8, and
 * timed on 4x4 and 8x8x8 tori against the seed formula written here:
 * t_AR = 2 sum(d_i - 1) alpha + 2(N-1)/N M/BW, AG / RS half of it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "exec/executor.h"
#include "sched/verify.h"
#include "test_support.h"

static const primitive prims[] = {PRIM_ALLREDUCE, PRIM_ALLGATHER, PRIM_REDUCESCATTER};

static schedule *build_on(const topology *t, primitive prim)
{
    algo_params p = {.ranks = t->ranks, .dim_count = t->dim_count};
    for (int i = 0; i < t->dim_count; i++) p.dims[i] = t->dims[i];
    char why[256] = "";
    schedule *s = algorithm_find(prim, "torus_dimdecomp")->build(&p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s refused: %s", primitive_name(prim), why);
    return s;
}

START_TEST(test_dimdecomp_verifies_on_torus_shapes)
{
    static const char *const shapes[] = {"[2, 2]", "[4, 4]", "[2, 3, 4]", "[8, 8, 8]", "[3, 5]"};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char yaml[128];
        snprintf(yaml, sizeof yaml, "kind: torus\ndims: %s\nalpha: 0.5us\nbandwidth: 900GBps\n", shapes[i]);
        topology t;
        load_text(yaml, &t);
        for (size_t k = 0; k < 3; k++) {
            schedule *s = build_on(&t, prims[k]);
            char why[512] = "";
            ck_assert_msg(schedule_verify(s, why, sizeof why), "%s on %s: %s", primitive_name(prims[k]), shapes[i], why);
            schedule_free(s);
        }
        topology_free(&t);
    }
}
END_TEST

START_TEST(test_dimdecomp_torus_matches_formula)
{
    static const char *const platforms[] = {"torus-4x4", "torus-8x8x8"};
    static const double sizes[] = {1e3, 1e6, 1e9};
    const double alpha = 0.5e-6, bw = 900e9;
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

int main(void)
{
    Suite *s = suite_create("torus");
    TCase *tc = tcase_create("dimdecomp");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_dimdecomp_verifies_on_torus_shapes);
    tcase_add_test(tc, test_dimdecomp_torus_matches_formula);
    tcase_add_test(tc, test_dimdecomp_refuses_a_shapeless_group);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
