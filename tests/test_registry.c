/* test_registry.c — the algorithm registry: every registered algorithm has a
 * closed form or says how it is predicted instead, and its traits agree with
 * what it builds (one file and one registry entry per algorithm,
 * docs/architecture.md). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "algo/algorithm.h"
#include "model/formulas.h"
#include "test_support.h"

START_TEST(test_every_registered_algorithm_has_a_formula_or_says_it_has_none)
{
    int count;
    const algorithm *table = algorithm_table(&count);
    ck_assert_int_gt(count, 30);
    for (int i = 0; i < count; i++) {
        const algorithm *a = &table[i];
        const formula *f = formula_of(a);
        ck_assert_msg(f, "%s %s has no formula row", primitive_name(a->prim), a->name);
        if (f->counts) {
            ck_assert_msg(f->text && f->seed, "%s %s: a closed form names itself and its seed section",
                          primitive_name(a->prim), a->name);
            ck_assert_msg(a->composition == COMPOSITION_FLAT, "%s %s: a closed form is a flat schedule's",
                          primitive_name(a->prim), a->name);
        } else {
            ck_assert_msg(f->none && f->none[0], "%s %s: no closed form and no word on how it is predicted",
                          primitive_name(a->prim), a->name);
            ck_assert_msg(a->composition != COMPOSITION_FLAT, "%s %s: a flat schedule without a closed form",
                          primitive_name(a->prim), a->name);
        }
    }
}
END_TEST

/* Each record is found by its own primitive and name, and no other. */
START_TEST(test_every_algorithm_is_found_by_its_primitive_and_name)
{
    int count;
    const algorithm *table = algorithm_table(&count);
    for (int i = 0; i < count; i++) {
        ck_assert_ptr_eq(algorithm_find(table[i].prim, table[i].name), &table[i]);
        for (int j = i + 1; j < count; j++)
            ck_assert_msg(table[i].prim != table[j].prim || strcmp(table[i].name, table[j].name) != 0,
                          "%s registered twice for %s", table[i].name, primitive_name(table[i].prim));
    }
}
END_TEST

/* What the traits claim holds of the schedules: a channel-spreading
 * algorithm takes channels, a Simple-only one is NVLS's family, an algorithm
 * with switch actors builds a schedule per group, a generator gives the
 * stored schedule's shape. */
START_TEST(test_traits_agree_with_what_each_algorithm_builds)
{
    int count;
    const algorithm *table = algorithm_table(&count);
    for (int i = 0; i < count; i++) {
        const algorithm *a = &table[i];
        if (a->traits & TRAIT_CHANNELS_SPREAD) ck_assert(algorithm_takes_channels(a));
        if (a->traits & TRAIT_SIMPLE_ONLY) ck_assert_int_eq(a->family, FAMILY_NVLS);
        if (a->inc_capabilities) ck_assert(algorithm_per_group(a));
        if (a->composition != COMPOSITION_FLAT) ck_assert(algorithm_per_group(a));
        if (!algorithm_takes_channels(a)) {
            algo_params p = {.ranks = 8, .channels = 2, .size_bytes = 1e6, .alpha_s = 1e-6, .bandwidth_Bps = 1e11};
            char why[256] = "";
            ck_assert_msg(!algorithm_build(a, &p, why, sizeof why), "%s %s takes no channels but built two",
                          primitive_name(a->prim), a->name);
            ck_assert_msg(strstr(why, "channels"), "%s: %s", a->name, why);
        }
        if (a->generate) { /* 8 ranks in two domains of 4, for the hierarchical ones */
            algo_params p = {.ranks = 8, .domain_ranks = 4, .size_bytes = 1e6};
            char why[256] = "";
            schedule *stored = algorithm_build(a, &p, why, sizeof why), *generated = algorithm_generate(a, &p, why, sizeof why);
            ck_assert_msg(stored && generated, "%s %s: %s", primitive_name(a->prim), a->name, why);
            ck_assert_int_eq(stored->actors, generated->actors);
            ck_assert_int_eq(stored->chunks, generated->chunks);
            schedule_free(stored);
            schedule_free(generated);
        }
    }
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("registry");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, test_every_registered_algorithm_has_a_formula_or_says_it_has_none);
    tcase_add_test(tc, test_every_algorithm_is_found_by_its_primitive_and_name);
    tcase_add_test(tc, test_traits_agree_with_what_each_algorithm_builds);
    suite_add_tcase(suite, tc);
    return run_suite(suite);
}
