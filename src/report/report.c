/* report.c — table, CSV and JSON renderings of run results. */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void report_add(report *r, const result_row *row)
{
    if (r->row_count == r->row_capacity) {
        r->row_capacity = r->row_capacity ? 2 * r->row_capacity : 64;
        r->rows = realloc(r->rows, sizeof *r->rows * (size_t)r->row_capacity);
    }
    r->rows[r->row_count++] = *row;
}

void report_free(report *r)
{
    free(r->rows);
    r->rows = NULL;
    r->row_count = r->row_capacity = 0;
}

static void print_table(const report *r, FILE *out)
{
    fprintf(out, "# collsim %s  scenario %s\n# platform %s (%s, %d ranks)  model %s\n", PACKAGE_VERSION, r->scenario,
            r->platform_name, r->platform_kind, r->platform_ranks, r->model);
    int current = -1;
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != current) {
            current = row->case_index;
            fprintf(out, "#\n# case %d: %s over %d ranks\n", current, primitive_name(row->prim), row->ranks);
            fprintf(out, "# %14s  %-22s %6s %14s %13s %13s\n", "size(B)", "algorithm", "P", "time(us)", "algbw(GB/s)", "busbw(GB/s)");
        }
        fprintf(out, "  %14.0f  %-22s %6d %14.4f %13.3f %13.3f\n", row->size_bytes, row->algorithm, row->segments, row->time_s * 1e6,
                row->algbw_Bps / 1e9, row->busbw_Bps / 1e9);
    }
}

static void print_csv(const report *r, FILE *out)
{
    fprintf(out, "case,primitive,algorithm,group,ranks,size_bytes,segments,time_s,algbw_Bps,busbw_Bps\n");
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        fprintf(out, "%d,%s,%s,%d,%d,%.17g,%d,%.17g,%.17g,%.17g\n", row->case_index, primitive_name(row->prim), row->algorithm,
                row->group, row->ranks, row->size_bytes, row->segments, row->time_s, row->algbw_Bps, row->busbw_Bps);
    }
}

static void print_json_string(const char *text, FILE *out)
{
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if ((unsigned char)*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void print_json(const report *r, FILE *out)
{
    fprintf(out, "{\"collsim\": \"%s\", \"scenario\": ", PACKAGE_VERSION);
    print_json_string(r->scenario, out);
    fprintf(out, ", \"model\": \"%s\",\n \"platform\": {\"name\": ", r->model);
    print_json_string(r->platform_name, out);
    fprintf(out, ", \"kind\": \"%s\", \"ranks\": %d},\n \"results\": [", r->platform_kind, r->platform_ranks);
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        fprintf(out,
                "%s\n  {\"case\": %d, \"primitive\": \"%s\", \"algorithm\": \"%s\", \"group\": %d, \"ranks\": %d, "
                "\"size_bytes\": %.17g, \"segments\": %d, \"time_s\": %.17g, \"algbw_Bps\": %.17g, \"busbw_Bps\": %.17g}",
                i ? "," : "", row->case_index, primitive_name(row->prim), row->algorithm, row->group, row->ranks,
                row->size_bytes, row->segments, row->time_s, row->algbw_Bps, row->busbw_Bps);
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
    snprintf(temporary, sizeof temporary, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(temporary);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) return diag_fail(d, "cannot write %s: %s", path, strerror(errno));
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
