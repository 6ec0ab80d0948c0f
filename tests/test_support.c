/* test_support.c — helpers shared by the Check test programs. */
#include "test_support.h"

#include "exec/executor.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void load_shipped(const char *name, topology *t)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/platforms/%s.yaml", top ? top : ".", name);
    diag d = {0};
    if (!platform_load(path, t, &d)) ck_abort_msg("loading %s: %s:%d:%d: %s", name, d.file, d.line, d.column, d.message);
}

void load_text(const char *yaml, topology *t)
{
    diag d = {0};
    if (!platform_load_string("inline.yaml", yaml, t, &d)) ck_abort_msg("inline platform: %d:%d: %s", d.line, d.column, d.message);
}

void simulate_flows(const topology *t, const flow *flows, int count, double *finish_s)
{
    sim_options options = {NETWORK_CM02, NULL};
    diag d = {0};
    if (!simgrid_run_flows(t, flows, count, &options, finish_s, &d)) ck_abort_msg("simulation failed: %s", d.message);
}

double simulate_one(const topology *t, int src, int dst, double size_bytes)
{
    flow f = {src, dst, size_bytes, 0};
    double finish;
    simulate_flows(t, &f, 1, &finish);
    return finish;
}

double relative_error(double a, double b)
{
    return fabs(a / b - 1.0);
}

int run_suite(Suite *s)
{
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void expect_time(const topology *t, schedule *s, double size_bytes, double expected_s, const char *what)
{
    int *ranks = malloc(sizeof(int) * (size_t)s->ranks);
    for (int i = 0; i < s->ranks; i++) ranks[i] = i;
    int *nodes = exec_actor_nodes(s, ranks);
    free(ranks);
    exec_result result;
    sim_options options = {NETWORK_CM02, NULL};
    diag d = {0};
    bool ok = execute_schedule(t, s, nodes, size_bytes, &options, &result, &d);
    free(nodes);
    if (!ok) ck_abort_msg("%s: %s", what, d.message);
    double error = relative_error(result.time_s, expected_s);
    exec_result_free(&result);
    ck_assert_msg(error < 1e-9, "%s, M = %g: simulated %.17g, formula %.17g (relative error %.3g)", what, size_bytes,
                  result.time_s, expected_s, error);
}
