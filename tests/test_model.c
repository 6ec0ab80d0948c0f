/* test_model.c — the analytic model against the seed's own worked tables,
 * read from the scenario files shipped in scenarios/ (one per table).
 *
 * "To the seed's rounding": a seed figure printed to a last digit of unit U
 * is reproduced when |predicted − figure| ≤ U/2 + C/2, where C is the unit of
 * the rounded columns the seed sums to get that figure (its BW-term column,
 * 0.1 µs in 04 §3; 0 when the seed prints no columns).  The seed rounds its
 * columns before adding them, and two of its rows sit exactly on a half
 * (04 §3.1: ring 511 + 35.5 = 546.5 printed 546, torus 21 + 35.5 = 56.5
 * printed 57), so U/2 alone would reject one of them whichever way collsim
 * rounded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "scenario/scenario.h"
#include "test_support.h"

static scenario loaded;

static void load_scenario(const char *name)
{
    char path[1024];
    const char *top = getenv("top_srcdir");
    snprintf(path, sizeof path, "%s/scenarios/%s", top ? top : ".", name);
    diag d = {0};
    if (!scenario_load(path, &loaded, &d)) ck_abort_msg("cannot load %s: %s", path, d.message);
}

/* The prediction of case C, algorithm A, size index M of the loaded scenario. */
static prediction predict(int c, int a, int m)
{
    const scenario_case *k = &loaded.cases[c];
    model_case mc = scenario_model_case(&loaded, c, k->records[a], k->protocol, k->channels, k->sizes[m], 0);
    prediction p;
    char why[256];
    ck_assert_msg(model_predict(&mc, &p, why, sizeof why), "no prediction: %s", why);
    return p;
}

/* Seed figure FIGURE (µs) printed to UNIT, summed from columns rounded to COLUMN. */
static void expect_seed(int c, int a, int m, double figure_us, double unit_us, double column_us)
{
    prediction p = predict(c, a, m);
    double predicted_us = p.time_s * 1e6, slack = unit_us / 2 + column_us / 2;
    ck_assert_msg(fabs(predicted_us - figure_us) <= slack + 1e-9,
                  "%s case %d %s at %g B: predicted %.4f us, seed %g us (± %g)", loaded.name, c,
                  loaded.cases[c].algorithms[a], loaded.cases[c].sizes[m], predicted_us, figure_us, slack);
}

/* explainer 04 §3.1: the N = 512 all-reduce ladder at 16 MB and its n_alpha column */
START_TEST(test_allreduce_at_n512_16mb_is_ring_546_dbt_45_inc_18_8_torus_57_us)
{
    load_scenario("seed-04-3.1-n512-allreduce-ladder.yaml");
    expect_seed(0, 0, 0, 546, 1, 0.1);  /* star ring */
    expect_seed(0, 1, 0, 45, 1, 0.1);   /* star DBT (00 §4: 2 M/BW) */
    expect_seed(1, 0, 0, 18.8, 0.1, 0.1); /* NVLS-style INC */
    expect_seed(2, 0, 0, 57, 1, 0.1);   /* torus 8^3 dim-decomposed ring */
    /* the n_alpha column: 1022, 18, 2, 42 */
    ck_assert_double_eq(predict(0, 0, 0).n_alpha, 1022);
    ck_assert_double_eq(predict(0, 1, 0).n_alpha, 18);
    ck_assert_double_eq(predict(1, 0, 0).n_alpha, 2);
    ck_assert_double_eq(predict(2, 0, 0).n_alpha, 42);
    scenario_free(&loaded);
}
END_TEST

/* explainer 04 §3.2: DBT and INC from alpha-bound to BW-bound */
START_TEST(test_dbt_and_inc_allreduce_keep_the_seed_times_from_10_kb_to_1_gb)
{
    load_scenario("seed-04-3.2-regime-sensitivity.yaml");
    static const double dbt[] = {9.02, 11.2, 45, 2230}, inc[] = {1.01, 2.1, 18.8, 1110};
    static const double unit[] = {0.01, 0.1, 1, 10}, inc_unit[] = {0.01, 0.1, 0.1, 10};
    for (int m = 0; m < 4; m++) {
        expect_seed(0, 0, m, dbt[m], unit[m], 0);
        expect_seed(1, 0, m, inc[m], inc_unit[m], 0);
    }
    scenario_free(&loaded);
}
END_TEST

/* explainer 04 §3.3: all-gather, reduce-scatter, broadcast, reduce and all-to-all */
START_TEST(test_non_allreduce_primitives_at_n512_16mb_take_the_seed_times)
{
    load_scenario("seed-04-3.3-other-primitives.yaml");
    expect_seed(0, 0, 0, 273, 1, 0.1);    /* AG star ring */
    expect_seed(0, 1, 0, 22.2, 0.1, 0.1); /* AG rec-doub */
    expect_seed(0, 2, 0, 18.7, 0.1, 0.1); /* AG INC */
    expect_seed(1, 0, 0, 273, 1, 0.1);    /* RS star ring */
    expect_seed(1, 1, 0, 22.2, 0.1, 0.1); /* RS rec-halv */
    expect_seed(2, 0, 0, 28.2, 0.1, 0.1); /* AG torus */
    expect_seed(3, 0, 0, 28.2, 0.1, 0.1); /* RS torus */
    for (int c = 4; c <= 5; c++) {        /* BC, Reduce */
        expect_seed(c, 0, 0, 273, 1, 0.1);
        expect_seed(c, 1, 0, 22.3, 0.1, 0.1);
        expect_seed(c, 2, 0, 18.3, 0.1, 0.1);
    }
    expect_seed(6, 0, 0, 23.8, 0.1, 0.1); /* BC torus bidirectional */
    expect_seed(7, 0, 0, 23.8, 0.1, 0.1); /* Reduce torus */
    expect_seed(8, 0, 0, 273, 1, 0.1);    /* A2A pairwise */
    expect_seed(9, 0, 0, 19, 1, 0.1);     /* HW A2A, "~19 us" */
    expect_seed(10, 0, 0, 23.8, 0.1, 0.1); /* torus A2A */
    ck_assert_double_eq(predict(6, 0, 0).n_alpha, 12);
    ck_assert_double_eq(predict(2, 0, 0).n_alpha, 21);
    scenario_free(&loaded);
}
END_TEST

/* explainer 05 §5.1: the 04 §3.1 ladder under the seed's eta profile */
START_TEST(test_allreduce_under_the_seed_eta_is_nvls_35_dbt_53_torus_84_us)
{
    load_scenario("seed-05-5.1-realistic-allreduce.yaml");
    expect_seed(0, 0, 0, 35, 1, 0.1);
    expect_seed(1, 0, 0, 53, 1, 0.1);
    expect_seed(2, 0, 0, 84, 1, 0.1);
    /* and the ideal totals beside them: 18.8, 45, 57 */
    ck_assert_msg(fabs(predict(0, 0, 0).ideal_s * 1e6 - 18.8) <= 0.1, "INC ideal");
    ck_assert_msg(fabs(predict(2, 0, 0).ideal_s * 1e6 - 57) <= 0.55, "torus ideal");
    scenario_free(&loaded);
}
END_TEST

/* explainer 05 §5.4: all-gather and all-to-all under the seed's eta profile */
START_TEST(test_allgather_and_alltoall_under_the_seed_eta_take_the_seed_times)
{
    load_scenario("seed-05-5.4-realistic-ag-a2a.yaml");
    expect_seed(0, 0, 0, 23.2, 0.1, 0.1); /* star + INC */
    expect_seed(0, 1, 0, 26.7, 0.1, 0.1); /* star + RHD */
    expect_seed(1, 0, 0, 42.2, 0.1, 0.1); /* torus */
    expect_seed(2, 0, 0, 278, 1, 0.1);    /* A2A pairwise */
    expect_seed(3, 0, 0, 36.8, 0.1, 0.1); /* torus A2A */
    scenario_free(&loaded);
}
END_TEST

/* The crossover of algorithms 0 and 1 of case C (bytes). */
static double crossover(int c)
{
    prediction a = predict(c, 0, 0), b = predict(c, 1, 0);
    double m;
    ck_assert_msg(model_crossover(&a, &b, &m), "no crossover in case %d", c);
    return m;
}

/* explainer 01 App. B.3 and §5.3 */
START_TEST(test_rd_dbt_crossover_is_506_kb_and_ring_dbt_2_gb_at_n72_116_gb_at_n512)
{
    load_scenario("seed-01-B.3-crossover.yaml");
    /* App. B.3: 9/8 · 0.5 µs · 900 GB/s ≈ 506 KB */
    ck_assert_msg(fabs(crossover(0) / 1e3 - 506) <= 0.5, "B.3 crossover %g B", crossover(0));
    scenario_free(&loaded);
    load_scenario("seed-01-5.3-practice-crossover.yaml");
    /* §5.3: ≈ 2 GB at N = 72, ≈ 116 GB at N = 512 */
    ck_assert_msg(fabs(crossover(0) / 1e9 - 2) <= 0.5, "N = 72 crossover %g B", crossover(0));
    ck_assert_msg(fabs(crossover(1) / 1e9 - 116) <= 0.5, "N = 512 crossover %g B", crossover(1));
    /* independently: 2(N-1-⌈log2 N⌉)·α·BW / (c_real - 2(N-1)/N) */
    double expected = 2.0 * (72 - 1 - 7) * 0.5e-6 * 900e9 / (2 - 2.0 * 71 / 72);
    ck_assert_msg(fabs(crossover(0) / expected - 1) < 1e-9, "N = 72: %g vs %g", crossover(0), expected);
    scenario_free(&loaded);
}
END_TEST

/* explainer 03 §2.1 and §2.2: the L = 2 SuperPOD case studies */
START_TEST(test_superpod_l2_hierarchical_allreduce_is_114_us_and_alltoall_348_us)
{
    load_scenario("seed-03-2-superpod-hierarchical.yaml");
    expect_seed(0, 0, 0, 114, 1, 1); /* ≈ 75 µs α + 39 µs BW */
    prediction p = predict(0, 0, 0);
    ck_assert_int_eq(p.term_count, 3);
    /* inner RS: 71 · 0.5 = 35.5 µs α, 71/72 · M/BW_inner ≈ 17.5 µs */
    ck_assert_double_eq_tol(p.terms[0].n_alpha * p.terms[0].alpha_s * 1e6, 35.5, 1e-9);
    ck_assert_double_eq_tol(p.terms[0].n_beta * 16e6 / p.terms[0].bandwidth_Bps * 1e6, 17.5, 0.05);
    /* outer AR: 2(L-1)·α_leaf = 4 µs, 2(L-1)/L · (M L/N)/BW_outer ≈ 4.4 µs */
    ck_assert_double_eq_tol(p.terms[1].n_alpha * p.terms[1].alpha_s * 1e6, 4, 1e-9);
    ck_assert_double_eq_tol(p.terms[1].n_beta * 16e6 / p.terms[1].bandwidth_Bps * 1e6, 4.4, 0.05);
    expect_seed(1, 0, 0, 348, 1, 1); /* 03 §2.2: 44 + 304 µs */
    expect_seed(1, 1, 0, 348, 1, 1); /* flat pairwise pays the same destination classes */
    scenario_free(&loaded);
}
END_TEST


/* `form: seed` is the seed's forms; the default adds the real-system routes.  On
 * the L = 2 SuperPOD a cross-rail route relays over NVLink (0.5 us) before
 * the rail leaf (2 us): a flat ring's hop is 2.5 us by default, 2 us (03 §2,
 * the outermost tier's α) under seed; hierarchical A2A's 72 cross-pod sends
 * are 18 at 2 us and 54 at 2.5 us by default (375.27 us at 16 MB, what the
 * simulation runs), all at 2 us under seed (03 §2.2's 348.27 us). */
START_TEST(form_seed_keeps_the_seed_alpha_on_rail_fabrics)
{
    topology t;
    load_shipped("superpod-l2", &t);
    double m = 16e6;
    static const struct {
        primitive prim;
        const char *name;
        model_form form;
        double expected_s;
    } cases[] = {
        {PRIM_ALLREDUCE, "ring", FORM_EXACT, 2 * 143 * 2.5e-6 + 2.0 * 143 / 144 * 16e6 / 50e9},
        {PRIM_ALLREDUCE, "ring", FORM_SEED, 2 * 143 * 2e-6 + 2.0 * 143 / 144 * 16e6 / 50e9},
        {PRIM_ALLTOALL, "hierarchical", FORM_EXACT,
         71 * (0.5e-6 + 16e6 / 144 / 900e9) + 18 * (2e-6 + 16e6 / 144 / 50e9) + 54 * (2.5e-6 + 16e6 / 144 / 50e9)},
        {PRIM_ALLTOALL, "hierarchical", FORM_SEED, 71 * (0.5e-6 + 16e6 / 144 / 900e9) + 72 * (2e-6 + 16e6 / 144 / 50e9)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_case c = {.platform = &t, .prim = cases[i].prim, .algorithm = algorithm_find(cases[i].prim, cases[i].name), .ranks = 144, .size_bytes = m,
                        .form = cases[i].form};
        prediction p;
        char why[256];
        ck_assert_msg(model_predict(&c, &p, why, sizeof why), "%s", why);
        ck_assert_msg(fabs(p.time_s / cases[i].expected_s - 1) < 1e-9, "%s %s form %d: %.17g, derived %.17g",
                      primitive_name(cases[i].prim), cases[i].name, cases[i].form, p.time_s, cases[i].expected_s);
    }
    ck_assert_double_eq_tol(cases[3].expected_s * 1e6, 348.27, 0.01);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("model");
    TCase *t = tcase_create("seed tables");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_allreduce_at_n512_16mb_is_ring_546_dbt_45_inc_18_8_torus_57_us);
    tcase_add_test(t, test_dbt_and_inc_allreduce_keep_the_seed_times_from_10_kb_to_1_gb);
    tcase_add_test(t, test_non_allreduce_primitives_at_n512_16mb_take_the_seed_times);
    tcase_add_test(t, test_allreduce_under_the_seed_eta_is_nvls_35_dbt_53_torus_84_us);
    tcase_add_test(t, form_seed_keeps_the_seed_alpha_on_rail_fabrics);
    tcase_add_test(t, test_allgather_and_alltoall_under_the_seed_eta_take_the_seed_times);
    tcase_add_test(t, test_rd_dbt_crossover_is_506_kb_and_ring_dbt_2_gb_at_n72_116_gb_at_n512);
    tcase_add_test(t, test_superpod_l2_hierarchical_allreduce_is_114_us_and_alltoall_348_us);
    suite_add_tcase(s, t);
    return run_suite(s);
}
