/* report.c — the report's CSV and JSON renderings (docs/output.md; the JSON
 * shape in docs/collsim-output.schema.json) from the field tables of
 * fields.c, and writing any format whole or not at all.  The table is
 * table.c's, the SVG plot plot.c's. */
#include "report/nccl_tests.h"
#include "report/report.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/fields.h"
#include "util/json_out.h"
#include "util/output_file.h"

/* ---- CSV: one table of results; the η rows, terms, crossovers and links
 * each in a table of their own (report_print_csv_block), so that every CSV
 * reads with a plain CSV reader ---- */

static column_flags report_columns(const report *r)
{
    return (column_flags){.simulated = r->simulated, .measured = r->measured};
}

static void print_csv(const report *r, FILE *out)
{
    column_flags flags = report_columns(r);
    fields_csv_header(out, &result_fields, &flags);
    fputc('\n', out);
    for (int i = 0; i < r->row_count; i++) {
        field_context x = {r, &r->rows[i], NULL, 0};
        fields_csv_values(out, &result_fields, &x, &flags);
        fputc('\n', out);
    }
}

static void print_csv_etas(const report *r, FILE *out)
{
    column_flags flags = report_columns(r);
    fields_csv_header(out, &eta_fields, &flags);
    fputc('\n', out);
    for (int i = 0; i < r->eta_count; i++) {
        field_context x = {r, NULL, &r->etas[i], 0};
        fields_csv_values(out, &eta_fields, &x, &flags);
        fputc('\n', out);
    }
}

static void print_csv_terms(const report *r, FILE *out)
{
    column_flags flags = report_columns(r);
    fields_csv_header(out, &term_fields, &flags);
    fputc('\n', out);
    for (int i = 0; i < r->row_count; i++)
        for (int t = 0; t < r->rows[i].term_count; t++) {
            field_context x = {r, &r->rows[i], &r->rows[i].terms[t], t + 1};
            fields_csv_values(out, &term_fields, &x, &flags);
            fputc('\n', out);
        }
}

/* One table of link directions: every row's busiest (HOT), or every row's all (--links). */
static void print_csv_links(const report *r, bool hot, FILE *out)
{
    column_flags flags = report_columns(r);
    fields_csv_header(out, &link_fields, &flags);
    fputc('\n', out);
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        const link_row *links = hot ? row->hot : row->links;
        for (int k = 0; k < (hot ? row->hot_count : row->link_count); k++) {
            field_context x = {r, row, &links[k], k + 1};
            fields_csv_values(out, &link_fields, &x, &flags);
            fputc('\n', out);
        }
    }
}

static void print_csv_crossovers(const report *r, FILE *out)
{
    column_flags flags = report_columns(r);
    fields_csv_header(out, &crossover_fields, &flags);
    fputc('\n', out);
    for (int i = 0; i < r->crossover_count; i++) {
        field_context x = {r, NULL, &r->crossovers[i], 0};
        fields_csv_values(out, &crossover_fields, &x, &flags);
        fputc('\n', out);
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

/* , "KEY": [{...}, ...] of a row's COUNT records of SET (its terms, link directions or flows), SIZE bytes apart */
static void print_json_list(FILE *out, const report *r, const result_row *row, const char *key, const field_set *set,
                            const void *records, int count, size_t size)
{
    fprintf(out, ", \"%s\": [", key);
    for (int i = 0; i < count; i++) {
        field_context x = {r, row, (const char *)records + (size_t)i * size, i + 1};
        fputs(i ? ", {" : "{", out);
        fields_json(out, set, &x, true);
        fputc('}', out);
    }
    fputc(']', out);
}

void report_print_json_result(const report *r, const result_row *row, FILE *out)
{
    field_context x = {r, row, NULL, 0};
    fputc('{', out);
    fields_json(out, &result_fields, &x, true);
    print_json_list(out, r, row, "terms", &term_fields, row->terms, row->term_count, sizeof *row->terms);
    if (row->simulated) print_json_list(out, r, row, "hot_links", &link_fields, row->hot, row->hot_count, sizeof *row->hot);
    if (row->simulated && r->all_links)
        print_json_list(out, r, row, "links", &link_fields, row->links, row->link_count, sizeof *row->links);
    if (row->flows) print_json_list(out, r, row, "flows", &flow_fields, row->flows, row->flow_count, sizeof *row->flows);
    fputc('}', out);
}

/* ,\n "KEY": [\n  {...},\n  {...}\n ] of COUNT records of SET, SIZE bytes apart */
static void print_json_records(FILE *out, const report *r, const char *key, const field_set *set, const void *records,
                               int count, size_t size)
{
    fprintf(out, ",\n \"%s\": [", key);
    for (int i = 0; i < count; i++) {
        field_context x = {r, NULL, (const char *)records + (size_t)i * size, 0};
        fprintf(out, "%s\n  {", i ? "," : "");
        fields_json(out, set, &x, true);
        fputc('}', out);
    }
    fprintf(out, "\n ]");
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
        report_print_json_result(r, &r->rows[i], out);
    }
    fprintf(out, "\n ]");
    print_json_records(out, r, "eta", &eta_fields, r->etas, r->eta_count, sizeof *r->etas);
    print_json_records(out, r, "crossovers", &crossover_fields, r->crossovers, r->crossover_count, sizeof *r->crossovers);
    fprintf(out, "}\n");
}

void report_print(const report *r, report_format format, FILE *out)
{
    if (format == FORMAT_CSV) print_csv(r, out);
    else if (format == FORMAT_JSON) print_json(r, out);
    else if (format == FORMAT_NCCL_TESTS) report_print_nccl_tests(r, out);
    else report_print_table(r, out);
}

void report_csv_block_path(const char *path, csv_block block, char *out, size_t size)
{
    size_t stem = strlen(path);
    if (stem >= 4 && strcmp(path + stem - 4, ".csv") == 0) stem -= 4;
    snprintf(out, size, "%.*s.%s.csv", (int)stem, path, report_csv_block_name(block));
}

int report_csv_block_count(bool all_links)
{
    return all_links ? CSV_BLOCK_COUNT : CSV_LINKS;
}

/* The main file first, then (a CSV set into a regular file) its blocks'
 * files, written to temporaries and renamed together: the set is replaced
 * whole or not at all (output_commit_all). */
bool report_write(const report *r, report_format format, const char *path, diag *d)
{
    output_file files[1 + CSV_BLOCK_COUNT];
    if (!output_open(&files[0], path ? path : "-", d)) return false;
    int opened = 1;
    bool ok = true;
    if (format == FORMAT_CSV && output_is_replaced(&files[0]))
        while (ok && opened < 1 + report_csv_block_count(r->all_links)) {
            char block_path[PATH_MAX + 32];
            report_csv_block_path(path, (csv_block)(opened - 1), block_path, sizeof block_path);
            ok = output_open(&files[opened], block_path, d);
            opened += ok;
        }
    if (ok) {
        report_print(r, format, files[0].stream);
        for (int b = 1; b < opened; b++) report_print_csv_block(r, (csv_block)(b - 1), files[b].stream);
        return output_commit_all(files, opened, d);
    }
    for (int b = 0; b < opened; b++) output_discard(&files[b]);
    return false;
}

bool report_format_named(const char *text, const char *output, report_format *format)
{
    size_t length = output ? strlen(output) : 0;
    if (!text && length > 4 && strcmp(output + length - 4, ".csv") == 0) text = "csv";
    if (!text && length > 5 && strcmp(output + length - 5, ".json") == 0) text = "json";
    static const struct {
        const char *name;
        report_format format;
    } names[] = {{"table", FORMAT_TABLE}, {"csv", FORMAT_CSV}, {"json", FORMAT_JSON}, {"nccl-tests", FORMAT_NCCL_TESTS}};
    *format = FORMAT_TABLE;
    if (!text) return true;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(text, names[i].name) == 0) {
            *format = names[i].format;
            return true;
        }
    return false;
}
