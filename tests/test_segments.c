/* test_segments.c — algorithm_segments, what `collsim predict` reads instead
 * of a schedule: for every registered algorithm, over group sizes, segment
 * settings, sizes, channel counts, torus shapes, inner domains (in rank order
 * and shuffled), INC trees and hierarchical parts, the segments it gives are
 * the segments of the schedule algorithm_build really builds, and it refuses
 * exactly where the build refuses, with the same reason.  And the depth of
 * the double binary trees, computed without building them, is the depth of
 * the trees built. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "algo/double_tree.h"
#include "test_support.h"

static const double alpha = STAR_ALPHA_S, bw = STAR_BANDWIDTH_BPS;

/* algorithm_segments(A, P) against the schedule algorithm_build gives. */
static void expect_segments_of_build(const algorithm *a, const algo_params *p)
{
    char built_why[512] = "", why[512] = "";
    schedule *s = algorithm_build(a, p, built_why, sizeof built_why);
    int segments = algorithm_segments(a, p, why, sizeof why);
    if (!s) {
        ck_assert_msg(segments == 0, "%s %s, N = %d, P %d, K %d: the build refuses (%s), algorithm_segments gives %d",
                      a->name, primitive_name(a->prim), p->ranks, p->segments, p->channels, built_why, segments);
        if (strstr(built_why, "chunk grids") == NULL && strstr(built_why, "slices of") == NULL) /* the stored grid's */
            ck_assert_str_eq(why, built_why);
        return;
    }
    ck_assert_msg(segments == s->segments, "%s %s, N = %d, P %d, M %g, K %d, domains of %d: built %d segments, "
                  "algorithm_segments %d (%s)", a->name, primitive_name(a->prim), p->ranks, p->segments, p->size_bytes,
                  p->channels, p->domain_ranks, s->segments, segments, why);
    schedule_free(s);
}

START_TEST(test_segments_match_the_built_schedule_for_every_algorithm)
{
    static const int ranks[] = {1, 2, 3, 4, 5, 8, 12, 16, 31, 64};
    static const int segments[] = {0, 1, 5, 64, SEGMENTS_AUTO};
    static const double sizes[] = {1e3, 1e6, 1e9};
    static const int channels[] = {1, 2, 40};
    int order[64];
    for (int i = 0; i < 64; i++) order[i] = (i * 5) % 64; /* 5 is prime to 64: a permutation */
    int count;
    const algorithm *table = algorithm_table(&count);
    const int sets[] = {sizeof ranks / sizeof ranks[0], sizeof segments / sizeof segments[0],
                        sizeof sizes / sizeof sizes[0], sizeof channels / sizeof channels[0]};
    int combinations = sets[0] * sets[1] * sets[2] * sets[3];
    for (int k = 0; k < count; k++)
        for (int i = 0; i < combinations; i++) { /* every rank count, segments, size and channels */
            int r = ranks[i % sets[0]], c = channels[i / sets[0] / sets[1] / sets[2]];
            algo_params p = {.ranks = r, .segments = segments[i / sets[0] % sets[1]], .alpha_s = alpha,
                             .size_bytes = sizes[i / sets[0] / sets[1] % sets[2]], .bandwidth_Bps = bw, .peer = 1,
                             .domain_ranks = r % 4 == 0 && r > 4 ? 4 : 1, .dims = {r}, .dim_count = 1, .tiers = 1,
                             .channels = c, .root = r / 2};
            inc_tree tree;
            unsigned capabilities = algorithm_inc_capabilities(&table[k]);
            if (capabilities && r > 0) {
                inc_tree_single_switch(&tree, r, r);
                p.inc = &tree;
            }
            expect_segments_of_build(&table[k], &p);
            if (r == 16 || r == 64) { /* a 2-D torus shape, and domains out of rank order */
                algo_params q = p;
                q.dims[0] = 4;
                q.dims[1] = r / 4;
                q.dim_count = 2;
                q.domain_order = r == 64 ? order : NULL;
                expect_segments_of_build(&table[k], &q);
            }
            if (capabilities && r > 0) inc_tree_free(&tree);
        }
}
END_TEST

START_TEST(test_hierarchical_segments_match_for_every_pair_of_parts)
{
    static const char *const parts[] = {"ring", "dbt", "binomial", "recursive_doubling", "pat", "no_such"};
    static const int segments[] = {0, 3, SEGMENTS_AUTO};
    static const char *const names[] = {"hierarchical", "hierarchical_pipelined"};
    static const primitive prims[] = {PRIM_ALLREDUCE, PRIM_ALLGATHER, PRIM_REDUCESCATTER};
    for (size_t h = 0; h < 2; h++)
        for (size_t x = 0; x < sizeof prims / sizeof prims[0]; x++)
            for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
                for (size_t o = 0; o < sizeof parts / sizeof parts[0]; o++)
                    for (size_t g = 0; g < sizeof segments / sizeof segments[0]; g++)
                        for (int d = 2; d <= 8; d *= 2) {
                            algo_params p = {.ranks = 48, .segments = segments[g], .size_bytes = 1e9, .alpha_s = alpha,
                                             .bandwidth_Bps = bw, .domain_ranks = d, .inner = parts[i], .outer = parts[o]};
                            const algorithm *a = algorithm_find(prims[x], names[h]);
                            ck_assert_ptr_nonnull(a);
                            expect_segments_of_build(a, &p);
                        }
}
END_TEST

START_TEST(test_double_tree_levels_are_the_built_depth)
{
    for (int nodes = 1; nodes <= 300; nodes++)
        for (int per_node = 1; per_node <= 9; per_node += 4) {
            double_tree t;
            if (per_node == 1) double_tree_init(&t, nodes);
            else double_tree_init_chained(&t, nodes, per_node, NULL);
            ck_assert_int_eq(double_tree_levels(nodes, per_node), t.depth);
            double_tree_free(&t);
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("segments");
    TCase *t = tcase_create("segments");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, test_segments_match_the_built_schedule_for_every_algorithm);
    tcase_add_test(t, test_hierarchical_segments_match_for_every_pair_of_parts);
    tcase_add_test(t, test_double_tree_levels_are_the_built_depth);
    suite_add_tcase(s, t);
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
