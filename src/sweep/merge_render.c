/* merge_render.c — the merged sweep's table, CSV, JSON and plot
 * (merge_render.h).
 *
 *   - JSON: {"collsim", "sweep", "scenario", "axes", "axis_points": [{"axes",
 *     "points", "report"}]}, each "report" byte for byte the JSON `collsim
 *     run --format json` writes for that axis point's scenario;
 *   - table: a sweep header, then per axis point a `# axis point K of N:`
 *     line and run's table;
 *   - CSV: run's tables with the axis values in front, one column per axis
 *     (empty where an axis point keeps the base's value);
 *   - plot: every axis point's cases as panels of one drawing, each panel
 *     titled with its axis values. */
#include "sweep/merge_render.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report/fields.h"
#include "util/json_out.h"
#include "util/output_file.h"

/* A JSON object of strings, or a list of them, as collsim writes JSON. */
static void print_strings(FILE *out, json_object *value)
{
    bool object = json_object_get_type(value) == json_type_object;
    fputc(object ? '{' : '[', out);
    int n = 0;
    if (object) {
        json_object_object_foreach(value, key, item) {
            fputs(n++ ? ", " : "", out);
            json_print_string(out, key);
            fputs(": ", out);
            json_print_string(out, json_object_get_string(item));
        }
    } else
        for (size_t i = 0; i < json_object_array_length(value); i++) {
            fputs(n++ ? ", " : "", out);
            json_print_string(out, json_object_get_string(json_object_array_get_idx(value, i)));
        }
    fputc(object ? '}' : ']', out);
}

static void print_json(const merged *m, FILE *out)
{
    fprintf(out, "{\"collsim\": \"%s\", \"sweep\": ", PACKAGE_VERSION);
    json_print_string(out, m->name);
    fputs(", \"scenario\": ", out);
    json_print_string(out, m->base);
    fputs(", \"axes\": [", out);
    for (int a = 0; a < m->axis_count; a++) {
        fputs(a ? ", " : "", out);
        json_print_string(out, m->axes[a]);
    }
    fputs("],\n \"axis_points\": [", out);
    for (int v = 0; v < m->axis_point_count; v++) {
        const merged_axis_point *p = &m->axis_points[v];
        fprintf(out, "%s\n{\"axes\": ", v ? "," : "");
        print_strings(out, p->axes);
        fputs(", \"points\": ", out);
        print_strings(out, json_object_object_get(p->object, "points"));
        fputs(", \"report\":\n", out);
        report_print(&p->report, FORMAT_JSON, out);
        fputc('}', out);
    }
    fputs("\n]}\n", out);
}

static void print_table(const merged *m, FILE *out)
{
    int points = 0;
    for (int v = 0; v < m->axis_point_count; v++) points += m->axis_points[v].point_count;
    fprintf(out, "# collsim %s  sweep %s of scenario %s: %d axis point%s, %d simulation%s\n", PACKAGE_VERSION, m->name,
            m->base, m->axis_point_count, m->axis_point_count == 1 ? "" : "s", points, points == 1 ? "" : "s");
    for (int v = 0; v < m->axis_point_count; v++) {
        fprintf(out, "#\n# axis point %d of %d: %s\n", v + 1, m->axis_point_count, m->axis_points[v].label);
        report_print_table(&m->axis_points[v].report, out);
    }
}

/* Axis point P's value of axis KEY as a CSV field (empty when it keeps the base's). */
static void print_axis_value(FILE *out, const merged_axis_point *p, const char *key)
{
    json_object *value;
    if (json_object_object_get_ex(p->axes, key, &value)) csv_text(out, json_object_get_string(value));
}

/* One CSV table (BLOCK, or the results when BLOCK is CSV_BLOCK_COUNT) of every axis point, the axis columns first. */
static void print_csv(const merged *m, int block, FILE *out)
{
    for (int v = 0; v < m->axis_point_count; v++) {
        char *text = NULL;
        size_t size = 0;
        FILE *table = open_memstream(&text, &size);
        if (block == CSV_BLOCK_COUNT) report_print(&m->axis_points[v].report, FORMAT_CSV, table);
        else report_print_csv_block(&m->axis_points[v].report, (csv_block)block, table);
        fclose(table);
        char *line = text;
        for (int n = 0; line && *line; n++) {
            char *end = strchr(line, '\n');
            if (end) *end = '\0';
            if (n > 0 || v == 0) {
                for (int a = 0; a < m->axis_count; a++) {
                    if (a) fputc(',', out);
                    if (n == 0) csv_text(out, m->axes[a]);
                    else print_axis_value(out, &m->axis_points[v], m->axes[a]);
                }
                fprintf(out, "%s%s\n", m->axis_count ? "," : "", line);
            }
            line = end ? end + 1 : NULL;
        }
        free(text);
    }
}

static void print_merged(const merged *m, report_format format, FILE *out)
{
    if (format == FORMAT_JSON) print_json(m, out);
    else if (format == FORMAT_CSV) print_csv(m, CSV_BLOCK_COUNT, out);
    else if (format == FORMAT_NCCL_TESTS) /* each axis point's series, each an nccl-tests log */
        for (int v = 0; v < m->axis_point_count; v++) {
            fprintf(out, "# collsim sweep %s, axis point %s\n", m->name, m->axis_points[v].label);
            report_print(&m->axis_points[v].report, FORMAT_NCCL_TESTS, out);
        }
    else print_table(m, out);
}

/* As report_write: the main output, and with CSV to a replaced file the
 * eta, terms, crossovers and hot_links tables beside it. */
static bool write_merged(const merged *m, const merge_output *o, diag *d)
{
    output_file main_file, blocks[CSV_LINKS];
    const char *path = o->output ? o->output : "-";
    if (!output_open(&main_file, path, d)) return false;
    int opened = 0;
    bool ok = true;
    while (ok && o->format == FORMAT_CSV && output_is_replaced(&main_file) && opened < CSV_LINKS) {
        char block_path[PATH_MAX + 32];
        size_t stem = strlen(path);
        if (stem >= 4 && strcmp(path + stem - 4, ".csv") == 0) stem -= 4;
        snprintf(block_path, sizeof block_path, "%.*s.%s.csv", (int)stem, path, report_csv_block_name((csv_block)opened));
        ok = output_open(&blocks[opened], block_path, d);
        opened += ok;
    }
    if (ok) {
        print_merged(m, o->format, main_file.stream);
        for (int b = 0; b < opened; b++) print_csv(m, b, blocks[b].stream);
    }
    for (int b = 0; b < opened; b++) ok = ok ? output_commit(&blocks[b], d) : (output_discard(&blocks[b]), false);
    if (ok) return output_commit(&main_file, d);
    output_discard(&main_file);
    return false;
}

/* Every axis point's rows, η and crossovers in one report, axis point K's
 * case C numbered after the cases of the axis points before it, its panels
 * titled with its axis values. */
static bool plot_merged(const merged *m, const char *path, diag *d)
{
    report all = {.scenario = m->name, .simulated = true, .eta = "per axis point"};
    const merged_axis_point *first = &m->axis_points[0];
    all.platform_name = first->report.platform_name;
    all.platform_kind = first->report.platform_kind;
    all.model = first->report.model;
    const char **notes = NULL;
    int offset = 0;
    for (int v = 0; v < m->axis_point_count; v++) {
        const report *r = &m->axis_points[v].report;
        int cases = 0;
        for (int i = 0; i < r->row_count; i++) {
            result_row row = r->rows[i];
            row.links = NULL;
            row.case_index += offset;
            row.block_first += offset;
            if (r->rows[i].case_index + 1 > cases) cases = r->rows[i].case_index + 1;
            report_add(&all, &row);
        }
        for (int i = 0; i < r->eta_count; i++) {
            eta_row e = r->etas[i];
            e.case_index += offset;
            report_add_eta(&all, &e);
        }
        notes = realloc(notes, sizeof *notes * (size_t)(offset + cases + 1));
        for (int c = 0; c < cases; c++) notes[offset + c] = m->axis_points[v].label;
        offset += cases;
    }
    all.case_notes = notes;
    all.case_note_count = offset;
    bool ok = report_plot(&all, path, d);
    free(notes);
    report_free(&all);
    return ok;
}

int merge_render(const merged *m, const merge_output *o)
{
    diag d = {0};
    if (write_merged(m, o, &d) && (!o->plot || plot_merged(m, o->plot, &d))) return 0;
    diag_print(&d);
    return 2;
}
