/* report.c — the rows of a run or a prediction and their table, CSV and JSON
 * renderings (SPEC §8; every field is described in docs/output.md, the JSON
 * shape in docs/collsim-output.schema.json).  The η fit lives in calibrate.c,
 * the SVG plot in plot.c. */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/json_out.h"
#include "util/memory.h"
#include "util/output_file.h"

void report_add(report *r, const result_row *row)
{
    r->rows = grow_array(r->rows, &r->row_capacity, r->row_count + 1, sizeof *r->rows);
    r->rows[r->row_count++] = *row;
}

void report_add_eta(report *r, const eta_row *e)
{
    r->etas = grow_array(r->etas, &r->eta_capacity, r->eta_count + 1, sizeof *r->etas);
    r->etas[r->eta_count++] = *e;
}

void report_add_crossover(report *r, const crossover_row *x)
{
    r->crossovers = grow_array(r->crossovers, &r->crossover_capacity, r->crossover_count + 1, sizeof *r->crossovers);
    r->crossovers[r->crossover_count++] = *x;
}

void report_free(report *r)
{
    for (int i = 0; i < r->row_count; i++) free(r->rows[i].links);
    free(r->rows);
    free(r->etas);
    free(r->crossovers);
    r->rows = NULL;
    r->etas = NULL;
    r->crossovers = NULL;
    r->row_count = r->row_capacity = r->eta_count = r->eta_capacity = 0;
    r->crossover_count = r->crossover_capacity = 0;
}

static const char *direction_name(const link_row *l)
{
    return l->down ? "down" : "up";
}

static const char *text_or_empty(const char *text)
{
    return text ? text : "";
}

/* ---- table ---- */

/* VALUE in a column of WIDTH with PRECISION decimals, "-" when not finite. */
static void print_cell(FILE *out, int width, int precision, double value)
{
    if (isfinite(value)) fprintf(out, " %*.*f", width, precision, value);
    else fprintf(out, " %*s", width, "-");
}

static void print_table_header(const report *r, FILE *out)
{
    fprintf(out, "# collsim %s  scenario %s\n# platform %s (%s, %d ranks)  network model %s  eta profile %s\n",
            PACKAGE_VERSION, text_or_empty(r->scenario), text_or_empty(r->platform_name), text_or_empty(r->platform_kind),
            r->platform_ranks, text_or_empty(r->model), r->eta ? r->eta : "ideal");
}

/* Columns that only some cases have: the η = 1 time when the profile is not
 * ideal, the fastest group's time when several groups ran at once. */
typedef struct table_columns {
    bool ideal, fastest;
} table_columns;

static table_columns case_columns(const report *r, int first)
{
    table_columns c = {false, false};
    for (int i = first; i < r->row_count && r->rows[i].case_index == r->rows[first].case_index; i++) {
        c.ideal |= r->rows[i].ideal_s != r->rows[i].predicted_s;
        c.fastest |= r->simulated && r->rows[i].groups > 1;
    }
    return c;
}

/* A value of a row that CSV and JSON print by key. */
typedef struct field {
    const char *key;
    double value;              /* NaN / infinite: empty in CSV, null in JSON */
    bool present;              /* false: empty in CSV, no key in JSON (time_s, ratio under predict) */
} field;

/* With --measured: the measured time and the simulated and predicted errors against it. */
#define MEASURED_FIELDS 3
static void measured_fields(const result_row *row, field f[MEASURED_FIELDS])
{
    bool m = row->measured_s > 0, sim = m && row->simulated;
    const field all[MEASURED_FIELDS] = {{"measured_s", m ? row->measured_s : NAN, m},
                                        {"sim_error", sim ? row->time_s / row->measured_s - 1 : NAN, sim},
                                        {"pred_error", m ? row->predicted_s / row->measured_s - 1 : NAN, m}};
    memcpy(f, all, sizeof all);
}

/* Under predict (r->simulated false) the time and ratio columns are absent. */
static void print_column_header(const report *r, table_columns c, FILE *out)
{
    fprintf(out, "# %14s  %-29s %6s %-6s %3s", "size(B)", "algorithm", "P", "proto", "ch");
    if (r->simulated) fprintf(out, " %14s", "time(us)");
    if (c.fastest) fprintf(out, " %5s %14s", "group", "fastest(us)");
    fprintf(out, " %14s", "pred(us)");
    if (c.ideal) fprintf(out, " %14s", "ideal(us)");
    if (r->simulated) fprintf(out, " %8s", "ratio");
    fprintf(out, " %13s %13s %10s %10s", "algbw(GB/s)", "busbw(GB/s)", "n_alpha", "n_beta");
    if (r->simulated) fprintf(out, " %12s %12s %12s %12s", "p50(us)", "p99(us)", "max(us)", "spread(us)");
    if (r->measured) fprintf(out, " %14s%s %9s", "measured(us)", r->simulated ? " sim_err(%)" : "", "pred_err(%)");
    fputc('\n', out);
}

/* "      link  1  leaf0_spine1 up (spine) leaf0 -> spine1: utilization 0.998, 4.1 MB; buffer peak ..." */
static void print_link_line(const link_row *l, int rank, FILE *out)
{
    fprintf(out, "      link %2d  %s %s (%s) %s -> %s: utilization %.4f, %.6g B", rank, l->link, direction_name(l),
            l->tier, l->from, l->to, l->utilization, l->bytes);
    if (isfinite(l->peak_buffer_bytes))
        fprintf(out, "; buffer peak %.6g B, mean %.6g B; stalled %.6g us", l->peak_buffer_bytes, l->mean_buffer_bytes,
                l->stalled_s * 1e6);
    fputc('\n', out);
}

static void print_table_row(const report *r, const result_row *row, table_columns c, FILE *out)
{
    char algorithm[40];
    snprintf(algorithm, sizeof algorithm, "%s%s", row->algorithm, row->tuned ? " (auto)" : "");
    fprintf(out, "  %14.0f  %-29s %6d %-6s %3d", row->size_bytes, algorithm, row->segments, row->protocol, row->channels);
    if (r->simulated) print_cell(out, 14, 4, row->simulated ? row->time_s * 1e6 : NAN);
    if (c.fastest) {
        fprintf(out, " %5d", row->group);
        print_cell(out, 14, 4, row->simulated ? row->time_fastest_s * 1e6 : NAN);
    }
    print_cell(out, 14, 4, row->predicted_s * 1e6);
    if (c.ideal) print_cell(out, 14, 4, row->ideal_s * 1e6);
    if (r->simulated) print_cell(out, 8, 4, row->simulated ? row->ratio : NAN);
    print_cell(out, 13, 3, row->algbw_Bps / 1e9);
    print_cell(out, 13, 3, row->busbw_Bps / 1e9);
    fprintf(out, " %10.6g %10.6g", row->n_alpha, row->n_beta);
    if (r->simulated) {
        print_cell(out, 12, 4, row->simulated ? row->latency_p50_s * 1e6 : NAN);
        print_cell(out, 12, 4, row->simulated ? row->latency_p99_s * 1e6 : NAN);
        print_cell(out, 12, 4, row->simulated ? row->latency_max_s * 1e6 : NAN);
        print_cell(out, 12, 4, row->simulated ? row->rank_spread_s * 1e6 : NAN);
    }
    if (r->measured) {
        field f[MEASURED_FIELDS];
        measured_fields(row, f);
        for (int i = 0; i < MEASURED_FIELDS; i++) {
            if (i == 1 && !r->simulated) continue;
            print_cell(out, i == 0 ? 14 : i == 1 ? 11 : 12, i == 0 ? 4 : 2, f[i].present ? f[i].value * (i ? 100 : 1e6) : NAN);
        }
    }
    fputc('\n', out);
    for (int t = 0; row->term_count > 1 && t < row->term_count; t++) {
        const row_term *term = &row->terms[t];
        fprintf(out, "      term %-16s tier %-12s pred(us)", term->label, term->tier);
        print_cell(out, 14, 4, term->predicted_s * 1e6);
        if (term->time_s >= 0) {
            fprintf(out, "  sim(us)");
            print_cell(out, 14, 4, term->time_s * 1e6);
        }
        fputc('\n', out);
    }
    const link_row *links = r->all_links ? row->links : row->hot;
    int count = r->all_links ? row->link_count : row->hot_count;
    for (int i = 0; i < count; i++) print_link_line(&links[i], i + 1, out);
}

/* "# alpha 0.5 us, BW 900 GB/s: n_alpha and n_beta count against these" when
 * ROW's differ from PREVIOUS's (or PREVIOUS is NULL). */
static void print_alpha_bandwidth(const result_row *row, const result_row *previous, FILE *out)
{
    if (previous && previous->alpha_s == row->alpha_s && previous->bandwidth_Bps == row->bandwidth_Bps) return;
    fprintf(out, "# alpha %.6g us, BW %.6g GB/s (the bottleneck tier's): n_alpha and n_beta count against these\n",
            row->alpha_s * 1e6, row->bandwidth_Bps / 1e9);
}

static void print_number_or_dash(FILE *out, const char *format, double value)
{
    if (isfinite(value)) fprintf(out, format, value);
    else fputc('-', out);
}

static void print_eta_line(const eta_row *e, FILE *out)
{
    fprintf(out, "# eta %s", e->algorithm);
    if (e->group) fprintf(out, " group %d", e->group);
    if (e->tier[0]) fprintf(out, " %s (%s)", e->label, e->tier);
    if (e->note[0]) {
        fprintf(out, ": not fitted: %s (%d sizes)\n", e->note, e->points);
        return;
    }
    fprintf(out, ": eta_alpha ");
    print_number_or_dash(out, "%.6f", e->eta_alpha);
    fprintf(out, " eta_beta ");
    print_number_or_dash(out, "%.6f", e->eta_beta);
    if (!e->tier[0] && isfinite(e->eta_beta_busbw)) fprintf(out, " eta_beta(busbw) %.3f", e->eta_beta_busbw);
    fprintf(out, " max rel residual ");
    print_number_or_dash(out, "%.2g", e->max_rel_residual);
    fprintf(out, " (%d sizes)\n", e->points);
}

/* A size in the seed's units (KB, MB, GB are powers of ten). */
static void print_size(double bytes, FILE *out)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < 4) {
        bytes /= 1000;
        u++;
    }
    fprintf(out, "%.5g %s", bytes, units[u]);
}

static void print_case_etas(const report *r, int case_index, FILE *out)
{
    for (int i = 0; i < r->eta_count; i++)
        if (r->etas[i].case_index == case_index) print_eta_line(&r->etas[i], out);
    for (int i = 0; i < r->crossover_count; i++) {
        const crossover_row *x = &r->crossovers[i];
        if (x->case_index != case_index) continue;
        fprintf(out, "# crossover (predicted) %s = %s at M* = %.6g B (", x->a, x->b, x->size_bytes);
        print_size(x->size_bytes, out);
        fprintf(out, ")\n");
    }
}

/* The cases ROW ran together with (`concurrent:`), as "2 3"; "" when alone. */
static void concurrent_list(const result_row *row, const char *separator, char *out, size_t size)
{
    out[0] = '\0';
    size_t used = 0;
    for (int c = row->block_first, n = 0; c < row->block_first + row->block_count && used < size; c++)
        if (c != row->case_index) used += (size_t)snprintf(out + used, size - used, "%s%d", n++ ? separator : "", c);
}

/* "# case 2: alltoall, 8 groups of 64 ranks (strided) of star-512, skew zipf(1.2), with case 3" */
static void print_case_header(const report *r, const result_row *row, FILE *out)
{
    fprintf(out, "#\n# case %d: %s", row->case_index, primitive_name(row->prim));
    if (row->groups > 1) fprintf(out, ", %d concurrent groups of %d ranks (%s)", row->groups, row->ranks, row->layout);
    else if (strcmp(row->layout, "all") != 0 && row->layout[0]) fprintf(out, ", one group of %d ranks (%s)", row->ranks, row->layout);
    else fprintf(out, " over %d ranks", row->ranks);
    fprintf(out, " of %s", row->platform[0] ? row->platform : text_or_empty(r->platform_name));
    if (row->skew[0]) fprintf(out, ", skew %s", row->skew);
    if (row->background[0]) fprintf(out, ", background %s", row->background);
    char with[256];
    concurrent_list(row, ", ", with, sizeof with);
    if (with[0]) fprintf(out, ", concurrent with case %s", with);
    fputc('\n', out);
    if (row->groups > 1 && r->simulated)
        fprintf(out, "# time = the slowest group's finish (column group), fastest = the fastest group's\n");
}

static void print_table(const report *r, FILE *out)
{
    print_table_header(r, out);
    int current = -1;
    table_columns columns = {false, false};
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        bool opens = row->case_index != current;
        if (opens) {
            if (current >= 0) print_case_etas(r, current, out);
            current = row->case_index;
            columns = case_columns(r, i);
            print_case_header(r, row, out);
        }
        print_alpha_bandwidth(row, opens ? NULL : &r->rows[i - 1], out);
        if (opens) print_column_header(r, columns, out);
        print_table_row(r, row, columns, out);
    }
    if (current >= 0) print_case_etas(r, current, out);
}

/* ---- the numeric fields CSV and JSON share, in their order ---- */

#define ROW_FIELDS 17
#define TERM_FIELDS 6
#define ETA_FIELDS 4
#define LINK_FIELDS 6

static void row_fields(const result_row *row, field f[ROW_FIELDS])
{
    const field all[ROW_FIELDS] = {
        {"time_s", row->time_s, row->simulated},   {"predicted_s", row->predicted_s, true},
        {"ideal_s", row->ideal_s, true},           {"ratio", row->ratio, row->simulated},
        {"n_alpha", row->n_alpha, true},           {"n_beta", row->n_beta, true},
        {"alpha_s", row->alpha_s, true},           {"bandwidth_Bps", row->bandwidth_Bps, true},
        {"algbw_Bps", row->algbw_Bps, true},       {"busbw_Bps", row->busbw_Bps, true},
        {"time_fastest_s", row->time_fastest_s, row->simulated},
        {"messages", (double)row->messages, row->simulated},
        {"latency_p50_s", row->latency_p50_s, row->simulated},
        {"latency_p99_s", row->latency_p99_s, row->simulated},
        {"latency_max_s", row->latency_max_s, row->simulated},
        {"rank_spread_s", row->rank_spread_s, row->simulated},
        {"background_load", row->background_load, true}};
    memcpy(f, all, sizeof all);
}

static void link_fields(const link_row *l, field f[LINK_FIELDS])
{
    const field all[LINK_FIELDS] = {
        {"bandwidth_Bps", l->bandwidth_Bps, true},         {"bytes", l->bytes, true},
        {"utilization", l->utilization, true},             {"peak_buffer_bytes", l->peak_buffer_bytes, true},
        {"mean_buffer_bytes", l->mean_buffer_bytes, true}, {"stalled_s", l->stalled_s, true}};
    memcpy(f, all, sizeof all);
}


static void term_fields(const row_term *term, field f[TERM_FIELDS])
{
    const field all[TERM_FIELDS] = {
        {"n_alpha", term->n_alpha, true},          {"n_beta", term->n_beta, true},
        {"alpha_s", term->alpha_s, true},          {"bandwidth_Bps", term->bandwidth_Bps, true},
        {"predicted_s", term->predicted_s, true},  {"time_s", term->time_s >= 0 ? term->time_s : NAN, true}};
    memcpy(f, all, sizeof all);
}

static void eta_fields(const eta_row *e, field f[ETA_FIELDS])
{
    const field all[ETA_FIELDS] = {{"eta_alpha", e->eta_alpha, true},
                                   {"eta_beta", e->eta_beta, true},
                                   {"eta_beta_busbw", e->eta_beta_busbw, true},
                                   {"max_rel_residual", e->max_rel_residual, true}};
    memcpy(f, all, sizeof all);
}

/* ---- CSV: one table of results; the η rows, terms and crossovers each in
 * a table of their own (report_print_csv_block), so that every CSV reads with
 * a plain CSV reader ---- */

/* LEADING, the fields' keys, TRAILING (NULL: none), newline. */
static void csv_header(FILE *out, const char *leading, const field *f, int count, const char *trailing)
{
    fputs(leading, out);
    for (int i = 0; i < count; i++) fprintf(out, ",%s", f[i].key);
    if (trailing) fputs(trailing, out);
    fputc('\n', out);
}

/* The fields' values; a newline when END_LINE. */
static void csv_fields(FILE *out, const field *f, int count, bool end_line)
{
    for (int i = 0; i < count; i++) {
        if (f[i].present && isfinite(f[i].value)) fprintf(out, ",%.17g", f[i].value);
        else fputc(',', out);
    }
    if (end_line) fputc('\n', out);
}

/* TEXT as one CSV field (RFC 4180: quoted when it holds a comma, a quote or a line break). */
static void csv_text(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"') fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

static void print_csv(const report *r, FILE *out)
{
    field f[ROW_FIELDS];
    row_fields(&(result_row){0}, f);
    csv_header(out, "case,primitive,algorithm,group,ranks,size_bytes,segments", f, ROW_FIELDS,
               r->measured ? ",groups,layout,skew,platform,concurrent_with,model,protocol,channels,tuned,launch_s,background,"
                             "measured_s,sim_error,pred_error"
                           : ",groups,layout,skew,platform,concurrent_with,model,protocol,channels,tuned,launch_s,background");
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        fprintf(out, "%d,%s,", row->case_index, primitive_name(row->prim));
        csv_text(out, row->algorithm);
        fprintf(out, ",%d,%d,%.17g,%d", row->group, row->ranks, row->size_bytes, row->segments);
        row_fields(row, f);
        csv_fields(out, f, ROW_FIELDS, false);
        fprintf(out, ",%d,%s,", row->groups, row->layout);
        csv_text(out, row->skew);
        fputc(',', out);
        csv_text(out, row->platform);
        char with[256];
        concurrent_list(row, " ", with, sizeof with);
        fprintf(out, ",%s,", with);
        csv_text(out, text_or_empty(r->model));
        fprintf(out, ",%s,%d,%s,%.17g,", row->protocol, row->channels, row->tuned ? "true" : "false", row->launch_s);
        csv_text(out, row->background);
        field m[MEASURED_FIELDS];
        measured_fields(row, m);
        if (r->measured) csv_fields(out, m, MEASURED_FIELDS, false);
        fputc('\n', out);
    }
}

static void print_csv_etas(const report *r, FILE *out)
{
    field f[ETA_FIELDS];
    eta_fields(&(eta_row){0}, f);
    csv_header(out, "case,primitive,algorithm,group,tier,label,points", f, ETA_FIELDS, ",note");
    for (int i = 0; i < r->eta_count; i++) {
        const eta_row *e = &r->etas[i];
        fprintf(out, "%d,%s,%s,%d,%s,%s,%d", e->case_index, primitive_name(e->prim), e->algorithm, e->group, e->tier,
                e->label, e->points);
        eta_fields(e, f);
        csv_fields(out, f, ETA_FIELDS, false);
        fputc(',', out);
        csv_text(out, e->note);
        fputc('\n', out);
    }
}

static void print_csv_terms(const report *r, FILE *out)
{
    field f[TERM_FIELDS];
    term_fields(&(row_term){0}, f);
    csv_header(out, "case,algorithm,group,size_bytes,tier,label", f, TERM_FIELDS, NULL);
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        for (int t = 0; t < row->term_count; t++) {
            fprintf(out, "%d,%s,%d,%.17g,%s,%s", row->case_index, row->algorithm, row->group, row->size_bytes,
                    row->terms[t].tier, row->terms[t].label);
            term_fields(&row->terms[t], f);
            csv_fields(out, f, TERM_FIELDS, true);
        }
    }
}

/* One table of link directions: every row's busiest (HOT), or every row's all (--links). */
static void print_csv_links(const report *r, bool hot, FILE *out)
{
    field f[LINK_FIELDS];
    link_fields(&(link_row){0}, f);
    csv_header(out, "case,algorithm,group,size_bytes,rank,link,direction,tier,from,to", f, LINK_FIELDS, NULL);
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        const link_row *links = hot ? row->hot : row->links;
        for (int k = 0; k < (hot ? row->hot_count : row->link_count); k++) {
            fprintf(out, "%d,", row->case_index);
            csv_text(out, row->algorithm);
            fprintf(out, ",%d,%.17g,%d,", row->group, row->size_bytes, k + 1);
            csv_text(out, links[k].link);
            fprintf(out, ",%s,", direction_name(&links[k]));
            csv_text(out, links[k].tier);
            fputc(',', out);
            csv_text(out, links[k].from);
            fputc(',', out);
            csv_text(out, links[k].to);
            link_fields(&links[k], f);
            csv_fields(out, f, LINK_FIELDS, true);
        }
    }
}

static void print_csv_crossovers(const report *r, FILE *out)
{
    fprintf(out, "case,a,b,size_bytes\n");
    for (int i = 0; i < r->crossover_count; i++) {
        const crossover_row *x = &r->crossovers[i];
        fprintf(out, "%d,%s,%s,%.17g\n", x->case_index, x->a, x->b, x->size_bytes);
    }
}

const char *report_csv_block_name(csv_block block)
{
    static const char *const names[CSV_BLOCK_COUNT] = {"eta", "terms", "crossovers", "hot_links", "links"};
    return names[block];
}

void report_print_csv_block(const report *r, csv_block block, FILE *out)
{
    if (block == CSV_ETA) print_csv_etas(r, out);
    else if (block == CSV_TERMS) print_csv_terms(r, out);
    else if (block == CSV_CROSSOVERS) print_csv_crossovers(r, out);
    else print_csv_links(r, block == CSV_HOT_LINKS, out);
}

/* ---- JSON (docs/collsim-output.schema.json) ---- */

/* , "KEY": VALUE ... — null for a value that is not a number */
static void json_fields(FILE *out, const field *f, int count)
{
    for (int i = 0; i < count; i++) {
        if (!f[i].present) continue;
        fprintf(out, ", \"%s\": ", f[i].key);
        json_print_number(out, f[i].value);
    }
}

/* , "KEY": "TEXT" — null when TEXT is empty */
static void json_text_or_null(FILE *out, const char *key, const char *text)
{
    fprintf(out, ", \"%s\": ", key);
    if (text[0]) json_print_string(out, text);
    else fputs("null", out);
}

/* , "KEY": [{"link": ..., "direction": ..., ...}, ...] */
static void print_json_links(FILE *out, const char *key, const link_row *links, int count)
{
    field f[LINK_FIELDS];
    fprintf(out, ", \"%s\": [", key);
    for (int i = 0; i < count; i++) {
        const link_row *l = &links[i];
        fprintf(out, "%s{\"link\": ", i ? ", " : "");
        json_print_string(out, l->link);
        fprintf(out, ", \"direction\": \"%s\", \"tier\": ", direction_name(l));
        json_print_string(out, l->tier);
        fprintf(out, ", \"from\": ");
        json_print_string(out, l->from);
        fprintf(out, ", \"to\": ");
        json_print_string(out, l->to);
        link_fields(l, f);
        json_fields(out, f, LINK_FIELDS);
        fputc('}', out);
    }
    fputc(']', out);
}

static void print_json_result(const report *r, const result_row *row, FILE *out)
{
    field f[ROW_FIELDS];
    fprintf(out, "{\"case\": %d, \"primitive\": \"%s\", \"algorithm\": ", row->case_index, primitive_name(row->prim));
    json_print_string(out, row->algorithm);
    fprintf(out, ", \"platform\": ");
    json_print_string(out, row->platform[0] ? row->platform : "");
    fprintf(out, ", \"group\": %d, \"groups\": %d, \"layout\": ", row->group, row->groups);
    json_print_string(out, row->layout);
    json_text_or_null(out, "skew", row->skew);
    char with[256];
    concurrent_list(row, ", ", with, sizeof with);
    fprintf(out, ", \"concurrent_with\": [%s], \"ranks\": %d, \"size_bytes\": %.17g, \"segments\": %d", with, row->ranks, row->size_bytes, row->segments);
    fprintf(out, ", \"protocol\": \"%s\", \"channels\": %d, \"tuned\": %s, \"launch_s\": %.17g", row->protocol,
            row->channels, row->tuned ? "true" : "false", row->launch_s);
    row_fields(row, f);
    json_fields(out, f, ROW_FIELDS);
    fprintf(out, ", \"model\": ");
    json_print_string(out, text_or_empty(r->model));
    json_text_or_null(out, "background", row->background);
    field m[MEASURED_FIELDS];
    measured_fields(row, m);
    json_fields(out, m, MEASURED_FIELDS);
    fprintf(out, ", \"terms\": [");
    for (int t = 0; t < row->term_count; t++) {
        fprintf(out, "%s{\"tier\": ", t ? ", " : "");
        json_print_string(out, row->terms[t].tier);
        fprintf(out, ", \"label\": ");
        json_print_string(out, row->terms[t].label);
        term_fields(&row->terms[t], f);
        json_fields(out, f, TERM_FIELDS);
        fputc('}', out);
    }
    fputc(']', out);
    if (row->simulated) print_json_links(out, "hot_links", row->hot, row->hot_count);
    if (row->simulated && r->all_links) print_json_links(out, "links", row->links, row->link_count);
    fputc('}', out);
}

static void print_json_eta(const eta_row *e, FILE *out)
{
    field f[ETA_FIELDS];
    fprintf(out, "{\"case\": %d, \"primitive\": \"%s\", \"algorithm\": ", e->case_index, primitive_name(e->prim));
    json_print_string(out, e->algorithm);
    fprintf(out, ", \"group\": %d", e->group);
    json_text_or_null(out, "tier", e->tier);
    json_text_or_null(out, "label", e->label);
    fprintf(out, ", \"points\": %d", e->points);
    eta_fields(e, f);
    json_fields(out, f, ETA_FIELDS);
    json_text_or_null(out, "note", e->note);
    fputc('}', out);
}

static void print_json(const report *r, FILE *out)
{
    fprintf(out, "{\"collsim\": \"%s\", \"scenario\": ", PACKAGE_VERSION);
    json_print_string(out, r->scenario);
    fprintf(out, ", \"model\": ");
    json_print_string(out, r->model);
    fprintf(out, ", \"simulated\": %s, \"eta_profile\": ", r->simulated ? "true" : "false");
    json_print_string(out, r->eta ? r->eta : "ideal");
    fprintf(out, ",\n \"platform\": {\"name\": ");
    json_print_string(out, r->platform_name);
    fprintf(out, ", \"kind\": ");
    json_print_string(out, r->platform_kind);
    fprintf(out, ", \"ranks\": %d},\n \"results\": [", r->platform_ranks);
    for (int i = 0; i < r->row_count; i++) {
        fprintf(out, "%s\n  ", i ? "," : "");
        print_json_result(r, &r->rows[i], out);
    }
    fprintf(out, "\n ],\n \"eta\": [");
    for (int i = 0; i < r->eta_count; i++) {
        fprintf(out, "%s\n  ", i ? "," : "");
        print_json_eta(&r->etas[i], out);
    }
    fprintf(out, "\n ],\n \"crossovers\": [");
    for (int i = 0; i < r->crossover_count; i++) {
        const crossover_row *x = &r->crossovers[i];
        fprintf(out, "%s\n  {\"case\": %d, \"a\": ", i ? "," : "", x->case_index);
        json_print_string(out, x->a);
        fprintf(out, ", \"b\": ");
        json_print_string(out, x->b);
        fprintf(out, ", \"size_bytes\": %.17g}", x->size_bytes);
    }
    fprintf(out, "\n ]}\n");
}

void report_print(const report *r, report_format format, FILE *out)
{
    if (format == FORMAT_CSV) print_csv(r, out);
    else if (format == FORMAT_JSON) print_json(r, out);
    else print_table(r, out);
}

/* PATH's CSV block file: "out.csv" -> "out.eta.csv". */
static void csv_block_path(const char *path, csv_block block, char *out, size_t size)
{
    size_t stem = strlen(path);
    if (stem >= 4 && strcmp(path + stem - 4, ".csv") == 0) stem -= 4;
    snprintf(out, size, "%.*s.%s.csv", (int)stem, path, report_csv_block_name(block));
}

bool report_write(const report *r, report_format format, const char *path, diag *d)
{
    output_file main_file, blocks[CSV_BLOCK_COUNT];
    if (!output_open(&main_file, path ? path : "-", d)) return false;
    int opened = 0;
    bool ok = true;
    if (format == FORMAT_CSV && output_is_replaced(&main_file))
        while (ok && opened < (r->all_links ? CSV_BLOCK_COUNT : CSV_LINKS)) {
            char block_path[PATH_MAX + 32];
            csv_block_path(path, (csv_block)opened, block_path, sizeof block_path);
            ok = output_open(&blocks[opened], block_path, d);
            opened += ok;
        }
    if (ok) {
        report_print(r, format, main_file.stream);
        for (int b = 0; b < opened; b++) report_print_csv_block(r, (csv_block)b, blocks[b].stream);
    }
    for (int b = 0; b < opened; b++) ok = ok ? output_commit(&blocks[b], d) : (output_discard(&blocks[b]), false);
    if (ok) return output_commit(&main_file, d);
    output_discard(&main_file);
    return false;
}
