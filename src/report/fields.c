/* fields.c — the field tables of the report's records and the three ways of
 * writing a field: a CSV cell, a JSON pair, a table cell.
 *
 * Invariants:
 *   1. A field's value is read once, by its getter, for every format.
 *   2. JSON keys come in table-array order; CSV and table columns in the
 *      order of their `csv` and `table` numbers.
 *   3. Nothing is cut: texts are written straight from the records, lists
 *      item by item, never through a fixed buffer. */
#include "report/fields.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "util/json_out.h"

/* ---- values ---- */

static field_value number(double value, bool present)
{
    return (field_value){.kind = VALUE_NUMBER, .present = present, .number = value};
}

static field_value integer(long value)
{
    return (field_value){.kind = VALUE_INT, .present = true, .number = (double)value};
}

static field_value text(const char *value)
{
    return (field_value){.kind = VALUE_TEXT, .present = true, .text = value ? value : ""};
}

static field_value text_or_null(const char *value)
{
    return (field_value){.kind = VALUE_TEXT_OR_NULL, .present = true, .text = value ? value : ""};
}

static field_value boolean(bool value)
{
    return (field_value){.kind = VALUE_BOOL, .present = true, .number = value};
}

#define ROW(x) ((x)->row)
#define ITEM(type, x) ((const type *)(x)->item)

/* ---- a result row (docs/output.md, "Results") ---- */

static field_value row_case(const field_context *x) { return integer(ROW(x)->case_index); }
static field_value row_primitive(const field_context *x) { return text(primitive_name(ROW(x)->prim)); }
static bool traffic_row(const field_context *x) { return ROW(x)->prim == PRIM_TRAFFIC; }
static field_value row_algorithm(const field_context *x) { return text(ROW(x)->algorithm); }
static field_value row_platform(const field_context *x) { return text(ROW(x)->platform); }
static field_value row_group(const field_context *x) { return integer(ROW(x)->group); }
static field_value row_groups(const field_context *x) { return integer(ROW(x)->groups); }
static field_value row_layout(const field_context *x) { return text(ROW(x)->layout); }
static field_value row_skew(const field_context *x) { return text_or_null(ROW(x)->skew); }
static field_value row_concurrent(const field_context *x)
{
    (void)x;
    return (field_value){.kind = VALUE_CASES, .present = true};
}
static field_value row_ranks(const field_context *x) { return integer(ROW(x)->ranks); }
static field_value row_size(const field_context *x) { return number(ROW(x)->size_bytes, true); }
static field_value row_segments(const field_context *x) { return integer(ROW(x)->segments); }
static field_value row_protocol(const field_context *x) { return text(ROW(x)->protocol); }
static field_value row_channels(const field_context *x) { return integer(ROW(x)->channels); }
static field_value row_tuned(const field_context *x) { return boolean(ROW(x)->tuned); }
static field_value row_launch(const field_context *x) { return number(ROW(x)->launch_s, true); }
static field_value row_time(const field_context *x) { return number(ROW(x)->time_s, ROW(x)->simulated); }
static field_value row_predicted(const field_context *x) { return number(ROW(x)->predicted_s, true); }
static field_value row_ideal(const field_context *x) { return number(ROW(x)->ideal_s, true); }
static field_value row_ratio(const field_context *x) { return number(ROW(x)->ratio, ROW(x)->simulated); }
static field_value row_n_alpha(const field_context *x) { return number(ROW(x)->n_alpha, true); }
static field_value row_n_beta(const field_context *x) { return number(ROW(x)->n_beta, true); }
static field_value row_alpha(const field_context *x) { return number(ROW(x)->alpha_s, true); }
static field_value row_bandwidth(const field_context *x) { return number(ROW(x)->bandwidth_Bps, true); }
static field_value row_algbw(const field_context *x) { return number(ROW(x)->algbw_Bps, true); }
static field_value row_busbw(const field_context *x) { return number(ROW(x)->busbw_Bps, true); }
static field_value row_fastest(const field_context *x) { return number(ROW(x)->time_fastest_s, ROW(x)->simulated); }
static field_value row_messages(const field_context *x) { return number((double)ROW(x)->messages, ROW(x)->simulated); }
static field_value row_p50(const field_context *x) { return number(ROW(x)->latency_p50_s, ROW(x)->simulated); }
static field_value row_p99(const field_context *x) { return number(ROW(x)->latency_p99_s, ROW(x)->simulated); }
static field_value row_max(const field_context *x) { return number(ROW(x)->latency_max_s, ROW(x)->simulated); }
static field_value row_spread(const field_context *x) { return number(ROW(x)->rank_spread_s, ROW(x)->simulated); }
static field_value row_contended(const field_context *x)
{
    field_value v = boolean(ROW(x)->contended == 1);
    v.present = ROW(x)->simulated && ROW(x)->contended >= 0;
    return v;
}
static field_value row_calibration(const field_context *x) { return text_or_null(ROW(x)->calibration); }
static field_value row_best(const field_context *x) { return text_or_null(ROW(x)->best); }
static field_value row_slower_than(const field_context *x) { return text_or_null(ROW(x)->slower_than); }
static field_value row_background_load(const field_context *x) { return number(ROW(x)->background_load, true); }
static field_value row_model(const field_context *x) { return text(x->r->model); }
static field_value row_background(const field_context *x) { return text_or_null(ROW(x)->background); }
static field_value row_measured(const field_context *x)
{
    return number(ROW(x)->measured_s, ROW(x)->measured_s > 0);
}
static field_value row_sim_error(const field_context *x)
{
    bool simulated = ROW(x)->measured_s > 0 && ROW(x)->simulated;
    return number(simulated ? ROW(x)->time_s / ROW(x)->measured_s - 1 : NAN, simulated);
}
static field_value row_pred_error(const field_context *x)
{
    bool measured = ROW(x)->measured_s > 0;
    return number(measured ? ROW(x)->predicted_s / ROW(x)->measured_s - 1 : NAN, measured);
}
static field_value row_traffic(const field_context *x)
{
    field_value v = text(ROW(x)->traffic);
    v.present = traffic_row(x); /* a collective's row has no such key */
    return v;
}
static field_value row_latency_min(const field_context *x)
{
    return number(ROW(x)->latency_min_s, traffic_row(x) && ROW(x)->simulated);
}
static field_value row_latency_mean(const field_context *x)
{
    return number(ROW(x)->latency_mean_s, traffic_row(x) && ROW(x)->simulated);
}
static field_value row_offered(const field_context *x) { return number(ROW(x)->offered_load, traffic_row(x) && ROW(x)->simulated); }
static field_value row_delivered(const field_context *x)
{
    return number(ROW(x)->delivered_load, traffic_row(x) && ROW(x)->simulated);
}
static field_value row_delivered_Bps(const field_context *x)
{
    return number(ROW(x)->delivered_Bps, traffic_row(x) && ROW(x)->simulated);
}
static field_value row_inner(const field_context *x) { return text_or_null(ROW(x)->inner); }
static field_value row_outer(const field_context *x) { return text_or_null(ROW(x)->outer); }
/* The table's algorithm cell: "hierarchical inc/ring (auto)": a hierarchical
 * algorithm's inner and outer tiers, "(auto)" when the tuner picked it. */
static field_value row_algorithm_cell(const field_context *x)
{
    field_value v = text(ROW(x)->algorithm);
    int n = 0;
    if (ROW(x)->inner[0]) {
        v.after[n++] = " ";
        v.after[n++] = ROW(x)->inner;
        v.after[n++] = "/";
        v.after[n++] = ROW(x)->outer;
    }
    if (ROW(x)->tuned) v.after[n] = " (auto)";
    return v;
}

#define ALL IN_JSON | IN_CSV
#define STORED(kind, type, member) {kind, offsetof(type, member), sizeof(((type *)0)->member)}
#define NOT_STORED {STORE_NONE, 0, 0}
#define R(kind, member) STORED(kind, result_row, member)
#define T(kind, member) STORED(kind, row_term, member)
#define L(kind, member) STORED(kind, link_row, member)
#define NO_COLUMN {NULL, 0, 0, 0, 0, 0, WHEN_ALWAYS}
#define US(header, width, when) {header, 1, width, width, 3, 1e6, when}

static const field result_table[] = {
    {"case", row_case, ALL, WHEN_ALWAYS, 0, 0, NO_COLUMN, R(STORE_INT, case_index)},
    {"primitive", row_primitive, ALL, WHEN_ALWAYS, 1, 0, NO_COLUMN, R(STORE_PRIMITIVE, prim)},
    {"algorithm", row_algorithm, ALL, WHEN_ALWAYS, 2, 0, NO_COLUMN, R(STORE_TEXT, algorithm)},
    {"platform", row_platform, ALL, WHEN_ALWAYS, 27, 0, NO_COLUMN, R(STORE_TEXT, platform)},
    {"group", row_group, ALL | IN_TABLE, WHEN_ALWAYS, 3, 6, {"group", 1, 5, 5, 0, 1, WHEN_FASTEST}, R(STORE_INT, group)},
    {"groups", row_groups, ALL, WHEN_ALWAYS, 24, 0, NO_COLUMN, R(STORE_INT, groups)},
    {"layout", row_layout, ALL, WHEN_ALWAYS, 25, 0, NO_COLUMN, R(STORE_TEXT, layout)},
    {"skew", row_skew, ALL, WHEN_ALWAYS, 26, 0, NO_COLUMN, R(STORE_TEXT, skew)},
    {"concurrent_with", row_concurrent, ALL, WHEN_ALWAYS, 28, 0, NO_COLUMN, R(STORE_CASES, block_first)},
    {"ranks", row_ranks, ALL, WHEN_ALWAYS, 4, 0, NO_COLUMN, R(STORE_INT, ranks)},
    {"size_bytes", row_size, ALL | IN_TABLE | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 5, 0, {"size(B)", 1, 13, 13, 0, 1, WHEN_ALWAYS}, R(STORE_DOUBLE, size_bytes)},
    {"segments", row_segments, ALL | IN_TABLE, WHEN_ALWAYS, 6, 2, {"P", 1, 5, 5, 0, 1, WHEN_PIPELINED}, R(STORE_INT, segments)},
    {"protocol", row_protocol, ALL | IN_TABLE, WHEN_ALWAYS, 30, 3, {"proto", 1, -6, -6, 0, 1, WHEN_PROTOCOL}, R(STORE_TEXT, protocol)},
    {"channels", row_channels, ALL | IN_TABLE, WHEN_ALWAYS, 31, 4, {"ch", 1, 3, 3, 0, 1, WHEN_CHANNELS}, R(STORE_INT, channels)},
    {"tuned", row_tuned, ALL, WHEN_ALWAYS, 32, 0, NO_COLUMN, R(STORE_BOOL, tuned)},
    {"launch_s", row_launch, ALL, WHEN_ALWAYS, 33, 0, NO_COLUMN, R(STORE_DOUBLE, launch_s)},
    {"time_s", row_time, ALL | IN_TABLE | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 7, 5, US("time(us)", 12, WHEN_SIMULATED), R(STORE_DOUBLE, time_s)},
    {"predicted_s", row_predicted, ALL | IN_TABLE, WHEN_ALWAYS, 8, 8, US("pred(us)", 12, WHEN_ALWAYS), R(STORE_DOUBLE, predicted_s)},
    {"ideal_s", row_ideal, ALL | IN_TABLE, WHEN_ALWAYS, 9, 9, US("ideal(us)", 12, WHEN_IDEAL), R(STORE_DOUBLE, ideal_s)},
    {"ratio", row_ratio, ALL | IN_TABLE, WHEN_ALWAYS, 10, 10, {"ratio", 1, 7, 7, 4, 1, WHEN_SIMULATED}, R(STORE_DOUBLE, ratio)},
    {"n_alpha", row_n_alpha, ALL | IN_TABLE, WHEN_ALWAYS, 11, 13, {"n_alpha", 1, 8, 8, -1, 1, WHEN_ALWAYS}, R(STORE_DOUBLE, n_alpha)},
    {"n_beta", row_n_beta, ALL | IN_TABLE, WHEN_ALWAYS, 12, 14, {"n_beta", 1, 8, 8, -1, 1, WHEN_ALWAYS}, R(STORE_DOUBLE, n_beta)},
    {"alpha_s", row_alpha, ALL, WHEN_ALWAYS, 13, 0, NO_COLUMN, R(STORE_DOUBLE, alpha_s)},
    {"bandwidth_Bps", row_bandwidth, ALL, WHEN_ALWAYS, 14, 0, NO_COLUMN, R(STORE_DOUBLE, bandwidth_Bps)},
    {"algbw_Bps", row_algbw, ALL | IN_TABLE, WHEN_ALWAYS, 15, 11, {"algbw(GB/s)", 1, 11, 11, 3, 1e-9, WHEN_ALWAYS}, R(STORE_DOUBLE, algbw_Bps)},
    {"busbw_Bps", row_busbw, ALL | IN_TABLE, WHEN_ALWAYS, 16, 12, {"busbw(GB/s)", 1, 11, 11, 3, 1e-9, WHEN_ALWAYS}, R(STORE_DOUBLE, busbw_Bps)},
    {"time_fastest_s", row_fastest, ALL | IN_TABLE, WHEN_ALWAYS, 17, 7, US("fastest(us)", 12, WHEN_FASTEST), R(STORE_DOUBLE, time_fastest_s)},
    {"messages", row_messages, ALL | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 18, 6, {"count", 1, 9, 9, 0, 1, WHEN_SIMULATED}, R(STORE_LONG, messages)},
    {"latency_p50_s", row_p50, ALL | IN_TABLE | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 19, 15, US("p50(us)", 9, WHEN_SIMULATED), R(STORE_DOUBLE, latency_p50_s)},
    {"latency_p99_s", row_p99, ALL | IN_TABLE | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 20, 16, US("p99(us)", 9, WHEN_SIMULATED), R(STORE_DOUBLE, latency_p99_s)},
    {"latency_max_s", row_max, ALL | IN_TABLE | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 21, 17, US("max(us)", 9, WHEN_SIMULATED), R(STORE_DOUBLE, latency_max_s)},
    {"rank_spread_s", row_spread, ALL | IN_TABLE, WHEN_ALWAYS, 22, 18, US("spread(us)", 10, WHEN_SIMULATED), R(STORE_DOUBLE, rank_spread_s)},
    {"contended", row_contended, ALL, WHEN_ALWAYS, 37, 0, NO_COLUMN, R(STORE_KNOWN, contended)},
    {"calibration", row_calibration, ALL, WHEN_ALWAYS, 38, 0, NO_COLUMN, R(STORE_TEXT, calibration)},
    {"best", row_best, ALL, WHEN_ALWAYS, 39, 0, NO_COLUMN, R(STORE_TEXT, best)},
    {"slower_than", row_slower_than, ALL, WHEN_ALWAYS, 40, 0, NO_COLUMN, R(STORE_TEXT, slower_than)},
    {"background_load", row_background_load, ALL, WHEN_ALWAYS, 23, 0, NO_COLUMN, R(STORE_DOUBLE, background_load)},
    {"model", row_model, ALL, WHEN_ALWAYS, 29, 0, NO_COLUMN, NOT_STORED},
    {"background", row_background, ALL, WHEN_ALWAYS, 34, 0, NO_COLUMN, R(STORE_TEXT, background)},
    {"inner", row_inner, ALL, WHEN_ALWAYS, 35, 0, NO_COLUMN, R(STORE_TEXT, inner)},
    {"outer", row_outer, ALL, WHEN_ALWAYS, 36, 0, NO_COLUMN, R(STORE_TEXT, outer)},
    {"measured_s", row_measured, ALL | IN_TABLE, WHEN_MEASURED, 50, 19, US("measured(us)", 12, WHEN_MEASURED), R(STORE_DOUBLE, measured_s)},
    {"sim_error", row_sim_error, ALL | IN_TABLE, WHEN_MEASURED, 51, 20,
     {"sim_err(%)", 1, 10, 10, 2, 100, WHEN_MEASURED_SIMULATED}, NOT_STORED},
    {"pred_error", row_pred_error, ALL | IN_TABLE, WHEN_MEASURED, 52, 21, {"pred_err(%)", 1, 11, 11, 2, 100, WHEN_MEASURED}, NOT_STORED},
    {"traffic", row_traffic, ALL, WHEN_ALWAYS, 41, 0, NO_COLUMN, R(STORE_TEXT, traffic)},
    {"offered_load", row_offered, ALL | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 42, 8, {"offered", 1, 8, 8, 4, 1, WHEN_SYNTHETIC},
     R(STORE_DOUBLE, offered_load)},
    {"delivered_load", row_delivered, ALL | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 43, 9, {"delivered", 1, 9, 9, 4, 1, WHEN_SYNTHETIC},
     R(STORE_DOUBLE, delivered_load)},
    {"delivered_Bps", row_delivered_Bps, ALL | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 44, 10,
     {"GB/s/port", 1, 9, 9, 3, 1e-9, WHEN_SYNTHETIC}, R(STORE_DOUBLE, delivered_Bps)},
    {"latency_min_s", row_latency_min, ALL | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 45, 13, US("min(us)", 9, WHEN_SIMULATED),
     R(STORE_DOUBLE, latency_min_s)},
    {"latency_mean_s", row_latency_mean, ALL | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 46, 14, US("mean(us)", 9, WHEN_SIMULATED),
     R(STORE_DOUBLE, latency_mean_s)},
    {"algorithm", row_algorithm_cell, IN_TABLE | IN_TRAFFIC_TABLE, WHEN_ALWAYS, 0, 1, {"algorithm", 2, 0, 0, 0, 1, WHEN_ALWAYS}, NOT_STORED},
};

/* ---- a row's term ---- */

static field_value term_tier(const field_context *x) { return text(ITEM(row_term, x)->tier); }
static field_value term_label(const field_context *x) { return text(ITEM(row_term, x)->label); }
static field_value term_n_alpha(const field_context *x) { return number(ITEM(row_term, x)->n_alpha, true); }
static field_value term_n_beta(const field_context *x) { return number(ITEM(row_term, x)->n_beta, true); }
static field_value term_alpha(const field_context *x) { return number(ITEM(row_term, x)->alpha_s, true); }
static field_value term_bandwidth(const field_context *x) { return number(ITEM(row_term, x)->bandwidth_Bps, true); }
static field_value term_predicted(const field_context *x) { return number(ITEM(row_term, x)->predicted_s, true); }
static field_value term_time(const field_context *x)
{
    double t = ITEM(row_term, x)->time_s;
    return number(t >= 0 ? t : NAN, true); /* not timed: null */
}

/* The CSV columns that name the row a term or a link direction belongs to. */
#define ROW_KEY_COLUMNS                                                                   \
    {"case", row_case, IN_CSV, WHEN_ALWAYS, 0, 0, NO_COLUMN, NOT_STORED},                 \
    {"algorithm", row_algorithm, IN_CSV, WHEN_ALWAYS, 1, 0, NO_COLUMN, NOT_STORED},       \
    {"group", row_group, IN_CSV, WHEN_ALWAYS, 2, 0, NO_COLUMN, NOT_STORED},               \
    {"size_bytes", row_size, IN_CSV, WHEN_ALWAYS, 3, 0, NO_COLUMN, NOT_STORED}

static const field term_table[] = {
    ROW_KEY_COLUMNS,
    {"tier", term_tier, ALL, WHEN_ALWAYS, 4, 0, NO_COLUMN, T(STORE_TEXT, tier)},
    {"label", term_label, ALL, WHEN_ALWAYS, 5, 0, NO_COLUMN, T(STORE_TEXT, label)},
    {"n_alpha", term_n_alpha, ALL, WHEN_ALWAYS, 6, 0, NO_COLUMN, T(STORE_DOUBLE, n_alpha)},
    {"n_beta", term_n_beta, ALL, WHEN_ALWAYS, 7, 0, NO_COLUMN, T(STORE_DOUBLE, n_beta)},
    {"alpha_s", term_alpha, ALL, WHEN_ALWAYS, 8, 0, NO_COLUMN, T(STORE_DOUBLE, alpha_s)},
    {"bandwidth_Bps", term_bandwidth, ALL, WHEN_ALWAYS, 9, 0, NO_COLUMN, T(STORE_DOUBLE, bandwidth_Bps)},
    {"predicted_s", term_predicted, ALL, WHEN_ALWAYS, 10, 0, NO_COLUMN, T(STORE_DOUBLE, predicted_s)},
    {"time_s", term_time, ALL, WHEN_ALWAYS, 11, 0, NO_COLUMN, T(STORE_DOUBLE, time_s)},
};

/* ---- a link direction (the row's busiest, or every one with --links) ---- */

static field_value link_rank(const field_context *x) { return integer(x->rank); }
static field_value link_name(const field_context *x) { return text(ITEM(link_row, x)->link); }
static field_value link_direction(const field_context *x) { return text(ITEM(link_row, x)->down ? "down" : "up"); }
static field_value link_tier(const field_context *x) { return text(ITEM(link_row, x)->tier); }
static field_value link_from(const field_context *x) { return text(ITEM(link_row, x)->from); }
static field_value link_to(const field_context *x) { return text(ITEM(link_row, x)->to); }
static field_value link_bandwidth(const field_context *x) { return number(ITEM(link_row, x)->bandwidth_Bps, true); }
static field_value link_bytes(const field_context *x) { return number(ITEM(link_row, x)->bytes, true); }
static field_value link_utilization(const field_context *x) { return number(ITEM(link_row, x)->utilization, true); }
static field_value link_peak(const field_context *x) { return number(ITEM(link_row, x)->peak_buffer_bytes, true); }
static field_value link_mean(const field_context *x) { return number(ITEM(link_row, x)->mean_buffer_bytes, true); }
static field_value link_stalled(const field_context *x) { return number(ITEM(link_row, x)->stalled_s, true); }

static const field link_table[] = {
    ROW_KEY_COLUMNS,
    {"rank", link_rank, IN_CSV, WHEN_ALWAYS, 4, 0, NO_COLUMN, NOT_STORED},
    {"link", link_name, ALL, WHEN_ALWAYS, 5, 0, NO_COLUMN, L(STORE_TEXT, link)},
    {"direction", link_direction, ALL, WHEN_ALWAYS, 6, 0, NO_COLUMN, L(STORE_DOWN, down)},
    {"tier", link_tier, ALL, WHEN_ALWAYS, 7, 0, NO_COLUMN, L(STORE_TEXT, tier)},
    {"from", link_from, ALL, WHEN_ALWAYS, 8, 0, NO_COLUMN, L(STORE_TEXT, from)},
    {"to", link_to, ALL, WHEN_ALWAYS, 9, 0, NO_COLUMN, L(STORE_TEXT, to)},
    {"bandwidth_Bps", link_bandwidth, ALL, WHEN_ALWAYS, 10, 0, NO_COLUMN, L(STORE_DOUBLE, bandwidth_Bps)},
    {"bytes", link_bytes, ALL, WHEN_ALWAYS, 11, 0, NO_COLUMN, L(STORE_DOUBLE, bytes)},
    {"utilization", link_utilization, ALL, WHEN_ALWAYS, 12, 0, NO_COLUMN, L(STORE_DOUBLE, utilization)},
    {"peak_buffer_bytes", link_peak, ALL, WHEN_ALWAYS, 13, 0, NO_COLUMN, L(STORE_DOUBLE, peak_buffer_bytes)},
    {"mean_buffer_bytes", link_mean, ALL, WHEN_ALWAYS, 14, 0, NO_COLUMN, L(STORE_DOUBLE, mean_buffer_bytes)},
    {"stalled_s", link_stalled, ALL, WHEN_ALWAYS, 15, 0, NO_COLUMN, L(STORE_DOUBLE, stalled_s)},
};

/* ---- a flow of a traffic matrix (JSON only: a row's `flows`) ---- */

static field_value flow_src(const field_context *x) { return integer(ITEM(flow_row, x)->src); }
static field_value flow_dst(const field_context *x) { return integer(ITEM(flow_row, x)->dst); }
static field_value flow_size(const field_context *x) { return number(ITEM(flow_row, x)->size_bytes, true); }
static field_value flow_start(const field_context *x) { return number(ITEM(flow_row, x)->start_s, true); }
static field_value flow_finish(const field_context *x) { return number(ITEM(flow_row, x)->finish_s, true); }
static field_value flow_completion(const field_context *x)
{
    return number(ITEM(flow_row, x)->finish_s - ITEM(flow_row, x)->start_s, true);
}

static const field flow_table[] = {
    {"src", flow_src, IN_JSON, WHEN_ALWAYS, 0, 0, NO_COLUMN, NOT_STORED},
    {"dst", flow_dst, IN_JSON, WHEN_ALWAYS, 1, 0, NO_COLUMN, NOT_STORED},
    {"size_bytes", flow_size, IN_JSON, WHEN_ALWAYS, 2, 0, NO_COLUMN, NOT_STORED},
    {"start_s", flow_start, IN_JSON, WHEN_ALWAYS, 3, 0, NO_COLUMN, NOT_STORED},
    {"finish_s", flow_finish, IN_JSON, WHEN_ALWAYS, 4, 0, NO_COLUMN, NOT_STORED},
    {"completion_s", flow_completion, IN_JSON, WHEN_ALWAYS, 5, 0, NO_COLUMN, NOT_STORED},
};

/* ---- an η fit ---- */

static field_value eta_case(const field_context *x) { return integer(ITEM(eta_row, x)->case_index); }
static field_value eta_primitive(const field_context *x) { return text(primitive_name(ITEM(eta_row, x)->prim)); }
static field_value eta_algorithm(const field_context *x) { return text(ITEM(eta_row, x)->algorithm); }
static field_value eta_group(const field_context *x) { return integer(ITEM(eta_row, x)->group); }
static field_value eta_tier(const field_context *x) { return text_or_null(ITEM(eta_row, x)->tier); }
static field_value eta_label(const field_context *x) { return text_or_null(ITEM(eta_row, x)->label); }
static field_value eta_points(const field_context *x) { return integer(ITEM(eta_row, x)->points); }
static field_value eta_alpha(const field_context *x) { return number(ITEM(eta_row, x)->eta_alpha, true); }
static field_value eta_beta(const field_context *x) { return number(ITEM(eta_row, x)->eta_beta, true); }
static field_value eta_busbw(const field_context *x) { return number(ITEM(eta_row, x)->eta_beta_busbw, true); }
static field_value eta_residual(const field_context *x) { return number(ITEM(eta_row, x)->max_rel_residual, true); }
static field_value eta_note(const field_context *x) { return text_or_null(ITEM(eta_row, x)->note); }

static const field eta_table[] = {
    {"case", eta_case, ALL, WHEN_ALWAYS, 0, 0, NO_COLUMN, NOT_STORED},
    {"primitive", eta_primitive, ALL, WHEN_ALWAYS, 1, 0, NO_COLUMN, NOT_STORED},
    {"algorithm", eta_algorithm, ALL, WHEN_ALWAYS, 2, 0, NO_COLUMN, NOT_STORED},
    {"group", eta_group, ALL, WHEN_ALWAYS, 3, 0, NO_COLUMN, NOT_STORED},
    {"tier", eta_tier, ALL, WHEN_ALWAYS, 4, 0, NO_COLUMN, NOT_STORED},
    {"label", eta_label, ALL, WHEN_ALWAYS, 5, 0, NO_COLUMN, NOT_STORED},
    {"points", eta_points, ALL, WHEN_ALWAYS, 6, 0, NO_COLUMN, NOT_STORED},
    {"eta_alpha", eta_alpha, ALL, WHEN_ALWAYS, 7, 0, NO_COLUMN, NOT_STORED},
    {"eta_beta", eta_beta, ALL, WHEN_ALWAYS, 8, 0, NO_COLUMN, NOT_STORED},
    {"eta_beta_busbw", eta_busbw, ALL, WHEN_ALWAYS, 9, 0, NO_COLUMN, NOT_STORED},
    {"max_rel_residual", eta_residual, ALL, WHEN_ALWAYS, 10, 0, NO_COLUMN, NOT_STORED},
    {"note", eta_note, ALL, WHEN_ALWAYS, 11, 0, NO_COLUMN, NOT_STORED},
};

/* ---- a crossover ---- */

static field_value crossover_case(const field_context *x) { return integer(ITEM(crossover_row, x)->case_index); }
static field_value crossover_a(const field_context *x) { return text(ITEM(crossover_row, x)->a); }
static field_value crossover_b(const field_context *x) { return text(ITEM(crossover_row, x)->b); }
static field_value crossover_size(const field_context *x) { return number(ITEM(crossover_row, x)->size_bytes, true); }
static field_value crossover_basis(const field_context *x)
{
    return text(ITEM(crossover_row, x)->simulated ? "simulated" : "predicted");
}

static const field crossover_table[] = {
    {"case", crossover_case, ALL, WHEN_ALWAYS, 0, 0, NO_COLUMN, NOT_STORED},
    {"a", crossover_a, ALL, WHEN_ALWAYS, 1, 0, NO_COLUMN, NOT_STORED},
    {"b", crossover_b, ALL, WHEN_ALWAYS, 2, 0, NO_COLUMN, NOT_STORED},
    {"size_bytes", crossover_size, ALL, WHEN_ALWAYS, 3, 0, NO_COLUMN, NOT_STORED},
    {"basis", crossover_basis, ALL, WHEN_ALWAYS, 4, 0, NO_COLUMN, NOT_STORED},
};

#define SET(table) {table, (int)(sizeof table / sizeof table[0])}
const field_set result_fields = SET(result_table), term_fields = SET(term_table), link_fields = SET(link_table),
                eta_fields = SET(eta_table), crossover_fields = SET(crossover_table), flow_fields = SET(flow_table);

/* ---- writing ---- */

int field_text_length(const field_value *v)
{
    size_t length = strlen(v->text);
    for (int k = 0; k < FIELD_PIECES && v->after[k]; k++) length += strlen(v->after[k]);
    return (int)length;
}

field_value field_table_text(const field_context *x)
{
    return row_algorithm_cell(x);
}

static bool shown(field_when when, const column_flags *f)
{
    switch (when) {
    case WHEN_SIMULATED: return f->simulated;
    case WHEN_FASTEST: return f->fastest;
    case WHEN_IDEAL: return f->ideal;
    case WHEN_MEASURED: return f->measured;
    case WHEN_MEASURED_SIMULATED: return f->measured && f->simulated;
    case WHEN_PIPELINED: return f->pipelined;
    case WHEN_PROTOCOL: return f->protocol;
    case WHEN_CHANNELS: return f->channels;
    case WHEN_SYNTHETIC: return f->synthetic;
    default: return true;
    }
}

/* The fields of SET in FORMAT (IN_CSV or IN_TABLE) that exist under FLAGS,
 * in their order for it, into ORDER; their count. */
static int columns(const field_set *set, unsigned format, const column_flags *flags, const field **order)
{
    int count = 0;
    unsigned wanted = format == IN_TABLE && flags->traffic ? IN_TRAFFIC_TABLE : format;
    for (int i = 0; i < set->count; i++) {
        const field *f = &set->fields[i];
        if (!(f->formats & wanted) || !shown(format == IN_CSV ? f->when : f->column.when, flags)) continue;
        int position = format == IN_CSV ? f->csv : f->table, j = count++;
        for (; j > 0 && (format == IN_CSV ? order[j - 1]->csv : order[j - 1]->table) > position; j--) order[j] = order[j - 1];
        order[j] = f;
    }
    return count;
}

#define MAX_FIELDS 96

void csv_text(FILE *out, const char *text_value)
{
    if (!strpbrk(text_value, ",\"\r\n")) {
        fputs(text_value, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text_value; *p; p++) {
        if (*p == '"') fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* The cases ROW ran with, but itself, each after SEPARATOR but the first. */
static void print_cases(FILE *out, const result_row *row, const char *separator)
{
    for (int c = row->block_first, n = 0; c < row->block_first + row->block_count; c++)
        if (c != row->case_index) fprintf(out, "%s%d", n++ ? separator : "", c);
}

void fields_csv_header(FILE *out, const field_set *set, const column_flags *flags)
{
    const field *order[MAX_FIELDS];
    int count = columns(set, IN_CSV, flags, order);
    for (int i = 0; i < count; i++) fprintf(out, "%s%s", i ? "," : "", order[i]->key);
}

void fields_csv_values(FILE *out, const field_set *set, const field_context *x, const column_flags *flags)
{
    const field *order[MAX_FIELDS];
    int count = columns(set, IN_CSV, flags, order);
    for (int i = 0; i < count; i++) {
        if (i) fputc(',', out);
        field_value v = order[i]->get(x);
        if (!v.present) continue;
        switch (v.kind) {
        case VALUE_NUMBER:
            if (isfinite(v.number)) fprintf(out, "%.17g", v.number);
            break;
        case VALUE_INT: fprintf(out, "%ld", (long)v.number); break;
        case VALUE_BOOL: fputs(v.number ? "true" : "false", out); break;
        case VALUE_CASES: print_cases(out, x->row, " "); break;
        default: csv_text(out, v.text); break;
        }
    }
}

void fields_json(FILE *out, const field_set *set, const field_context *x, bool first)
{
    for (int i = 0; i < set->count; i++) {
        const field *f = &set->fields[i];
        if (!(f->formats & IN_JSON)) continue;
        field_value v = f->get(x);
        if (!v.present) continue;
        fprintf(out, "%s\"%s\": ", first ? "" : ", ", f->key);
        first = false;
        switch (v.kind) {
        case VALUE_NUMBER: json_print_number(out, v.number); break;
        case VALUE_INT: fprintf(out, "%ld", (long)v.number); break;
        case VALUE_BOOL: fputs(v.number ? "true" : "false", out); break;
        case VALUE_CASES:
            fputc('[', out);
            print_cases(out, x->row, ", ");
            fputc(']', out);
            break;
        case VALUE_TEXT_OR_NULL:
            if (!v.text[0]) {
                fputs("null", out);
                break;
            }
            /* fall through */
        default: json_print_string(out, v.text); break;
        }
    }
}

void fields_table_header(FILE *out, const field_set *set, const column_flags *flags)
{
    const field *order[MAX_FIELDS];
    int count = columns(set, IN_TABLE, flags, order);
    for (int i = 0; i < count; i++) {
        const table_column *c = &order[i]->column;
        int width = c->header_width ? c->header_width : -flags->text_width;
        fprintf(out, "%*s%*s", c->gap, "", width, c->header);
    }
}

void fields_table_values(FILE *out, const field_set *set, const field_context *x, const column_flags *flags)
{
    const field *order[MAX_FIELDS];
    int count = columns(set, IN_TABLE, flags, order);
    for (int i = 0; i < count; i++) {
        const table_column *c = &order[i]->column;
        field_value v = order[i]->get(x);
        fprintf(out, "%*s", c->gap, "");
        if (v.kind == VALUE_TEXT || v.kind == VALUE_TEXT_OR_NULL) {
            int length = field_text_length(&v), width = c->width < 0 ? -c->width : c->width;
            if (c->width == 0) width = flags->text_width;
            if (c->width > 0) fprintf(out, "%*s", width > length ? width - length : 0, "");
            fputs(v.text, out);
            for (int k = 0; k < FIELD_PIECES && v.after[k]; k++) fputs(v.after[k], out);
            if (c->width <= 0) fprintf(out, "%*s", width > length ? width - length : 0, "");
        } else if (v.kind == VALUE_INT) fprintf(out, "%*ld", c->width, (long)v.number);
        else if (!v.present || !isfinite(v.number)) fprintf(out, "%*s", c->width, "-");
        else if (c->precision < 0) fprintf(out, "%*.5g", c->width, v.number * c->scale);
        else fprintf(out, "%*.*f", c->width, c->precision, v.number * c->scale);
    }
}
