/* test_child_crashes.c — how a simulation child's end is told apart (issue
 * 12): a crash inside SimGrid's kernel while simulating (where the max-min
 * solver runs) is simulated again at a coarser precision, up to three
 * attempts; a crash anywhere else, a kill, or a failure is reported once,
 * saying where and naming the simulation; and --cfg options are checked
 * against SimGrid before any simulation, or refused by collsim where SimGrid
 * would spin, depend on load or stop on purpose; a child tells its parent
 * how far it has got through a shared heartbeat, a child whose simulated
 * time stands still is ended, and one past its memory limit is reported as
 * out of memory.  The jobs below crash on purpose,
 * each at a place it marks; every attempt appends a byte to a file, so the
 * number of attempts is counted outside the children. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net/fluid/simgrid_run.h"
#include "test_support.h"
#include "util/memory.h"

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

/* A child whose simulated time never moves: it waits for ever. */
static bool stands_still(void *ctx, double *out)
{
    (void)ctx;
    (void)out;
    for (;;) pause();
    return true;
}

/* A child that reaches 1 us of simulated time more, and one operation,
 * every 0.25 s of wall time for 3.5 s. */
static bool moves_slowly(void *ctx, double *out)
{
    (void)ctx;
    heartbeat *h = simgrid_heartbeat();
    for (int step = 1; step <= 14; step++) {
        nanosleep(&(struct timespec){0, 250000000}, NULL);
        heartbeat_op_done(h, step * 1e-6);
    }
    out[0] = 42;
    return true;
}

/* A child that asks for 1 GiB at once, as the executor would, and is out of
 * memory when it cannot have it. */
static bool wants_a_gibibyte(void *ctx, double *out)
{
    (void)ctx;
    char *p = malloc((size_t)1 << 30);
    if (!p) out_of_memory();
    out[0] = p[0] = 1;
    free(p);
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

START_TEST(test_cfg_values_that_spin_or_depend_on_load_are_refused_with_the_reason)
{
    static const struct {
        const char *option, *fragment;
    } refused[] = {{"--cfg=maxmin/precision:0", "steps forever without moving its clock"},
                   {"--cfg=surf/precision:0", "steps forever without moving its clock"},
                   {"--cfg=surf/precision:-1e-9", "steps forever without moving its clock"},
                   {"--cfg=contexts/nthreads:4", "depends on the machine's load"},
                   {"--cfg=contexts/nthreads:0", "depends on the machine's load"},
                   {"--cfg=debug/breakpoint:1e-6", "SIGTRAP"},
                   {"--cfg=plugin:cmonkey", "chaos monkey"},
                   {"--cfg=maxmin/concurrency-limit:0", "lets no transfer run"},
                   {"--cfg=network/latency-factor:-0.5", "every latency negative"}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *one[] = {refused[i].option, NULL};
        sim_options o = {.model = NETWORK_CM02, .extra_cfg = one};
        diag d = {0};
        ck_assert_msg(!simgrid_check_options(&o, &d), "%s accepted", refused[i].option);
        ck_assert_msg(strstr(d.message, refused[i].option) && strstr(d.message, refused[i].fragment),
                      "%s: no '%s' in: %s", refused[i].option, refused[i].fragment, d.message);
    }
    const char *good[] = {"--cfg=contexts/nthreads:1", "--cfg=surf/precision:1e-12", "--cfg=maxmin/concurrency-limit:-1",
                          "--cfg=debug/breakpoint:-1", "--cfg=network/latency-factor:1.5", NULL};
    sim_options o = {.model = NETWORK_CM02, .extra_cfg = good};
    diag d = {0};
    ck_assert_msg(simgrid_check_options(&o, &d), "%s", d.message);
}
END_TEST

START_TEST(test_a_child_whose_simulated_time_stands_still_is_ended)
{
    setenv("COLLSIM_STALL_SECONDS", "2", 1);
    diag d;
    long tries;
    double out = 0;
    time_t start = time(NULL);
    ck_assert(!run(stands_still, &d, &tries, &out));
    ck_assert_msg(time(NULL) - start < 10, "ended after %ld s, with a limit of 2 s", (long)(time(NULL) - start));
    ck_assert_int_eq(tries, 0); /* it never counted an attempt: the job does not */
    ck_assert_msg(strstr(d.message, "made no progress in simulated time for 2 s") &&
                      strstr(d.message, "case 7 (allreduce ring at 16 MB)") &&
                      strstr(d.message, "COLLSIM_STALL_SECONDS=2"),
                  "%s", d.message);
    unsetenv("COLLSIM_STALL_SECONDS");
}
END_TEST

/* What the parent saw of a child's heartbeat. */
typedef struct beats_seen {
    int count;
    double time_s[64];
} beats_seen;

static void note_beat(void *ctx, const heartbeat *h, double waited_s)
{
    (void)waited_s;
    beats_seen *seen = ctx;
    if (seen->count < 64) seen->time_s[seen->count++] = h->time_s;
}

START_TEST(test_a_slow_child_shows_its_heartbeat_and_is_not_ended)
{
    setenv("COLLSIM_STALL_SECONDS", "2", 1); /* it moves every 0.25 s: never 2 s still */
    beats_seen seen = {0};
    double out = 0;
    sim_child c;
    diag d = {0};
    ck_assert(simgrid_spawn(moves_slowly, NULL, &out, 1, "a slow child", &c, &d));
    c.on_beat = note_beat;
    c.on_beat_ctx = &seen;
    ck_assert_msg(simgrid_join(&c, &d), "%s", d.message);
    ck_assert_double_eq(out, 42);
    ck_assert_msg(seen.count >= 2, "%d heartbeats in 3.5 s, one a second expected", seen.count);
    for (int i = 1; i < seen.count; i++)
        ck_assert_msg(seen.time_s[i] > seen.time_s[i - 1], "beat %d at %g s after %g s", i, seen.time_s[i],
                      seen.time_s[i - 1]);
    ck_assert_msg(seen.time_s[seen.count - 1] <= 14e-6, "%g s: more than the child reached", seen.time_s[seen.count - 1]);
    unsetenv("COLLSIM_STALL_SECONDS");
}
END_TEST

START_TEST(test_a_child_past_its_memory_limit_is_out_of_memory)
{
    if (!child_limits_memory_applies()) return; /* AddressSanitizer's build (docs/reliability.md) */
    setenv("COLLSIM_CHILD_MEMORY", "256MiB", 1);
    diag d;
    long tries;
    double out = 0;
    ck_assert(!run(wants_a_gibibyte, &d, &tries, &out));
    ck_assert_msg(strstr(d.message, "ran out of memory (its limit: 256 MiB, COLLSIM_CHILD_MEMORY") &&
                      strstr(d.message, "case 7 (allreduce ring at 16 MB)"),
                  "%s", d.message);
    unsetenv("COLLSIM_CHILD_MEMORY");
    ck_assert_msg(run(wants_a_gibibyte, &d, &tries, &out), "1 GiB under the default limit: %s", d.message);
}
END_TEST

START_TEST(test_child_limits_out_of_range_are_refused)
{
    static const struct {
        const char *name, *value;
    } bad[] = {{"COLLSIM_STALL_SECONDS", "-1"}, {"COLLSIM_STALL_SECONDS", "soon"}, {"COLLSIM_STALL_SECONDS", "1e9"},
               {"COLLSIM_CHILD_MEMORY", "1MB"}, {"COLLSIM_CHILD_MEMORY", "lots"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv(bad[i].name, bad[i].value, 1);
        sim_options o = {.model = NETWORK_CM02};
        diag d = {0};
        ck_assert_msg(!simgrid_check_options(&o, &d), "%s=%s accepted", bad[i].name, bad[i].value);
        ck_assert_msg(strstr(d.message, bad[i].name), "%s", d.message);
        unsetenv(bad[i].name);
    }
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
    tcase_add_test(tc, test_cfg_values_that_spin_or_depend_on_load_are_refused_with_the_reason);
    tcase_add_test(tc, test_a_child_whose_simulated_time_stands_still_is_ended);
    tcase_add_test(tc, test_a_slow_child_shows_its_heartbeat_and_is_not_ended);
    tcase_add_test(tc, test_a_child_past_its_memory_limit_is_out_of_memory);
    tcase_add_test(tc, test_child_limits_out_of_range_are_refused);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
