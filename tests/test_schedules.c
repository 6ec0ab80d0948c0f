/* test_schedules.c — schedules verified on data, a corrupted schedule caught,
 * the ring all-reduce timed against explainer 01 §5.1's formula written
 * here: t = 2(N-1) alpha + 2(N-1)/N M/BW, and the generated rings
 * (ring_generated.c) proved equal, op by op, to the stored and sealed ones
 * the verifier checks. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "exec/executor.h"
#include "sched/verify.h"
#include "test_support.h"

static const int group_sizes[] = {2, 3, 4, 5, 7, 8, 16, 64, 72};

static schedule *build(primitive prim, const char *name, int ranks)
{
    const algorithm *a = algorithm_find(prim, name);
    ck_assert_ptr_nonnull(a);
    algo_params p = {.ranks = ranks};
    char why[256] = "";
    schedule *s = algorithm_build(a, &p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s refused N = %d: %s", name, ranks, why);
    return s;
}

START_TEST(test_ring_allreduce_verifies)
{
    for (size_t i = 0; i < sizeof group_sizes / sizeof group_sizes[0]; i++) {
        schedule *s = build(PRIM_ALLREDUCE, "ring", group_sizes[i]);
        char why[512] = "";
        ck_assert_msg(schedule_verify(s, why, sizeof why), "N = %d: %s", group_sizes[i], why);
        schedule_free(s);
    }
}
END_TEST

START_TEST(test_dropped_contribution_fails_verification)
{
    schedule *s = build(PRIM_ALLREDUCE, "ring", 5);
    /* rank 3's first receive copies instead of reducing: rank 2's value is dropped */
    for (int o = 0; o < s->actor[3].op_count; o++)
        if (s->actor[3].ops[o].kind == OP_RECV_REDUCE) {
            s->actor[3].ops[o].kind = OP_RECV;
            break;
        }
    char why[512] = "";
    ck_assert(!schedule_verify(s, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "wrong"));
    schedule_free(s);
}
END_TEST

START_TEST(test_duplicated_chunk_fails_verification)
{
    schedule *s = build(PRIM_ALLREDUCE, "ring", 4);
    /* rank 0 sends its chunk 0 to rank 1 a second time, which reduces it again */
    sched_send(s, 0, 1, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 0, 0, 1, true, SCHED_NO_DEP, SCHED_NO_DEP);
    char why[512] = "";
    ck_assert(!schedule_verify(s, why, sizeof why));
    schedule_free(s);
}
END_TEST

START_TEST(test_unmatched_send_is_a_deadlock)
{
    schedule *s = build(PRIM_ALLREDUCE, "ring", 3);
    sched_send(s, 0, 2, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    char why[512] = "";
    ck_assert(!schedule_verify(s, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "never completes"));
    schedule_free(s);
}
END_TEST

/* under both network models (docs/packet.md) */
START_TEST(test_executor_reports_a_deadlock)
{
    topology t;
    load_text("kind: star\nranks: 3\nalpha: 0.5us\nbandwidth: 900GBps\n", &t);
    schedule *s = build(PRIM_ALLREDUCE, "ring", 3);
    sched_recv(s, 0, 2, 0, 1, false, SCHED_NO_DEP, SCHED_NO_DEP); /* a receive nobody sends to */
    int nodes[3] = {0, 1, 2};
    static const network_model models[] = {NETWORK_CM02, NETWORK_PACKET};
    for (int k = 0; k < 2; k++) {
        exec_result result;
        sim_options options = {.model = models[k]};
        diag d = {0};
        ck_assert(!execute_schedule(&t, s, nodes, 1e6, &options, &result, &d));
        ck_assert_ptr_nonnull(strstr(d.message, "deadlock"));
    }
    schedule_free(s);
    topology_free(&t);
}
END_TEST

START_TEST(test_ring_allreduce_star_matches_formula)
{
    static const int ranks[] = {4, 16, 72, 512};
    static const double sizes[] = {1e3, 1e6, 1e9};
    const double alpha = 0.5e-6, bw = 900e9;
    for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
        char yaml[256];
        snprintf(yaml, sizeof yaml, "kind: star\nranks: %d\nalpha: 0.5us\nbandwidth: 900GBps\n", ranks[r]);
        topology t;
        load_text(yaml, &t);
        schedule *s = build(PRIM_ALLREDUCE, "ring", ranks[r]);
        for (size_t m = 0; m < sizeof sizes / sizeof sizes[0]; m++) {
            double n = ranks[r];
            char what[64];
            snprintf(what, sizeof what, "ring AR on a star, N = %d", ranks[r]);
            expect_time(&t, s, sizes[m], 2 * (n - 1) * alpha + 2 * (n - 1) / n * sizes[m] / bw, what); /* 01 §5.1 */
        }
        schedule_free(s);
        topology_free(&t);
    }
}
END_TEST

static const primitive ring_prims[] = {PRIM_ALLREDUCE, PRIM_ALLGATHER, PRIM_REDUCESCATTER};

/* Every op of the generated ring, each field and each dependency, equals
 * the op ring_schedule stores and schedule_seal completes; nothing is stored
 * per op. */
START_TEST(test_ring_generated_equals_stored)
{
    static const int ranks[] = {2, 3, 4, 8, 72};
    for (size_t p = 0; p < sizeof ring_prims / sizeof ring_prims[0]; p++)
        for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
            char why[256] = "";
            schedule *stored = ring_schedule(ring_prims[p], ranks[i], why, sizeof why);
            schedule *generated = ring_schedule_generated(ring_prims[p], ranks[i], why, sizeof why);
            ck_assert_ptr_nonnull(stored);
            ck_assert_ptr_nonnull(generated);
            schedule_seal(stored);
            char what[64];
            snprintf(what, sizeof what, "generated ring %s, N = %d", primitive_name(ring_prims[p]), ranks[i]);
            expect_generated_equals_stored(generated, stored, what);
            schedule_free(stored);
            schedule_free(generated);
        }
}
END_TEST

/* The executor runs a generated ring to explainer 01's times: AR as §5.1
 * (above), AG and RS (N-1) alpha + (N-1)/N M/BW (§6). */
START_TEST(test_ring_generated_star_matches_formula)
{
    static const int ranks[] = {2, 5, 16, 72};
    const double alpha = 0.5e-6, bw = 900e9, size = 1e6;
    for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
        char yaml[256], why[256] = "";
        snprintf(yaml, sizeof yaml, "kind: star\nranks: %d\nalpha: 0.5us\nbandwidth: 900GBps\n", ranks[r]);
        topology t;
        load_text(yaml, &t);
        for (size_t p = 0; p < sizeof ring_prims / sizeof ring_prims[0]; p++) {
            schedule *s = ring_schedule_generated(ring_prims[p], ranks[r], why, sizeof why);
            double n = ranks[r], passes = ring_prims[p] == PRIM_ALLREDUCE ? 2 : 1;
            char what[64];
            snprintf(what, sizeof what, "generated ring %s on a star, N = %d", primitive_name(ring_prims[p]), ranks[r]);
            expect_time(&t, s, size, passes * ((n - 1) * alpha + (n - 1) / n * size / bw), what);
            schedule_free(s);
        }
        topology_free(&t);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("schedules");
    TCase *tc = tcase_create("ring");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_ring_allreduce_verifies);
    tcase_add_test(tc, test_dropped_contribution_fails_verification);
    tcase_add_test(tc, test_duplicated_chunk_fails_verification);
    tcase_add_test(tc, test_unmatched_send_is_a_deadlock);
    tcase_add_test(tc, test_executor_reports_a_deadlock);
    tcase_add_test(tc, test_ring_allreduce_star_matches_formula);
    tcase_add_test(tc, test_ring_generated_equals_stored);
    tcase_add_test(tc, test_ring_generated_star_matches_formula);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
