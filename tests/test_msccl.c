/* test_msccl.c — schedules with buffers of their own (docs/schedules.md):
 * local ops and per-rank buffers verified on data, the network's view of a
 * schedule with local ops, the critical path of a ring against explainer
 * 01 §5.1's form written here, and a built-in schedule written as MSCCL XML
 * and read back with the same ops and dependencies. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algo/algorithm.h"
#include "algo/msccl_program.h"
#include "sched/critical_path.h"
#include "sched/local_ops.h"
#include "sched/msccl_xml.h"
#include "sched/verify.h"
#include "test_support.h"

static schedule *build(primitive prim, const char *name, int ranks)
{
    const algorithm *a = algorithm_find(prim, name);
    ck_assert_ptr_nonnull(a);
    algo_params p = {.ranks = ranks, .dims = {ranks}, .dim_count = 1};
    char why[256] = "";
    schedule *s = a->build(&p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s refused N = %d: %s", name, ranks, why);
    return s;
}

/* Two ranks, one chunk, all-reduce out of place: input slot 0, output slot 1,
 * a staging slot 2.  Each rank sends its input, receives the other's into
 * staging, copies its input to its output and (unless SKIP_REDUCE) adds the
 * staging slot to it. */
/* Two ranks' all-reduce of one chunk in SLOTS slots each: input in slot 0, output in slot 1. */
static schedule *two_ranks_in_own_buffers(int slots)
{
    schedule *s = schedule_create(PRIM_ALLREDUCE, 2, 0, 1);
    s->slots = slots;
    s->input_slot = malloc(2 * sizeof(int));
    s->output_slot = malloc(2 * sizeof(int));
    s->input_slot[0] = s->input_slot[1] = 0;
    s->output_slot[0] = s->output_slot[1] = 1;
    return s;
}

/* S fails verification with a reason that says TEXT; S freed. */
static void expect_failure(schedule *s, const char *text)
{
    char why[256] = "";
    ck_assert(!schedule_verify(s, why, sizeof why));
    ck_assert_msg(strstr(why, text) != NULL, "%s", why);
    schedule_free(s);
}

static schedule *pair_allreduce(bool skip_reduce)
{
    schedule *s = two_ranks_in_own_buffers(3);
    for (int r = 0; r < 2; r++) {
        sched_send(s, r, 1 - r, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
        int recv = sched_recv(s, r, 1 - r, 2, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
        int copy = sched_local(s, r, false, 0, 1, 1, SCHED_NO_DEP, SCHED_NO_DEP);
        if (!skip_reduce) sched_local(s, r, true, 2, 1, 1, recv, copy);
    }
    return s;
}

START_TEST(test_local_ops_in_own_buffers_verify)
{
    schedule *s = pair_allreduce(false);
    char why[256] = "";
    ck_assert_msg(schedule_verify(s, why, sizeof why), "%s", why);
    schedule_free(s);
}
END_TEST

START_TEST(test_missing_reduction_names_the_rank_and_chunk)
{
    expect_failure(pair_allreduce(true), "rank 0 chunk 0 is wrong");
}
END_TEST

START_TEST(test_reading_an_output_slot_never_written_fails)
{
    schedule *s = two_ranks_in_own_buffers(2);
    for (int r = 0; r < 2; r++) sched_local(s, r, true, 1, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP); /* reads the empty output */
    expect_failure(s, "reads slot 1 before it holds data");
}
END_TEST

START_TEST(test_network_view_keeps_what_local_ops_waited_for)
{
    schedule *s = schedule_create(PRIM_ALLREDUCE, 2, 0, 1);
    s->slots = 2;
    int recv = sched_recv(s, 0, 1, 1, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    int copy = sched_local(s, 0, false, 1, 0, 1, recv, SCHED_NO_DEP);
    sched_send(s, 0, 1, 0, 1, copy, SCHED_NO_DEP);
    sched_send(s, 1, 0, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 0, 0, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    schedule *view = sched_network_view(s);
    ck_assert_int_eq(view->actor[0].op_count, 2);
    const sched_op *send = &view->actor[0].ops[1];
    ck_assert_int_eq(send->kind, OP_SEND);
    ck_assert_int_eq(send->dep_count, 1);
    ck_assert_int_eq(view->actor[0].deps[send->dep_first], 0); /* the receive the copy waited for */
    ck_assert(!sched_has_local_ops(view));
    schedule_free(view);
    schedule_free(s);
}
END_TEST

typedef struct star_costs {
    double alpha_s, chunk_bytes, bandwidth_Bps;
} star_costs;

static double star_message(void *context, int from, int to, int chunks)
{
    const star_costs *c = context;
    (void)from, (void)to;
    return c->alpha_s + chunks * c->chunk_bytes / c->bandwidth_Bps;
}

START_TEST(test_ring_critical_path_is_the_ring_form)
{
    for (int n = 2; n <= 16; n++) {
        schedule *s = build(PRIM_ALLREDUCE, "ring", n);
        double m = 16e6, alpha = 0.5e-6, bw = 900e9;
        star_costs c = {alpha, m / s->chunks, bw};
        sched_path path;
        ck_assert(sched_critical_path(s, star_message, &c, &path));
        double form = 2 * (n - 1) * alpha + 2.0 * (n - 1) / n * m / bw; /* 01 §5.1 */
        ck_assert_msg(fabs(path.time_s - form) <= 1e-12 * form, "N = %d: %.15g vs %.15g", n, path.time_s, form);
        ck_assert_int_eq(path.message_count, 2 * (n - 1));
        sched_path_free(&path);
        schedule_free(s);
    }
}
END_TEST

/* Whether ops A and B wait for the same set of ops. */
static bool same_deps(const sched_actor *x, const sched_op *a, const sched_actor *y, const sched_op *b)
{
    if (a->dep_count != b->dep_count) return false;
    for (int i = 0; i < a->dep_count; i++) {
        bool found = false;
        for (int j = 0; j < b->dep_count; j++) found |= x->deps[a->dep_first + i] == y->deps[b->dep_first + j];
        if (!found) return false;
    }
    return true;
}

/* Built-in NAME of PRIM on 8 ranks, written as MSCCL XML and read back: it
 * verifies, and its network view has the built-in's ops, in order, with the
 * same dependencies. */
static void check_read_back(primitive prim, const char *name)
{
    schedule *s = build(prim, name, 8);
    char path[] = "/tmp/collsim-test-msccl-XXXXXX", why[256] = "";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w");
    ck_assert_msg(msccl_export(s, name, "Simple", out, why, sizeof why), "%s: %s", name, why);
    fclose(out);
    msccl_program p;
    diag d = {0};
    bool loaded = msccl_program_load(path, &p, &d);
    unlink(path);
    ck_assert_msg(loaded, "%s: %s", name, d.message);
    schedule *read = msccl_schedule(&p, prim, 8, 0, &d);
    msccl_program_free(&p);
    ck_assert_msg(read != NULL, "%s: %s", name, d.message);
    ck_assert_msg(schedule_verify(read, why, sizeof why), "%s: %s", name, why);
    schedule *view = sched_network_view(read);
    for (int a = 0; a < 8; a++) {
        const sched_actor *x = &s->actor[a], *y = &view->actor[a];
        ck_assert_int_eq(x->op_count, y->op_count);
        for (int o = 0; o < x->op_count; o++) {
            const sched_op *u = &x->ops[o], *v = &y->ops[o];
            ck_assert_msg((u->kind == OP_SEND) == (v->kind == OP_SEND) && u->peer == v->peer && u->count == v->count &&
                          u->channel == v->channel && same_deps(x, u, y, v),
                          "%s: rank %d op %d differs once read back", name, a, o);
        }
    }
    schedule *all[] = {view, read, s};
    for (int i = 0; i < 3; i++) schedule_free(all[i]);
}

START_TEST(test_exported_schedule_reads_back_op_for_op)
{
    check_read_back(PRIM_ALLREDUCE, "ring");
    check_read_back(PRIM_ALLREDUCE, "dbt");
    check_read_back(PRIM_ALLGATHER, "recursive_doubling");
    check_read_back(PRIM_REDUCESCATTER, "ring");
    check_read_back(PRIM_ALLTOALL, "pairwise");
    check_read_back(PRIM_BCAST, "binomial");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("msccl");
    TCase *tc = tcase_create("buffers");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_local_ops_in_own_buffers_verify);
    tcase_add_test(tc, test_missing_reduction_names_the_rank_and_chunk);
    tcase_add_test(tc, test_reading_an_output_slot_never_written_fails);
    tcase_add_test(tc, test_network_view_keeps_what_local_ops_waited_for);
    tcase_add_test(tc, test_ring_critical_path_is_the_ring_form);
    tcase_add_test(tc, test_exported_schedule_reads_back_op_for_op);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
