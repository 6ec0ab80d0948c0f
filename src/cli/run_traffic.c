/* run_traffic.c — traffic cases run and reported (run_traffic.h).
 *
 * A matrix's row: messages is its flow count, size_bytes their bytes,
 * time_s the makespan (the last flow's finish minus the first flow's
 * start), and the latency percentiles its flows' completion times (finish
 * minus start), nearest rank as the per-message view takes them
 * (exec/op_times.h).  A synthetic row: messages is the packets delivered
 * while measured, time_s the measured window, the latencies their delays
 * from arrival to delivery (none at saturation, where packets have no
 * arrival time). */
#include "cli/run_traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/op_times.h"
#include "net/fluid/simgrid_run.h"
#include "net/packet/engine.h"
#include "net/packet/packet_flows.h"
#include "report/rows.h"
#include "util/memory.h"

/* Case C's row before it runs: no prediction, nothing counted against a tier. */
static result_row bare_row(const scenario *s, int c, const run_settings *o)
{
    const scenario_case *k = &s->cases[c];
    const traffic_case *traffic = &k->traffic;
    result_row row = {.case_index = c, .prim = PRIM_TRAFFIC, .groups = 1, .ranks = scenario_platform(s, k)->ranks,
                      .block_first = k->together_first, .block_count = k->together_count, .segments = 1,
                      .channels = 1, .simulated = o->mode == MODE_RUN, .contended = -1};
    row.predicted_s = row.ideal_s = row.ratio = row.n_alpha = row.n_beta = row.alpha_s = row.bandwidth_Bps = NAN;
    row.algbw_Bps = row.busbw_Bps = row.background_load = row.rank_spread_s = NAN;
    row.latency_min_s = row.latency_mean_s = row.offered_load = row.delivered_load = row.delivered_Bps = NAN;
    row.time_fastest_s = row.time_s = NAN;
    snprintf(row.platform, sizeof row.platform, "%s", scenario_platform(s, k)->name);
    snprintf(row.layout, sizeof row.layout, "all");
    snprintf(row.protocol, sizeof row.protocol, "none");
    snprintf(row.traffic, sizeof row.traffic, "%s", traffic->text);
    if (traffic->kind == TRAFFIC_MATRIX) {
        snprintf(row.algorithm, sizeof row.algorithm, "matrix");
        for (int i = 0; i < traffic->flow_count; i++) row.size_bytes += traffic->flows[i].size_bytes;
    } else {
        static const char *const patterns[] = {"uniform", "permutation", "hotspot"};
        snprintf(row.algorithm, sizeof row.algorithm, "%s", patterns[traffic->synthetic.pattern]);
        row.size_bytes = traffic->synthetic.packet_bytes;
    }
    return row;
}

/* Case K's flows, which ran as FINISH_S (its own, in file order), into ROW. */
static void summarize_flows(const traffic_case *k, const double *finish_s, result_row *row)
{
    int n = k->flow_count;
    double *completion_s = malloc(sizeof *completion_s * (size_t)n), first_start_s = INFINITY, last_finish_s = 0, sum = 0;
    row->flows = malloc(sizeof *row->flows * (size_t)n);
    if (!completion_s || !row->flows) out_of_memory();
    for (int i = 0; i < n; i++) {
        const flow *f = &k->flows[i];
        row->flows[i] = (flow_row){f->src, f->dst, f->size_bytes, f->start_s, finish_s[i]};
        completion_s[i] = finish_s[i] - f->start_s;
        sum += completion_s[i];
        first_start_s = fmin(first_start_s, f->start_s);
        last_finish_s = fmax(last_finish_s, finish_s[i]);
    }
    row->flow_count = n;
    latency_summary l = latency_summarize(completion_s, n);
    row->messages = n;
    row->latency_min_s = l.min_s;
    row->latency_mean_s = sum / n;
    row->latency_p50_s = l.p50_s;
    row->latency_p99_s = l.p99_s;
    row->latency_max_s = l.max_s;
    row->time_s = row->time_fastest_s = last_finish_s - first_start_s;
    free(completion_s);
}

/* The block's matrices as one simulation, each case's flows summarized into its row; exit status. */
static int run_matrices(const scenario *s, const run_settings *o, int first, result_row *rows)
{
    const scenario_case *lead = &s->cases[first];
    const topology *t = scenario_platform(s, lead);
    int total = 0;
    for (int c = first; c < first + lead->together_count; c++) total += s->cases[c].traffic.flow_count;
    flow *flows = malloc(sizeof *flows * (size_t)total);
    double *finish_s = malloc(sizeof *finish_s * (size_t)total);
    if (!flows || !finish_s) out_of_memory();
    for (int c = first, n = 0; c < first + lead->together_count; c++) {
        memcpy(flows + n, s->cases[c].traffic.flows, sizeof *flows * (size_t)s->cases[c].traffic.flow_count);
        n += s->cases[c].traffic.flow_count;
    }
    diag d = {0};
    bool ok;
    engine *e = NULL;
    if (o->sim.model == NETWORK_PACKET) {
        e = engine_create(t, 1.0);
        if (o->sim.ties_shuffled) engine_shuffle_ties(e, o->sim.tie_seed); /* --ties, as the executor's fabric */
        ok = packet_run_flows_on(e, flows, total, finish_s, &d);
    } else ok = simgrid_run_flows(t, flows, total, &o->sim, finish_s, &d);
    if (ok)
        for (int c = first, n = 0; c < first + lead->together_count; c++) {
            summarize_flows(&s->cases[c].traffic, finish_s + n, &rows[c]);
            n += s->cases[c].traffic.flow_count;
        }
    if (ok && e) { /* the packet engine's per-link view: the busiest links, their buffers and stalls */
        net_link_stats *links = calloc((size_t)engine_port_count(e) + 1, sizeof *links);
        if (!links) out_of_memory();
        packet_link_stats(e, 1.0, links);
        rows_add_link_views(t, links, net_time_to_seconds(engine_now(e)), true, o->all_links, rows + first,
                            lead->together_count);
        free(links);
    }
    engine_free(e);
    if (!ok) {
        fprintf(stderr, "collsim: case %d (%s): ", first, lead->traffic.text);
        diag_print(&d);
    }
    free(flows);
    free(finish_s);
    return ok ? 0 : 3;
}

/* Case C's synthetic traffic into ROW; exit status. */
static int run_synthetic(const scenario *s, const run_settings *o, int c, result_row *row)
{
    const scenario_case *k = &s->cases[c];
    diag d = {0};
    if (o->sim.model != NETWORK_PACKET) {
        diag_at(&d, s->path, k->traffic.line, k->traffic.column, "synthetic traffic measures switches packet by packet: "
                "it runs on the packet model only, not %s; say 'network: packet' or run with --model packet",
                network_model_name(o->sim.model));
        diag_print(&d);
        return 2;
    }
    synthetic_result out;
    if (!synthetic_run(scenario_platform(s, k), &k->traffic.synthetic, &out, &d)) {
        fprintf(stderr, "collsim: case %d (%s): ", c, k->traffic.text);
        diag_print(&d);
        return 3;
    }
    const synthetic_spec *spec = &k->traffic.synthetic;
    row->time_s = row->time_fastest_s = out.slot_s * (double)spec->slots;
    row->messages = out.delivered;
    row->offered_load = out.offered;
    row->delivered_load = out.throughput;
    row->delivered_Bps = out.throughput * spec->packet_bytes / out.slot_s;
    bool timed = spec->load < 1; /* at saturation packets have no arrival time */
    row->latency_mean_s = timed ? out.delay_mean_s : NAN;
    row->latency_p50_s = timed ? out.delay_p50_s : NAN;
    row->latency_p99_s = timed ? out.delay_p99_s : NAN;
    row->latency_max_s = timed ? out.delay_max_s : NAN;
    return 0;
}

int run_traffic(const scenario *s, const run_settings *o, int first, result_row *rows)
{
    const scenario_case *lead = &s->cases[first];
    for (int c = first; c < first + lead->together_count; c++) rows[c] = bare_row(s, c, o);
    if (o->mode != MODE_RUN) return 0;
    if (lead->traffic.kind == TRAFFIC_SYNTHETIC) return run_synthetic(s, o, first, &rows[first]);
    return run_matrices(s, o, first, rows);
}
