/* test_support.c — helpers shared by the Check test programs. */
#include "test_support.h"

#include "exec/executor.h"
#include "net/network.h"
#include "algo/rank_math.h"
#include "sched/verify.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void load_shipped(const char *name, topology *t)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/platforms/%s.yaml", top ? top : ".", name);
    diag d = {0};
    if (!platform_load(path, t, &d)) ck_abort_msg("loading %s: %s:%d:%d: %s", name, d.file, d.line, d.column, d.message);
}

const path_case path_cases[] = {
    {"star-512", 0, 1, 0.5e-6, 900e9, 2, 0, 0, "star: neighbours through the switch (02 §2)"},
    {"star-512", 0, 511, 0.5e-6, 900e9, 2, 0, 0, "star: any pair is one hop"},
    {"star-512", 17, 512, 0.5e-6, 900e9, 1, 0, 0, "star: rank -> INC switch leg = alpha_switch (04 §3)"},
    {"nvl72-star", 3, 72, 0.2e-6, 900e9, 1, 0, 0, "NVL72: rank -> NVSwitch leg = alpha_switch 0.2 us"},
    {"nvl72-star", 3, 70, 0.5e-6, 900e9, 2, 0, 0, "NVL72: rank -> rank"},
    {"torus-8x8x8", 0, 1, 0.5e-6, 900e9, 1, 0, 0, "torus 8^3: neighbours"},
    {"torus-8x8x8", 0, 4 + 4 * 8 + 4 * 64, 12 * 0.5e-6, 900e9, 12, 0, 0, "torus 8^3: farthest pair, 12 hops"},
    {"torus-8x8x8", 0, 7, 0.5e-6, 900e9, 1, 0, 0, "torus 8^3: wraparound neighbour"},
    {"torus-4x4", 0, 2 + 2 * 4, 4 * 0.5e-6, 900e9, 4, 0, 0, "torus 4x4: a -> k diameter, 4 hops (02 §3.6)"},
    {"torus-16x16x16", 0, 8 + 8 * 16 + 8 * 256, 24 * 0.5e-6, 900e9, 24, 0, 0, "torus 16^3: farthest pair, 24 hops"},
    {"mesh-4x4", 0, 15, 6 * 0.5e-6, 900e9, 6, 0, 0, "mesh 4x4: corner to corner, 6 hops"},
    {"mesh-4x4", 5, 6, 0.5e-6, 900e9, 1, 0, 0, "mesh 4x4: neighbours"},
    {"mesh-4x4x4", 0, 63, 9 * 0.5e-6, 900e9, 9, 0, 0, "mesh 4x4x4: corner to corner, 9 hops"},
    {"full-mesh-8", 0, 7, 0.5e-6, 900e9, 1, 0, 0, "full mesh: any pair, 1 link"},
    {"full-mesh-8", 6, 2, 0.5e-6, 900e9, 1, 0, 0, "full mesh: reverse direction"},
    {"clos-16", 0, 3, 2e-6, 50e9, 2, 0, 0, "Clos-16: same leaf, alpha_leaf"},
    {"clos-16", 0, 15, 8e-6, 50e9, 4, 0, 0, "Clos-16: across spines, alpha_spine"},
    {"fat-tree-k4", 0, 1, 2e-6, 50e9, 2, 0, 0, "fat-tree: same edge"},
    {"fat-tree-k4", 0, 3, 8e-6, 50e9, 4, 0, 0, "fat-tree: same pod, through aggregation"},
    {"fat-tree-k4", 0, 15, 12e-6, 50e9, 6, 0, 0, "fat-tree: across pods, through core"},
    {"superpod-l32", 0, 71, 0.5e-6, 900e9, 2, 0, 0, "SuperPOD: same pod over NVLink"},
    {"superpod-l32", 0, 72, 2e-6, 50e9, 2, 0, 0, "SuperPOD: same rail, pods sharing a leaf"},
    {"superpod-l32", 0, 4 * 72, 8e-6, 50e9, 4, 0, 0, "SuperPOD: same rail, across spines"},
    {"superpod-l32", 0, 73, 2.5e-6, 50e9, 4, 2, 900e9, "SuperPOD: cross rail, same leaf group (NVLink + IB leaf)"},
    {"superpod-l32", 0, 2303, 8.5e-6, 50e9, 6, 2, 900e9, "SuperPOD: cross rail across spines (farthest class)"},
    {"superpod-l2", 5, 72 + 70, 2.5e-6, 50e9, 4, 2, 900e9, "SuperPOD L=2: cross rail, cross pod"},
    /* the real systems (docs/platforms.md): links run at the efficiency x the published rate */
    {"hgx-h100", 0, 7, 0.6e-6, 450e9 * 0.824, 2, 0, 0, "HGX H100: GPU -> NVSwitch -> GPU"},
    {"gb200-nvl72", 3, 70, 0.6e-6, 900e9 * 0.802, 2, 0, 0, "GB200 NVL72: one NVLink 5 domain"},
    {"mi300x-8", 6, 1, 0.6e-6, 64e9 * 0.75, 1, 0, 0, "MI300X: one xGMI link"},
    {"dgx-h100-8node", 0, 7, 0.6e-6, 450e9 * 0.824, 2, 0, 0, "DGX H100 cluster: same node over NVLink"},
    {"dgx-h100-8node", 2, 8 * 5 + 2, 2.7e-6, 50e9, 2, 0, 0, "DGX H100 cluster: same rail, NIC -> leaf -> NIC"},
    {"dgx-h100-8node", 2, 8 * 5 + 6, 3.3e-6, 50e9, 4, 2, 450e9 * 0.824,
     "DGX H100 cluster: cross rail, NVLink relay then rail 6"},
    {"gcp-a3-mega-2node", 0, 8, 2.7e-6, 25e9, 2, 0, 0, "A3 Mega: same rail, one 200 Gb/s NIC"},
};
const int path_case_count = (int)(sizeof path_cases / sizeof path_cases[0]);

bool find_flow_by_hop(const topology *t, int from, int to, int hop, int src_first, int src_last, int dst_first,
                      int dst_last, bool same, flow *out)
{
    route_hop *first = route_buffer(t), *other = route_buffer(t);
    topology_route(t, from, to, first);
    bool found = false;
    for (int src = src_first; src <= src_last && !found; src++)
        for (int dst = dst_first; dst <= dst_last && !found; dst++) {
            topology_route(t, src, dst, other);
            if ((other[hop].link == first[hop].link) == same) {
                *out = (flow){src, dst, 0, 0};
                found = true;
            }
        }
    free(first);
    free(other);
    return found;
}

void load_shipped_with(const char *name, const char *extra_yaml, topology *t)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/platforms/%s.yaml", top ? top : ".", name);
    FILE *f = fopen(path, "r");
    if (!f) ck_abort_msg("cannot open %s", path);
    size_t capacity = 65536 + strlen(extra_yaml);
    char *text = malloc(capacity);
    size_t n = fread(text, 1, 65536, f);
    fclose(f);
    text[n] = '\0';
    if (strncmp(extra_yaml, "packet:", 7) == 0) { /* the extra packet mapping stands in for the file's one-line one */
        char *line = strstr(text, "\npacket:");
        if (line) {
            char *end = strchr(line + 1, '\n');
            size_t tail = end ? strlen(end) : 0;
            memmove(line, end ? end : line + strlen(line), tail + 1);
            n = strlen(text);
        }
    }
    snprintf(text + n, capacity - n, "\n%s", extra_yaml);
    load_text(text, t);
    free(text);
}

void load_text(const char *yaml, topology *t)
{
    diag d = {0};
    if (!platform_load_string("inline.yaml", yaml, t, &d)) ck_abort_msg("inline platform: %d:%d: %s", d.line, d.column, d.message);
}

void simulate_flows(const topology *t, const flow *flows, int count, double *finish_s)
{
    sim_options options = {.model = NETWORK_CM02};
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
    sim_options options = {.model = NETWORK_CM02};
    expect_time_with(t, s, size_bytes, expected_s, what, &options);
}

void expect_time_with(const topology *t, schedule *s, double size_bytes, double expected_s, const char *what,
                      const sim_options *options)
{
    int *ranks = malloc(sizeof(int) * (size_t)s->ranks);
    for (int i = 0; i < s->ranks; i++) ranks[i] = i;
    int *nodes = exec_actor_nodes(s, ranks);
    free(ranks);
    exec_result result;
    diag d = {0};
    bool ok = execute_schedule(t, s, nodes, size_bytes, options, &result, &d);
    free(nodes);
    if (!ok) ck_abort_msg("%s: %s", what, d.message);
    double error = relative_error(result.time_s, expected_s);
    exec_result_free(&result);
    ck_assert_msg(error < 1e-9, "%s, M = %g: simulated %.17g, formula %.17g (relative error %.3g)", what, size_bytes,
                  result.time_s, expected_s, error);
}

double simulate_schedule(const topology *t, schedule *s, const int *rank_nodes, double size_bytes,
                         const endpoint_costs *costs, double *rank_finish_s)
{
    return simulate_schedule_with(t, s, rank_nodes, size_bytes, costs, rank_finish_s, NETWORK_CM02);
}

double simulate_schedule_with(const topology *t, schedule *s, const int *rank_nodes, double size_bytes,
                              const endpoint_costs *costs, double *rank_finish_s, network_model model)
{
    int *ranks = malloc(sizeof(int) * (size_t)s->ranks);
    for (int i = 0; i < s->ranks; i++) ranks[i] = rank_nodes ? rank_nodes[i] : i;
    int *nodes = exec_actor_nodes(s, ranks);
    free(ranks);
    exec_part part = {s, nodes, size_bytes, NULL, 0, {0}, 1, 1, 0};
    if (costs) {
        part.launch_s = costs->launch_s;
        memcpy(part.overhead_s, costs->overhead_s, sizeof part.overhead_s);
        part.wire_numerator = costs->wire_numerator;
        part.wire_denominator = costs->wire_denominator;
    }
    sim_options options = {.model = model};
    diag d = {0};
    exec_result result;
    exec_run *run = exec_start(t, &part, 1, &options, "a test's schedule", &d);
    bool ok = run && exec_finish(run, &result, NULL, &d);
    free(nodes);
    if (!ok) ck_abort_msg("simulation failed: %s", d.message);
    if (rank_finish_s) memcpy(rank_finish_s, result.rank_finish_s, sizeof(double) * (size_t)s->ranks);
    double time = result.time_s;
    exec_result_free(&result);
    return time;
}

void expect_simulated_in(network_model model, const topology *t, schedule *s, const int *rank_nodes, double size_bytes,
                         const endpoint_costs *costs, double expected_s, const char *what)
{
    if (model == NETWORK_PACKET && size_bytes > EXPECT_PACKET_MAX_BYTES) return;
    double simulated = simulate_schedule_with(t, s, rank_nodes, size_bytes, costs, NULL, model);
    ck_assert_msg(relative_error(simulated, expected_s) < 1e-9, "%s, M = %g, %s model: simulated %.17g, derived %.17g",
                  what, size_bytes, network_model_name(model), simulated, expected_s);
}

void expect_simulated(const topology *t, schedule *s, const int *rank_nodes, double size_bytes, const endpoint_costs *costs,
                      double expected_s, const char *what)
{
    expect_simulated_in(NETWORK_CM02, t, s, rank_nodes, size_bytes, costs, expected_s, what);
    expect_simulated_in(NETWORK_PACKET, t, s, rank_nodes, size_bytes, costs, expected_s, what);
}

const int verified_group_sizes[9] = {2, 3, 4, 5, 7, 8, 16, 64, 72};

void expect_verified(schedule_builder build, const algo_params *p, const char *name)
{
    char why[512] = "";
    schedule *s = build(p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s refused N = %d: %s", name, p->ranks, why);
    ck_assert_msg(schedule_verify(s, why, sizeof why), "%s, N = %d, root %d, P = %d: %s", name, p->ranks, p->root,
                  p->segments, why);
    schedule_free(s);
}

void verify_group_sizes(schedule_builder build, const char *name, bool power_of_two_only)
{
    for (int i = 0; i < 9; i++) {
        algo_params p = {.ranks = verified_group_sizes[i]};
        if (power_of_two_only && !is_power_of_two(p.ranks)) {
            char why[512] = "";
            ck_assert_msg(build(&p, why, sizeof why) == NULL, "%s accepted N = %d", name, p.ranks);
            ck_assert_msg(strstr(why, "power-of-two") != NULL, "%s: unclear refusal: %s", name, why);
            continue;
        }
        expect_verified(build, &p, name);
    }
}

void verify_roots_and_segments(schedule_builder build, const char *name)
{
    static const int segment_counts[] = {0, 1, 3, 9};
    for (int i = 0; i < 9; i++) {
        int n = verified_group_sizes[i], roots[] = {0, n / 2, n - 1};
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 4; k++) {
                algo_params p = {.ranks = n, .root = roots[r], .segments = segment_counts[k]};
                expect_verified(build, &p, name);
            }
    }
}

void expect_star_times(schedule_builder build, const algo_params *p, time_formula expected, const char *name)
{
    static const double sizes[] = {1e3, 1e6, 1e9};
    char yaml[256];
    snprintf(yaml, sizeof yaml, "kind: star\nranks: %d\nalpha: 0.5us\nbandwidth: 900GBps\n", p->ranks);
    topology t;
    load_text(yaml, &t);
    char why[512] = "";
    schedule *s = build(p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s refused N = %d: %s", name, p->ranks, why);
    for (int m = 0; m < 3; m++) {
        char what[128];
        snprintf(what, sizeof what, "%s, N = %d, P = %d", name, p->ranks, s->segments);
        expect_time(&t, s, sizes[m], expected(p->ranks, sizes[m], s->segments), what);
    }
    schedule_free(s);
    topology_free(&t);
}

const int timed_group_sizes[3] = {4, 16, 64};

void expect_star_times_at_timed_ranks(schedule_builder build, const char *name, time_formula expected)
{
    for (int r = 0; r < 3; r++) {
        algo_params p = {.ranks = timed_group_sizes[r]};
        expect_star_times(build, &p, expected, name);
    }
}

/* Whether X and Y are the same op but for where their dependencies are listed. */
static bool same_op(const sched_op *x, const sched_op *y)
{
    return x->kind == y->kind && x->phase == y->phase && x->channel == y->channel && x->peer == y->peer &&
           x->chunk == y->chunk && x->count == y->count && x->range_count == y->range_count &&
           x->range_first == y->range_first && x->dep_count == y->dep_count;
}

void expect_generated_equals_stored(const schedule *generated, const schedule *stored, const char *what)
{
    ck_assert_msg(stored->sealed && !stored->generator, "%s: the stored schedule, sealed", what);
    ck_assert_msg(generated->generator && generated->sealed, "%s: generated", what);
    ck_assert_int_eq(generated->actors, stored->actors);
    ck_assert_int_eq(generated->chunks, stored->chunks);
    ck_assert_int_eq(generated->channels, stored->channels);
    ck_assert_int_eq(generated->segments, stored->segments);
    ck_assert_int_eq(generated->slice_positions, stored->slice_positions);
    ck_assert_int_eq(generated->phase_count, stored->phase_count);
    for (int i = 0; i < stored->phase_count; i++) ck_assert_str_eq(generated->phase_names[i], stored->phase_names[i]);
    ck_assert_int_eq(!generated->slice_owner, !stored->slice_owner);
    for (int k = 0; stored->slice_owner && k < stored->slice_positions; k++)
        ck_assert_int_eq(generated->slice_owner[k], stored->slice_owner[k]);
    ck_assert_int_eq(sched_messages(generated), sched_messages(stored));
    for (int a = 0; a < stored->actors; a++) {
        const sched_actor *x = &stored->actor[a], *y = &generated->actor[a];
        ck_assert_ptr_null(y->ops);
        ck_assert_ptr_null(y->deps);
        ck_assert_ptr_null(y->ranges);
        ck_assert_int_eq(y->op_count, x->op_count);
        for (int o = 0; o < x->op_count; o++) {
            const sched_op *want = &x->ops[o];
            sched_op got = sched_op_at(generated, a, o), read = sched_op_at(stored, a, o);
            ck_assert_msg(same_op(&read, want) && read.dep_first == want->dep_first, "%s: the stored accessor, op %d",
                          what, o);
            ck_assert_msg(same_op(&got, want), "%s: rank %d op %d: kind %d/%d phase %d/%d peer %d/%d chunk %d/%d count %d/%d deps %d/%d",
                          what, a, o, got.kind, want->kind, got.phase, want->phase, got.peer, want->peer, got.chunk,
                          want->chunk, got.count, want->count, got.dep_count, want->dep_count);
            for (int d = 0; d < want->dep_count; d++)
                ck_assert_msg(sched_op_dep(generated, a, o, &got, d) == x->deps[want->dep_first + d],
                              "%s: rank %d op %d dependency %d: %d, stored %d", what, a, o, d,
                              sched_op_dep(generated, a, o, &got, d), x->deps[want->dep_first + d]);
        }
        /* read a block at a time (sched_cursor): forward, backward, and from the middle on */
        sched_cursor forward, backward, middle;
        sched_cursor_init(&forward, generated, a);
        sched_cursor_init(&backward, generated, a);
        sched_cursor_init(&middle, generated, a);
        for (int o = 0; o < x->op_count; o++) {
            sched_op f = sched_cursor_op(&forward, o), b = sched_cursor_op(&backward, x->op_count - 1 - o);
            ck_assert_msg(same_op(&f, &x->ops[o]), "%s: rank %d op %d read forward", what, a, o);
            ck_assert_msg(same_op(&b, &x->ops[x->op_count - 1 - o]), "%s: rank %d op %d read backward", what, a,
                          x->op_count - 1 - o);
        }
        for (int o = x->op_count / 2, k = 0; k < x->op_count; k++, o = (o + 37) % x->op_count) {
            sched_op m = sched_cursor_op(&middle, o);
            ck_assert_msg(same_op(&m, &x->ops[o]), "%s: rank %d op %d read in jumps", what, a, o);
        }
    }
}
