/* test_child_crashes.c — how a simulation child's end is told apart (issue
 * 12): a crash inside SimGrid's kernel while simulating (where the max-min
 * solver runs) is simulated again at a coarser precision, up to three
 * attempts; a crash anywhere else, a kill, or a failure is reported once,
 * saying where and naming the simulation; and --cfg options are checked
 * against SimGrid before any simulation.  The jobs below crash on purpose,
 * each at a place it marks; every attempt appends a byte to a file, so the
 * number of attempts is counted outside the children. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/fluid/simgrid_run.h"
#include "test_support.h"

typedef struct attempts {
    char path[64]; /* one byte per attempt */
} attempts;

/* Record this attempt; how many there have been, this one included. */
static long count_attempt(const attempts *a)
{
    FILE *f = fopen(a->path, "ab");
    fputc('x', f);
    fclose(f);
    struct stat st;
    stat(a->path, &st);
    return (long)st.st_size;
}

static long attempts_made(const attempts *a)
{
    struct stat st;
    return stat(a->path, &st) == 0 ? (long)st.st_size : 0;
}

static bool crash_in_actor(void *ctx, double *out)
{
    (void)out;
    count_attempt(ctx);
    simgrid_mark(SIM_IN_ACTOR);
    raise(SIGSEGV);
    return true;
}

static bool crash_in_simgrid_once(void *ctx, double *out)
{
    if (count_attempt(ctx) == 1) {
        simgrid_mark(SIM_IN_SIMGRID);
        raise(SIGSEGV);
    }
    out[0] = 42;
    return true;
}

static bool crash_in_simgrid_always(void *ctx, double *out)
{
    (void)out;
    count_attempt(ctx);
    simgrid_mark(SIM_IN_SIMGRID);
    abort();
}

static bool crash_in_setup(void *ctx, double *out)
{
    (void)out;
    count_attempt(ctx);
    simgrid_mark(SIM_IN_SIMGRID_SETUP);
    abort();
}

static bool crash_while_preparing(void *ctx, double *out)
{
    (void)out;
    count_attempt(ctx);
    raise(SIGFPE);
    return true;
}

static bool killed(void *ctx, double *out)
{
    (void)out;
    count_attempt(ctx);
    simgrid_mark(SIM_IN_SIMGRID);
    raise(SIGKILL); /* no crash handler runs: the out-of-memory killer's way */
    return true;
}

/* Run JOB; its result, with D and the number of attempts filled. */
static bool run(bool (*job)(void *, double *), diag *d, long *tries, double *out)
{
    attempts a;
    snprintf(a.path, sizeof a.path, "/tmp/collsim-attempts-XXXXXX");
    close(mkstemp(a.path));
    *d = (diag){0};
    bool ok = simgrid_fork(job, &a, out, 1, "case 7 (allreduce ring at 16 MB)", d);
    *tries = attempts_made(&a);
    unlink(a.path);
    return ok;
}

static void expect_reported(bool (*job)(void *, double *), long tries_expected, const char *fragment)
{
    diag d;
    long tries;
    double out = 0;
    ck_assert(!run(job, &d, &tries, &out));
    ck_assert_int_eq(tries, tries_expected);
    ck_assert_msg(strstr(d.message, fragment), "no '%s' in: %s", fragment, d.message);
    ck_assert_msg(strstr(d.message, "case 7 (allreduce ring at 16 MB)"), "the case is not named: %s", d.message);
}

/* Each way a child ends outside SimGrid's solver: one attempt, and what it was. */
static const struct {
    bool (*job)(void *, double *);
    const char *what;
} elsewhere[] = {{crash_in_actor, "collsim crashed in the executor"},
                 {crash_in_setup, "SimGrid crashed while reading its options and the platform"},
                 {crash_while_preparing, "collsim crashed while preparing"},
                 {killed, "killed by signal 9"}};

START_TEST(test_an_end_outside_the_solver_is_reported_not_retried)
{
    expect_reported(elsewhere[_i].job, 1, elsewhere[_i].what);
}
END_TEST

START_TEST(test_a_solver_crash_is_simulated_again)
{
    diag d;
    long tries;
    double out = 0;
    ck_assert_msg(run(crash_in_simgrid_once, &d, &tries, &out), "%s", d.message);
    ck_assert_int_eq(tries, 2);
    ck_assert_double_eq(out, 42);
}
END_TEST

START_TEST(test_a_solver_crash_at_every_precision_is_reported_after_three_attempts)
{
    expect_reported(crash_in_simgrid_always, 3, "at every precision");
}
END_TEST

START_TEST(test_cfg_options_are_checked_against_simgrid)
{
    static const struct {
        const char *option, *fragment;
    } refused[] = {{"--cfg=foo/bar:1", "Bad config key: foo/bar"},
                   {"--cfg=network/model:FOO", "Model 'FOO' is invalid"},
                   {"--cfg=maxmin/precision:abc", "invalid double"},
                   {"--cfg=tracing:1", "tracing is not available"},
                   {"--cfg=tracing/uncategorized:1", "tracing is not available"}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *one[] = {"--cfg=network/crosstraffic:0", refused[i].option, NULL};
        sim_options o = {.model = NETWORK_CM02, .extra_cfg = one};
        diag d = {0};
        ck_assert_msg(!simgrid_check_options(&o, &d), "%s accepted", refused[i].option);
        ck_assert_msg(strstr(d.message, refused[i].option) && strstr(d.message, refused[i].fragment),
                      "%s: the message names neither the option nor SimGrid's reason: %s", refused[i].option, d.message);
    }
    const char *good[] = {"--cfg=network/crosstraffic:0", "--cfg=maxmin/precision:1e-9", NULL};
    sim_options o = {.model = NETWORK_CM02, .extra_cfg = good};
    diag d = {0};
    ck_assert_msg(simgrid_check_options(&o, &d), "%s", d.message);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("child_crashes");
    TCase *tc = tcase_create("classify");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_an_end_outside_the_solver_is_reported_not_retried, 0,
                        (int)(sizeof elsewhere / sizeof elsewhere[0]));
    tcase_add_test(tc, test_a_solver_crash_is_simulated_again);
    tcase_add_test(tc, test_a_solver_crash_at_every_precision_is_reported_after_three_attempts);
    tcase_add_test(tc, test_cfg_options_are_checked_against_simgrid);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
