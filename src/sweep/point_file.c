/* point_file.c — point files and the manifest (point_file.h).
 *
 * A point file is complete when it ends in `"checksum": "H"}` followed by a
 * newline, H being the FNV-1a hash of every byte before `"checksum"`, and
 * names the point and this collsim: a file cut short, edited, or written
 * by another version is not a result, and a rerun simulates its point
 * again. */
#include "sweep/point_file.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/json_out.h"
#include "util/output_file.h"

static uint64_t hash_bytes(const char *text, size_t length)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < length; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* "axes": {"KEY": "VALUE", ...} of axis point P (only the axes it sets). */
static void print_axes(FILE *out, const sweep *w, const sweep_axis_point *p)
{
    fputs("\"axes\": {", out);
    for (int a = 0, n = 0; a < w->axis_count; a++) {
        if (!p->values[a]) continue;
        fputs(n++ ? ", " : "", out);
        json_print_string(out, w->axes[a].key);
        fputs(": ", out);
        json_print_string(out, p->values[a]);
    }
    fputc('}', out);
}

/* The text so far, closed with its checksum. */
static char *seal(FILE *out, char **text, size_t *size)
{
    fflush(out);
    uint64_t h = hash_bytes(*text, *size);
    fprintf(out, "\"checksum\": \"%016llx\"}\n", (unsigned long long)h);
    fclose(out);
    return *text;
}

char *point_text(const sweep *w, int p, const plan_member *members, const result_row *rows, int count)
{
    const sweep_point *t = &w->points[p];
    const sweep_axis_point *v = &w->axis_points[t->axis_point];
    const scenario *s = &v->scenario;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    fprintf(out, "{\"collsim_point\": \"%s\", \"collsim\": \"%s\", \"sweep\": ", t->id, PACKAGE_VERSION);
    json_print_string(out, w->name);
    fputs(",\n ", out);
    print_axes(out, w, v);
    fprintf(out, ",\n \"case\": %d, \"algorithm\": %d, \"size\": %d, \"scenario\": ", t->first, t->a, t->m);
    json_print_string(out, s->name);
    fputs(", \"model\": ", out);
    json_print_string(out, v->model);
    fputs(", \"simulated\": true, \"eta_profile\": ", out);
    json_print_string(out, v->eta_profile);
    fputs(",\n \"platform\": {\"name\": ", out);
    json_print_string(out, s->platform.name);
    fputs(", \"kind\": ", out);
    json_print_string(out, s->platform.kind);
    fprintf(out, ", \"ranks\": %d},\n \"results\": [", s->platform.ranks);
    report r = {.scenario = s->name, .model = v->model, .simulated = true};
    for (int i = 0; i < count; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        report_print_json_result(&r, &rows[i], out);
    }
    fputs("\n ],\n \"forms\": [", out);
    for (int i = 0; i < count; i++) { /* what the crossovers of each case need: 01 §5.3 */
        const scenario_case *k = &s->cases[members[i].c];
        double intercept, slope;
        model_linear_form(&members[i].pr, &intercept, &slope);
        fputs(i ? ", {\"algorithm\": " : "{\"algorithm\": ", out);
        json_print_string(out, k->algorithms[t->a]);
        fprintf(out, ", \"largest\": %s, \"intercept_s\": ", t->m == plan_largest_size(k) ? "true" : "false");
        json_print_number(out, intercept);
        fputs(", \"slope_s_per_byte\": ", out);
        json_print_number(out, slope);
        fputc('}', out);
    }
    fputs("],\n ", out);
    return seal(out, &text, &size);
}

char *manifest_text(const sweep *w)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    fprintf(out, "{\"collsim_sweep\": ");
    json_print_string(out, w->name);
    fprintf(out, ", \"collsim\": \"%s\", \"scenario\": ", PACKAGE_VERSION);
    json_print_string(out, w->base);
    fputs(",\n \"axes\": [", out);
    for (int a = 0; a < w->axis_count; a++) {
        fputs(a ? ", " : "", out);
        json_print_string(out, w->axes[a].key);
    }
    fputs("],\n \"axis_points\": [", out);
    for (int v = 0; v < w->axis_point_count; v++) {
        const sweep_axis_point *p = &w->axis_points[v];
        fputs(v ? ",\n  {" : "\n  {", out);
        print_axes(out, w, p);
        fputs(", \"points\": [", out);
        for (int i = 0; i < p->point_count; i++) fprintf(out, "%s\"%s\"", i ? ", " : "", w->points[p->first_point + i].id);
        fputs("]}", out);
    }
    fputs("\n ],\n ", out);
    return seal(out, &text, &size);
}

#define CHECKSUM_KEY "\"checksum\": \""

bool text_sealed(const char *text)
{
    const char *key = text ? strstr(text, CHECKSUM_KEY) : NULL;
    for (const char *next = key; next; next = strstr(next + 1, CHECKSUM_KEY)) key = next;
    char expected[64];
    if (key) snprintf(expected, sizeof expected, "%016llx\"}\n", (unsigned long long)hash_bytes(text, (size_t)(key - text)));
    return key && strcmp(key + strlen(CHECKSUM_KEY), expected) == 0;
}

bool point_text_complete(const char *text, const char *id, char *why, int why_size)
{
    if (!text_sealed(text)) {
        snprintf(why, (size_t)why_size, "incomplete or altered (its checksum does not hold)");
        return false;
    }
    json_object *root = json_tokener_parse(text), *value;
    const char *named = root && json_object_object_get_ex(root, "collsim_point", &value) ? json_object_get_string(value) : "";
    const char *version = root && json_object_object_get_ex(root, "collsim", &value) ? json_object_get_string(value) : "";
    bool ok = root && strcmp(named, id) == 0 && strcmp(version, PACKAGE_VERSION) == 0;
    if (!ok) snprintf(why, (size_t)why_size, "%s", !root ? "not JSON" : strcmp(named, id) != 0 ? "a result of another point"
                      : "written by another collsim version");
    json_object_put(root);
    return ok;
}

bool point_file_complete(const char *dir, const sweep *w, int p)
{
    char name[SWEEP_ID_SIZE + 8], why[128];
    snprintf(name, sizeof name, "%s.json", w->points[p].id);
    char *text = point_file_read(dir, name);
    bool ok = point_text_complete(text, w->points[p].id, why, sizeof why);
    if (ok) { /* the same simulation of the same axis point: not one whose id merely collides */
        json_object *root = json_tokener_parse(text), *axes, *value;
        const sweep_axis_point *v = &w->axis_points[w->points[p].axis_point];
        ok = json_object_object_get_ex(root, "axes", &axes);
        for (int a = 0; ok && a < w->axis_count; a++) {
            bool has = json_object_object_get_ex(axes, w->axes[a].key, &value);
            ok = v->values[a] ? has && strcmp(json_object_get_string(value), v->values[a]) == 0 : !has;
        }
        json_object_put(root);
    }
    free(text);
    return ok;
}

bool point_file_write(const char *dir, const char *name, const char *text, diag *d)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    output_file f;
    if (!output_open(&f, path, d)) return false;
    fputs(text, f.stream);
    return output_commit(&f, d);
}

char *point_file_read(const char *dir, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *in = fopen(path, "rb");
    if (!in) return NULL;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    char buffer[65536];
    size_t got;
    while ((got = fread(buffer, 1, sizeof buffer, in)) > 0) fwrite(buffer, 1, got, out);
    bool failed = ferror(in);
    fclose(in);
    fclose(out);
    if (!failed) return text;
    free(text);
    return NULL;
}
