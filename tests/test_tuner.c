/* test_tuner.c — `algorithms: [auto]` / `protocol: auto` (docs/model.md, "Real-system terms"):
 * the tuner returns the least predicted time over the algorithms the group
 * supports x NCCL's protocols x the channel options, as NCCL's tuner takes
 * the least of its cost model; checked against an enumeration written here,
 * and for the rules NCCL imposes (NVLS runs Simple only; a protocol the case
 * names is kept). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "model/tuner.h"
#include "test_support.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const double sizes[] = {1e3, 64e3, 1e6, 16e6, 256e6, 4e9};

/* A star supports every algorithm but hierarchical and tree (it has no nodes), each on one segment. */
static int star_supports(void *context, const algorithm *a, int channels, schedule **built)
{
    (void)context, (void)channels, (void)built;
    return strncmp(a->name, "hierarchical", 12) != 0 && strcmp(a->name, "tree") != 0;
}

static prediction predict(const topology *t, const algorithm *a, protocol_id protocol, int channels, double m)
{
    model_case c = {.platform = t, .prim = PRIM_ALLREDUCE, .algorithm = a, .ranks = t->ranks, .size_bytes = m,
                    .protocol = protocol, .channels = channels};
    prediction p;
    char why[256];
    ck_assert_msg(model_predict(&c, &p, why, sizeof why), "%s", why);
    return p;
}

START_TEST(test_tuner_picks_the_least_predicted_supported_choice)
{
    topology t;
    load_shipped("hgx-h100", &t);
    const algorithm *names[TUNER_MAX_CANDIDATES];
    int count = tuner_candidates(PRIM_ALLREDUCE, LIBRARY_NONE, names);
    static const protocol_id protocols[] = {PROTOCOL_SIMPLE, PROTOCOL_LL128, PROTOCOL_LL};
    static const int channels[] = {1, 4};
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double best = INFINITY;
        for (int a = 0; a < count; a++)
            for (size_t p = 0; p < COUNT(protocols); p++)
                for (size_t k = 0; k < COUNT(channels); k++) {
                    if (!star_supports(NULL, names[a], channels[k], NULL)) continue;
                    if (strcmp(names[a]->name, "inc") == 0 && protocols[p] != PROTOCOL_SIMPLE) continue; /* NVLS: Simple */
                    best = fmin(best, predict(&t, names[a], protocols[p], channels[k], sizes[m]).time_s);
                }
        model_case base = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = NULL, .ranks = 8, .size_bytes = sizes[m]};
        tuner_choice pick;
        ck_assert(tuner_pick(&base, names, count, channels, 2, star_supports, NULL, &pick));
        ck_assert_msg(pick.predicted_s == best, "M = %g: picked %s/%s/%d at %.17g, least %.17g", sizes[m], pick.algorithm->name,
                      protocol_name(pick.protocol), pick.channels, pick.predicted_s, best);
        ck_assert_double_eq(predict(&t, pick.algorithm, pick.protocol, pick.channels, sizes[m]).time_s, pick.predicted_s);
        ck_assert_msg(strcmp(pick.algorithm->name, "inc") != 0 || pick.protocol == PROTOCOL_SIMPLE, "NVLS under %s",
                      protocol_name(pick.protocol));
    }
    topology_free(&t);
}
END_TEST

/* NCCL's trade: LL has the least latency (base 6.6 us, 0.6 us per NVLink
 * hop), Simple the full bandwidth; small messages go LL, large ones Simple. */
START_TEST(test_tuner_takes_ll_for_small_and_simple_for_large_messages)
{
    topology t;
    load_shipped("hgx-a100", &t); /* no NVLS */
    const algorithm *ring[] = {algorithm_find(PRIM_ALLREDUCE, "ring")};
    static const int one[] = {1};
    model_case base = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "ring"), .ranks = 8, .size_bytes = 1e3};
    tuner_choice pick;
    ck_assert(tuner_pick(&base, ring, 1, one, 1, star_supports, NULL, &pick));
    ck_assert_int_eq(pick.protocol, PROTOCOL_LL);
    base.size_bytes = 4e9;
    ck_assert(tuner_pick(&base, ring, 1, one, 1, star_supports, NULL, &pick));
    ck_assert_int_eq(pick.protocol, PROTOCOL_SIMPLE);
    topology_free(&t);
}
END_TEST

/* `protocols` lists what the platform's library enables: RCCL runs LL and
 * Simple on MI300X (LL128 on gfx90a only), so `auto` never picks LL128
 * there, even where it would be the fastest. */
START_TEST(test_tuner_offers_only_the_protocols_the_library_enables)
{
    topology t;
    load_text("kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\nprotocols: [simple, ll]\n", &t);
    const algorithm *ring[] = {algorithm_find(PRIM_ALLREDUCE, "ring")};
    static const int one[] = {1};
    /* 8 MB: LL128 would win (its 0.94 wire efficiency at 14 + 14 x 1.9 us, against Simple's
     * 8.4 + 14 x 3.4 us and LL's half rate), as the same star without the key shows */
    topology all;
    load_text("kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\n", &all);
    model_case base = {.platform = &all, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "ring"), .ranks = 8, .size_bytes = 8e6};
    tuner_choice pick;
    ck_assert(tuner_pick(&base, ring, 1, one, 1, star_supports, NULL, &pick));
    ck_assert_int_eq(pick.protocol, PROTOCOL_LL128);
    static const double checked[] = {1e3, 8e6, 4e9};
    /* without LL128, 8 MB goes LL: 15 us + 1.75 x 8 MB / 225 GB/s = 77.2 us, Simple 56 us + 31.1 us */
    static const protocol_id expected[] = {PROTOCOL_LL, PROTOCOL_LL, PROTOCOL_SIMPLE};
    for (size_t m = 0; m < COUNT(checked); m++) {
        base.platform = &t;
        base.size_bytes = checked[m];
        ck_assert(tuner_pick(&base, ring, 1, one, 1, star_supports, NULL, &pick));
        ck_assert_msg(pick.protocol == expected[m], "M = %g: %s", checked[m], protocol_name(pick.protocol));
    }
    topology_free(&all);
    topology_free(&t);
}
END_TEST

/* A protocol the case names is kept; nothing supported, nothing picked. */
START_TEST(test_tuner_keeps_a_named_protocol_and_reports_no_choice)
{
    topology t;
    load_shipped("hgx-h100", &t);
    const algorithm *names[TUNER_MAX_CANDIDATES];
    int count = tuner_candidates(PRIM_ALLREDUCE, LIBRARY_NONE, names);
    static const int one[] = {1};
    for (size_t m = 0; m < COUNT(sizes); m++) {
        model_case base = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = NULL, .ranks = 8, .size_bytes = sizes[m],
                           .protocol = PROTOCOL_LL128};
        tuner_choice pick;
        ck_assert(tuner_pick(&base, names, count, one, 1, star_supports, NULL, &pick));
        ck_assert_int_eq(pick.protocol, PROTOCOL_LL128);
        ck_assert_str_ne(pick.algorithm->name, "inc"); /* NVLS has no LL128 */
    }
    const algorithm *only[] = {algorithm_find(PRIM_ALLREDUCE, "hierarchical")};
    model_case base = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = NULL, .ranks = 8, .size_bytes = 1e6};
    tuner_choice pick;
    ck_assert(!tuner_pick(&base, only, 1, one, 1, star_supports, NULL, &pick));
    topology_free(&t);
}
END_TEST

/* As the real builders do: an algorithm without channels refuses K > 1. */
static int builds_with_channels(void *context, const algorithm *a, int channels, schedule **built)
{
    (void)context, (void)built;
    return channels == 1 || strcmp(a->name, "ring") == 0;
}

/* Channels the case offers (a full mesh's 6 disjoint rings) go to the
 * algorithms that take them; pairwise A2A still runs, on one. */
START_TEST(test_tuner_runs_algorithms_without_channels_on_one)
{
    topology t;
    load_shipped("mi300x-8", &t);
    const algorithm *names[TUNER_MAX_CANDIDATES];
    int count = tuner_candidates(PRIM_ALLTOALL, LIBRARY_NONE, names);
    static const int six[] = {6};
    model_case base = {.platform = &t, .prim = PRIM_ALLTOALL, .algorithm = NULL, .ranks = 8, .size_bytes = 1e6};
    tuner_choice pick;
    ck_assert(tuner_pick(&base, names, count, six, 1, builds_with_channels, NULL, &pick));
    ck_assert_str_eq(pick.algorithm->name, "pairwise");
    ck_assert_int_eq(pick.channels, 1);
    base.prim = PRIM_ALLGATHER; /* ring takes them */
    const algorithm *ring[] = {algorithm_find(PRIM_ALLGATHER, "ring")};
    ck_assert(tuner_pick(&base, ring, 1, six, 1, builds_with_channels, NULL, &pick));
    ck_assert_int_eq(pick.channels, 6);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("tuner");
    TCase *tc = tcase_create("tuner");
    tcase_add_test(tc, test_tuner_picks_the_least_predicted_supported_choice);
    tcase_add_test(tc, test_tuner_takes_ll_for_small_and_simple_for_large_messages);
    tcase_add_test(tc, test_tuner_keeps_a_named_protocol_and_reports_no_choice);
    tcase_add_test(tc, test_tuner_offers_only_the_protocols_the_library_enables);
    tcase_add_test(tc, test_tuner_runs_algorithms_without_channels_on_one);
    suite_add_tcase(suite, tc);
    return run_suite(suite);
}
