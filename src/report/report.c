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

void report_free(report *r)
{
    free(r->rows);
    free(r->etas);
    r->rows = NULL;
    r->etas = NULL;
    r->row_count = r->row_capacity = r->eta_count = r->eta_capacity = 0;
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

static void print_case_etas(const report *r, int case_index, FILE *out)
{
    for (int i = 0; i < r->eta_count; i++)
        if (r->etas[i].case_index == case_index) print_eta_line(&r->etas[i], out);
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
            fprintf(out, "#\n# case %d: %s over %d ranks\n", current, primitive_name(row->prim), row->ranks);
            print_column_header(r, out);
        }
        print_table_row(r, row, out);
    }
    if (current >= 0) print_case_etas(r, current, out);
}

/* ---- CSV: a results block, then (after a blank line each) an eta block and
 * a terms block, each with its own header line ---- */

static void csv_number(FILE *out, double value)
{
    if (isfinite(value)) fprintf(out, ",%.17g", value);
    else fputc(',', out);
}

static void print_csv(const report *r, FILE *out)
{
    fprintf(out, "case,primitive,algorithm,group,ranks,size_bytes,segments,time_s,predicted_s,ideal_s,ratio,"
                 "n_alpha,n_beta,alpha_s,bandwidth_Bps,algbw_Bps,busbw_Bps\n");
    int term_rows = 0;
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        fprintf(out, "%d,%s,%s,%d,%d,%.17g,%d", row->case_index, primitive_name(row->prim), row->algorithm, row->group,
                row->ranks, row->size_bytes, row->segments);
        csv_number(out, row->simulated ? row->time_s : NAN);
        csv_number(out, row->predicted_s);
        csv_number(out, row->ideal_s);
        csv_number(out, row->simulated ? row->ratio : NAN);
        const double tail[] = {row->n_alpha, row->n_beta, row->alpha_s, row->bandwidth_Bps, row->algbw_Bps, row->busbw_Bps};
        for (size_t k = 0; k < sizeof tail / sizeof tail[0]; k++) csv_number(out, tail[k]);
        fputc('\n', out);
        term_rows += row->term_count;
    }
    if (r->eta_count) {
        fprintf(out, "\ncase,primitive,algorithm,group,tier,label,points,eta_alpha,eta_beta,eta_beta_busbw,max_rel_residual\n");
        for (int i = 0; i < r->eta_count; i++) {
            const eta_row *e = &r->etas[i];
            fprintf(out, "%d,%s,%s,%d,%s,%s,%d", e->case_index, primitive_name(e->prim), e->algorithm, e->group, e->tier,
                    e->label, e->points);
            const double values[] = {e->eta_alpha, e->eta_beta, e->eta_beta_busbw, e->max_rel_residual};
            for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) csv_number(out, values[k]);
            fputc('\n', out);
        }
    }
    if (!term_rows) return;
    fprintf(out, "\ncase,algorithm,group,size_bytes,tier,label,n_alpha,n_beta,alpha_s,bandwidth_Bps,predicted_s,time_s\n");
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        for (int t = 0; t < row->term_count; t++) {
            const row_term *term = &row->terms[t];
            fprintf(out, "%d,%s,%d,%.17g,%s,%s", row->case_index, row->algorithm, row->group, row->size_bytes, term->tier,
                    term->label);
            const double values[] = {term->n_alpha, term->n_beta, term->alpha_s, term->bandwidth_Bps, term->predicted_s,
                                     term->time_s >= 0 ? term->time_s : NAN};
            for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) csv_number(out, values[k]);
            fputc('\n', out);
        }
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

/* , "KEY": VALUE  — null when VALUE is NaN or infinite */
static void json_number(FILE *out, const char *key, double value)
{
    fprintf(out, ", \"%s\": ", key);
    if (isfinite(value)) fprintf(out, "%.17g", value);
    else fputs("null", out);
}

/* , "KEY": "TEXT" — null when TEXT is empty */
static void json_text_or_null(FILE *out, const char *key, const char *text)
{
    fprintf(out, ", \"%s\": ", key);
    if (text[0]) print_json_string(text, out);
    else fputs("null", out);
}

static void print_json_terms(const result_row *row, FILE *out)
{
    fprintf(out, ", \"terms\": [");
    for (int t = 0; t < row->term_count; t++) {
        const row_term *term = &row->terms[t];
        fprintf(out, "%s{\"tier\": ", t ? ", " : "");
        print_json_string(term->tier, out);
        fprintf(out, ", \"label\": ");
        print_json_string(term->label, out);
        json_number(out, "n_alpha", term->n_alpha);
        json_number(out, "n_beta", term->n_beta);
        json_number(out, "alpha_s", term->alpha_s);
        json_number(out, "bandwidth_Bps", term->bandwidth_Bps);
        json_number(out, "predicted_s", term->predicted_s);
        json_number(out, "time_s", term->time_s >= 0 ? term->time_s : NAN);
        fputc('}', out);
    }
    fputc(']', out);
}

static void print_json_result(const result_row *row, FILE *out)
{
    fprintf(out, "{\"case\": %d, \"primitive\": \"%s\", \"algorithm\": ", row->case_index, primitive_name(row->prim));
    print_json_string(row->algorithm, out);
    fprintf(out, ", \"group\": %d, \"ranks\": %d", row->group, row->ranks);
    json_number(out, "size_bytes", row->size_bytes);
    fprintf(out, ", \"segments\": %d", row->segments);
    if (row->simulated) json_number(out, "time_s", row->time_s);
    json_number(out, "predicted_s", row->predicted_s);
    json_number(out, "ideal_s", row->ideal_s);
    if (row->simulated) json_number(out, "ratio", row->ratio);
    json_number(out, "n_alpha", row->n_alpha);
    json_number(out, "n_beta", row->n_beta);
    json_number(out, "alpha_s", row->alpha_s);
    json_number(out, "bandwidth_Bps", row->bandwidth_Bps);
    json_number(out, "algbw_Bps", row->algbw_Bps);
    json_number(out, "busbw_Bps", row->busbw_Bps);
    print_json_terms(row, out);
    fputc('}', out);
}

static void print_json_eta(const eta_row *e, FILE *out)
{
    fprintf(out, "{\"case\": %d, \"primitive\": \"%s\", \"algorithm\": ", e->case_index, primitive_name(e->prim));
    print_json_string(e->algorithm, out);
    fprintf(out, ", \"group\": %d", e->group);
    json_text_or_null(out, "tier", e->tier);
    json_text_or_null(out, "label", e->label);
    fprintf(out, ", \"points\": %d", e->points);
    json_number(out, "eta_alpha", e->eta_alpha);
    json_number(out, "eta_beta", e->eta_beta);
    json_number(out, "eta_beta_busbw", e->eta_beta_busbw);
    json_number(out, "max_rel_residual", e->max_rel_residual);
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
            unlink(temporary);
        }
        return diag_fail(d, "cannot write %s: %s", path, strerror(error));
    }
    report_print(r, format, out);
    bool ok = fflush(out) == 0 && !ferror(out);
    ok = fclose(out) == 0 && ok;
    if (ok && rename(temporary, path) != 0) ok = false;
    if (!ok) {
        unlink(temporary);
        return diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    }
    return true;
}
