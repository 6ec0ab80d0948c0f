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
    free(r->rows);
    free(r->etas);
    free(r->crossovers);
    r->rows = NULL;
    r->etas = NULL;
    r->crossovers = NULL;
    r->row_count = r->row_capacity = r->eta_count = r->eta_capacity = 0;
    r->crossover_count = r->crossover_capacity = 0;
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

/* Under predict (r->simulated false) the time and ratio columns are absent. */
static void print_column_header(const report *r, FILE *out)
{
    fprintf(out, "# %14s  %-22s %6s", "size(B)", "algorithm", "P");
    if (r->simulated) fprintf(out, " %14s", "time(us)");
    fprintf(out, " %14s", "pred(us)");
    if (r->simulated) fprintf(out, " %8s", "ratio");
    fprintf(out, " %13s %13s %10s %10s\n", "algbw(GB/s)", "busbw(GB/s)", "n_alpha", "n_beta");
}

static void print_table_row(const report *r, const result_row *row, FILE *out)
{
    fprintf(out, "  %14.0f  %-22s %6d", row->size_bytes, row->algorithm, row->segments);
    if (r->simulated) print_cell(out, 14, 4, row->simulated ? row->time_s * 1e6 : NAN);
    print_cell(out, 14, 4, row->predicted_s * 1e6);
    if (r->simulated) print_cell(out, 8, 4, row->simulated ? row->ratio : NAN);
    print_cell(out, 13, 3, row->algbw_Bps / 1e9);
    print_cell(out, 13, 3, row->busbw_Bps / 1e9);
    fprintf(out, " %10.6g %10.6g\n", row->n_alpha, row->n_beta);
    if (row->term_count <= 1) return;
    for (int t = 0; t < row->term_count; t++) {
        const row_term *term = &row->terms[t];
        fprintf(out, "      term %-16s tier %-12s pred(us)", term->label, term->tier);
        print_cell(out, 14, 4, term->predicted_s * 1e6);
        if (term->time_s >= 0) {
            fprintf(out, "  sim(us)");
            print_cell(out, 14, 4, term->time_s * 1e6);
        }
        fputc('\n', out);
    }
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
    fprintf(out, ": eta_alpha ");
    print_number_or_dash(out, "%.6f", e->eta_alpha);
    fprintf(out, " eta_beta ");
    print_number_or_dash(out, "%.6f", e->eta_beta);
    if (!e->tier[0]) {
        fprintf(out, " eta_beta(busbw) ");
        print_number_or_dash(out, "%.3f", e->eta_beta_busbw);
    }
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
        fprintf(out, "# crossover %s = %s at M* = %.6g B (", x->a, x->b, x->size_bytes);
        print_size(x->size_bytes, out);
        fprintf(out, ")\n");
    }
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
    if (row->block_count > 1) {
        fprintf(out, ", concurrent with case");
        for (int c = row->block_first, n = 0; c < row->block_first + row->block_count; c++)
            if (c != row->case_index) fprintf(out, "%s %d", n++ ? "," : "", c);
    }
    fputc('\n', out);
    if (row->groups > 1 && r->simulated) fprintf(out, "# time = the slowest group's finish\n");
}

static void print_table(const report *r, FILE *out)
{
    print_table_header(r, out);
    int current = -1;
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != current) {
            if (current >= 0) print_case_etas(r, current, out);
            current = row->case_index;
            print_case_header(r, row, out);
            print_column_header(r, out);
        }
        print_table_row(r, row, out);
    }
    if (current >= 0) print_case_etas(r, current, out);
}

/* ---- the numeric fields CSV and JSON share, in their order ---- */

typedef struct field {
    const char *key;
    double value;              /* NaN / infinite: empty in CSV, null in JSON */
    bool present;              /* false: empty in CSV, no key in JSON (time_s, ratio under predict) */
} field;

#define ROW_FIELDS 11
#define TERM_FIELDS 6
#define ETA_FIELDS 4

static void row_fields(const result_row *row, field f[ROW_FIELDS])
{
    const field all[ROW_FIELDS] = {
        {"time_s", row->time_s, row->simulated},   {"predicted_s", row->predicted_s, true},
        {"ideal_s", row->ideal_s, true},           {"ratio", row->ratio, row->simulated},
        {"n_alpha", row->n_alpha, true},           {"n_beta", row->n_beta, true},
        {"alpha_s", row->alpha_s, true},           {"bandwidth_Bps", row->bandwidth_Bps, true},
        {"algbw_Bps", row->algbw_Bps, true},       {"busbw_Bps", row->busbw_Bps, true},
        {"time_fastest_s", row->time_fastest_s, row->simulated}};
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

/* ---- CSV: a results block, then (after a blank line each) an eta block, a
 * terms block and a crossovers block, each with its own header line ---- */

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

static void print_csv(const report *r, FILE *out)
{
    field f[ROW_FIELDS];
    row_fields(&(result_row){0}, f);
    csv_header(out, "case,primitive,algorithm,group,ranks,size_bytes,segments", f, ROW_FIELDS, ",groups,layout,skew");
    int term_rows = 0;
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        fprintf(out, "%d,%s,%s,%d,%d,%.17g,%d", row->case_index, primitive_name(row->prim), row->algorithm, row->group,
                row->ranks, row->size_bytes, row->segments);
        row_fields(row, f);
        csv_fields(out, f, ROW_FIELDS, false);
        fprintf(out, ",%d,%s,%s\n", row->groups, row->layout, row->skew);
        term_rows += row->term_count;
    }
    if (r->eta_count) {
        eta_fields(&(eta_row){0}, f);
        csv_header(out, "\ncase,primitive,algorithm,group,tier,label,points", f, ETA_FIELDS, NULL);
    }
    for (int i = 0; i < r->eta_count; i++) {
        const eta_row *e = &r->etas[i];
        fprintf(out, "%d,%s,%s,%d,%s,%s,%d", e->case_index, primitive_name(e->prim), e->algorithm, e->group, e->tier,
                e->label, e->points);
        eta_fields(e, f);
        csv_fields(out, f, ETA_FIELDS, true);
    }
    if (term_rows) {
        term_fields(&(row_term){0}, f);
        csv_header(out, "\ncase,algorithm,group,size_bytes,tier,label", f, TERM_FIELDS, NULL);
    }
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        for (int t = 0; t < row->term_count; t++) {
            fprintf(out, "%d,%s,%d,%.17g,%s,%s", row->case_index, row->algorithm, row->group, row->size_bytes,
                    row->terms[t].tier, row->terms[t].label);
            term_fields(&row->terms[t], f);
            csv_fields(out, f, TERM_FIELDS, true);
        }
    }
    if (r->crossover_count) fprintf(out, "\ncase,a,b,size_bytes\n");
    for (int i = 0; i < r->crossover_count; i++) {
        const crossover_row *x = &r->crossovers[i];
        fprintf(out, "%d,%s,%s,%.17g\n", x->case_index, x->a, x->b, x->size_bytes);
    }
}

/* ---- JSON (docs/collsim-output.schema.json) ---- */

static void print_json_string(const char *text, FILE *out)
{
    fputc('"', out);
    for (const char *p = text_or_empty(text); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if ((unsigned char)*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

/* , "KEY": VALUE ... — null for a value that is not a number */
static void json_fields(FILE *out, const field *f, int count)
{
    for (int i = 0; i < count; i++) {
        if (!f[i].present) continue;
        fprintf(out, ", \"%s\": ", f[i].key);
        if (isfinite(f[i].value)) fprintf(out, "%.17g", f[i].value);
        else fputs("null", out);
    }
}

/* , "KEY": "TEXT" — null when TEXT is empty */
static void json_text_or_null(FILE *out, const char *key, const char *text)
{
    fprintf(out, ", \"%s\": ", key);
    if (text[0]) print_json_string(text, out);
    else fputs("null", out);
}

static void print_json_result(const result_row *row, FILE *out)
{
    field f[ROW_FIELDS];
    fprintf(out, "{\"case\": %d, \"primitive\": \"%s\", \"algorithm\": ", row->case_index, primitive_name(row->prim));
    print_json_string(row->algorithm, out);
    fprintf(out, ", \"platform\": ");
    print_json_string(row->platform[0] ? row->platform : "", out);
    fprintf(out, ", \"group\": %d, \"groups\": %d, \"layout\": ", row->group, row->groups);
    print_json_string(row->layout, out);
    json_text_or_null(out, "skew", row->skew);
    fprintf(out, ", \"concurrent_with\": [");
    for (int c = row->block_first, n = 0; c < row->block_first + row->block_count; c++)
        if (c != row->case_index) fprintf(out, "%s%d", n++ ? ", " : "", c);
    fprintf(out, "], \"ranks\": %d, \"size_bytes\": %.17g, \"segments\": %d", row->ranks, row->size_bytes, row->segments);
    row_fields(row, f);
    json_fields(out, f, ROW_FIELDS);
    fprintf(out, ", \"terms\": [");
    for (int t = 0; t < row->term_count; t++) {
        fprintf(out, "%s{\"tier\": ", t ? ", " : "");
        print_json_string(row->terms[t].tier, out);
        fprintf(out, ", \"label\": ");
        print_json_string(row->terms[t].label, out);
        term_fields(&row->terms[t], f);
        json_fields(out, f, TERM_FIELDS);
        fputc('}', out);
    }
    fprintf(out, "]}");
}

static void print_json_eta(const eta_row *e, FILE *out)
{
    field f[ETA_FIELDS];
    fprintf(out, "{\"case\": %d, \"primitive\": \"%s\", \"algorithm\": ", e->case_index, primitive_name(e->prim));
    print_json_string(e->algorithm, out);
    fprintf(out, ", \"group\": %d", e->group);
    json_text_or_null(out, "tier", e->tier);
    json_text_or_null(out, "label", e->label);
    fprintf(out, ", \"points\": %d", e->points);
    eta_fields(e, f);
    json_fields(out, f, ETA_FIELDS);
    fputc('}', out);
}

static void print_json(const report *r, FILE *out)
{
    fprintf(out, "{\"collsim\": \"%s\", \"scenario\": ", PACKAGE_VERSION);
    print_json_string(r->scenario, out);
    fprintf(out, ", \"model\": ");
    print_json_string(r->model, out);
    fprintf(out, ", \"simulated\": %s, \"eta_profile\": ", r->simulated ? "true" : "false");
    print_json_string(r->eta ? r->eta : "ideal", out);
    fprintf(out, ",\n \"platform\": {\"name\": ");
    print_json_string(r->platform_name, out);
    fprintf(out, ", \"kind\": ");
    print_json_string(r->platform_kind, out);
    fprintf(out, ", \"ranks\": %d},\n \"results\": [", r->platform_ranks);
    for (int i = 0; i < r->row_count; i++) {
        fprintf(out, "%s\n  ", i ? "," : "");
        print_json_result(&r->rows[i], out);
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
        print_json_string(x->a, out);
        fprintf(out, ", \"b\": ");
        print_json_string(x->b, out);
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

bool report_write(const report *r, report_format format, const char *path, diag *d)
{
    if (!path) {
        report_print(r, format, stdout);
        return true;
    }
    char temporary[1100];
    int fd = output_file_create(path, temporary, sizeof temporary);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        int error = errno;
        if (fd >= 0) {
            close(fd);
            output_file_discard(temporary);
        }
        return diag_fail(d, "cannot write %s: %s", path, strerror(error));
    }
    report_print(r, format, out);
    bool ok = fflush(out) == 0 && !ferror(out);
    ok = fclose(out) == 0 && ok;
    if (!ok) output_file_discard(temporary);
    else ok = output_file_commit(temporary, path) == 0;
    return ok || diag_fail(d, "cannot write %s: %s", path, strerror(errno));
}
