/* test_traffic_matrix.c — traffic as data (traffic_matrix.h): rows and
 * htsim's connection matrix read into the flows they state, bad lines
 * refused at their line and column, and a permutation stated as a matrix
 * running on the packet engine in the time a lone flow takes. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "net/packet/packet_flows.h"
#include "net/traffic_matrix.h"
#include "test_support.h"

static flow *parse_ok(const char *text, int ranks, int expected_count)
{
    flow *flows = NULL;
    int count = 0;
    diag d = {0};
    if (!traffic_matrix_parse("m.txt", text, ranks, &flows, &count, &d))
        ck_abort_msg("m.txt:%d:%d: %s", d.line, d.column, d.message);
    ck_assert_int_eq(count, expected_count);
    return flows;
}

static void expect_refused(const char *text, int ranks, int line, int column, const char *fragment)
{
    flow *flows = NULL;
    int count = 0;
    diag d = {0};
    ck_assert_msg(!traffic_matrix_parse("m.txt", text, ranks, &flows, &count, &d), "accepted: %s", text);
    ck_assert_msg(d.line == line && d.column == column && strstr(d.message, fragment),
                  "%s: refused at %d:%d with '%s', expected %d:%d '%s'", text, d.line, d.column, d.message, line, column,
                  fragment);
}

START_TEST(test_rows_give_source_destination_size_and_start)
{
    flow *f = parse_ok("# a comment\n0 1 4MB\n\n2 3 1KiB 2us  # and another\n", 4, 2);
    ck_assert(f[0].src == 0 && f[0].dst == 1 && f[0].size_bytes == 4e6 && f[0].start_s == 0);
    ck_assert(f[1].src == 2 && f[1].dst == 3 && f[1].size_bytes == 1024 && relative_error(f[1].start_s, 2e-6) < 1e-12);
    free(f);
}
END_TEST

/* As csg-htsim's connection_matrices/gen_permutation.py writes it: start in
 * picoseconds, size in bytes. */
START_TEST(test_htsim_connection_matrix_gives_its_connections)
{
    flow *f = parse_ok("Nodes 4\nConnections 2\n3->1 id 1 start 1000000 size 2000000\n0->2 id 2 start 0 size 4096 prio 3\n",
                       4, 2);
    ck_assert(f[0].src == 3 && f[0].dst == 1 && f[0].size_bytes == 2e6 && relative_error(f[0].start_s, 1e-6) < 1e-12);
    ck_assert(f[1].src == 0 && f[1].dst == 2 && f[1].size_bytes == 4096 && f[1].start_s == 0);
    free(f);
}
END_TEST

START_TEST(test_bad_lines_are_refused_where_they_are_wrong)
{
    expect_refused("0 1 4MB\n0 9 4MB\n", 4, 2, 3, "not a rank");
    expect_refused("0 1 4XB\n", 4, 1, 5, "");
    expect_refused("0 1\n", 4, 1, 4, "expected SRC DST SIZE");
    expect_refused("0 1 4MB 1us 7\n", 4, 1, 13, "expected SRC DST SIZE");
    expect_refused("Nodes 4\nConnections 1\n0->1 size 10 trigger 3\n", 4, 3, 14, "triggers are not supported");
    expect_refused("Nodes 4\nConnections 1\n0->1 id 1 start 0\n", 4, 3, 18, "needs 'size BYTES'");
    expect_refused("Nodes 4\nConnections 2\n0->1 size 10\n", 4, 3, 1, "'Connections 2' but 1");
    expect_refused("Nodes 8\n", 4, 1, 7, "more nodes than the platform has ranks");
    expect_refused("Nodes 4\n0->x size 10\n", 4, 2, 1, "not a rank");
}
END_TEST

/* A permutation on a star as an htsim matrix: every rank sends once and
 * receives once, so each flow takes alpha + M/BW as alone. */
START_TEST(test_a_permutation_matrix_runs_in_a_lone_flows_time)
{
    topology t;
    load_text("name: s\nkind: star\nranks: 4\nalpha: 1us\nbandwidth: 100GBps\n", &t);
    flow *f = parse_ok("Nodes 4\nConnections 4\n0->1 size 1000000\n1->2 size 1000000\n2->3 size 1000000\n"
                       "3->0 size 1000000\n", 4, 4);
    double finish[4];
    diag d = {0};
    engine *e = packet_run_flows(&t, f, 4, true, finish, &d);
    if (!e) ck_abort_msg("%s", d.message);
    for (int i = 0; i < 4; i++)
        ck_assert_msg(relative_error(finish[i], 1e-6 + 1e6 / 100e9) < 1e-9, "flow %d: %.17g", i, finish[i]);
    engine_free(e);
    free(f);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("traffic_matrix");
    TCase *tc = tcase_create("traffic_matrix");
    tcase_add_test(tc, test_rows_give_source_destination_size_and_start);
    tcase_add_test(tc, test_htsim_connection_matrix_gives_its_connections);
    tcase_add_test(tc, test_bad_lines_are_refused_where_they_are_wrong);
    tcase_add_test(tc, test_a_permutation_matrix_runs_in_a_lone_flows_time);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
