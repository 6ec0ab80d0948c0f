/* merge.c — per axis point, a report rebuilt from its points' JSON as
 * `collsim run` would have made it (merge.h); then the sweep's renderings.
 *
 * Invariants:
 *   1. An axis point's report is made in run's order: case by case, each
 *      case's rows by algorithm then size (the order of its points), its
 *      crossovers after its rows, η fitted last (analysis_fit_eta).
 *   2. Nothing is written unless every point of the manifest is complete. */
#include "sweep/merge.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eta_fits.h"
#include "model/model.h"
#include "report/read_back.h"
#include "scenario/scenario.h"
#include "sweep/merge_render.h"

static json_object *member(json_object *object, const char *key, json_type type)
{
    json_object *value;
    if (!object || !json_object_object_get_ex(object, key, &value)) return NULL;
    json_type found = json_object_get_type(value);
    return found == type || (type == json_type_double && found == json_type_int) ? value : NULL;
}

static const char *text_of(json_object *object, const char *key)
{
    json_object *value = member(object, key, json_type_string);
    return value ? json_object_get_string(value) : "";
}

/* Case C's crossovers from the forms of its algorithms at its largest size. */
static void add_crossovers(report *r, int c, json_object *const *forms, int algorithms)
{
    for (int a = 0; a < algorithms; a++)
        for (int b = a + 1; b < algorithms; b++) {
            if (!forms[a] || !forms[b]) continue;
            crossover_row x = {.case_index = c};
            double ia = json_object_get_double(member(forms[a], "intercept_s", json_type_double));
            double sa = json_object_get_double(member(forms[a], "slope_s_per_byte", json_type_double));
            double ib = json_object_get_double(member(forms[b], "intercept_s", json_type_double));
            double sb = json_object_get_double(member(forms[b], "slope_s_per_byte", json_type_double));
            if (!model_forms_cross(ia, sa, ib, sb, &x.size_bytes)) continue;
            snprintf(x.a, sizeof x.a, "%s", text_of(forms[a], "algorithm"));
            snprintf(x.b, sizeof x.b, "%s", text_of(forms[b], "algorithm"));
            report_add_crossover(r, &x);
        }
}

/* Whether point POINT (parsed) holds what an axis point's report needs. */
static bool point_well_formed(json_object *point)
{
    json_object *results = member(point, "results", json_type_array), *forms = member(point, "forms", json_type_array);
    return member(point, "case", json_type_int) && member(point, "algorithm", json_type_int) && results && forms &&
           json_object_array_length(results) == json_object_array_length(forms) && json_object_array_length(results) > 0 &&
           member(point, "platform", json_type_object) && member(point, "simulated", json_type_boolean);
}

/* Axis point P's report from its COUNT points (parsed, in run order); false with WHY. */
static bool build_report(json_object *const *points, int count, report *r, char *why, int why_size)
{
    json_object *head = points[0], *platform = member(head, "platform", json_type_object);
    *r = (report){.scenario = text_of(head, "scenario"), .model = text_of(head, "model"),
                  .platform_name = text_of(platform, "name"), .platform_kind = text_of(platform, "kind"),
                  .platform_ranks = json_object_get_int(member(platform, "ranks", json_type_int)),
                  .simulated = json_object_get_boolean(member(head, "simulated", json_type_boolean)),
                  .eta = text_of(head, "eta_profile")};
    int cases = 0;
    for (int i = 0; i < count; i++) {
        int first = json_object_get_int(member(points[i], "case", json_type_int));
        int n = (int)json_object_array_length(member(points[i], "results", json_type_array));
        if (first + n > cases) cases = first + n;
    }
    for (int c = 0; c < cases; c++) {
        json_object *forms[SCENARIO_MAX_ALGORITHMS] = {NULL};
        int algorithms = 0;
        for (int i = 0; i < count; i++) {
            int first = json_object_get_int(member(points[i], "case", json_type_int));
            int a = json_object_get_int(member(points[i], "algorithm", json_type_int));
            json_object *results = member(points[i], "results", json_type_array);
            if (c < first || c >= first + (int)json_object_array_length(results)) continue;
            if (a < 0 || a >= SCENARIO_MAX_ALGORITHMS) {
                snprintf(why, (size_t)why_size, "algorithm %d is out of range", a);
                return false;
            }
            result_row row;
            if (!report_read_result(json_object_array_get_idx(results, (size_t)(c - first)), r->simulated, &row, why,
                                    why_size))
                return false;
            report_add(r, &row);
            json_object *form = json_object_array_get_idx(member(points[i], "forms", json_type_array), (size_t)(c - first));
            json_object *largest = member(form, "largest", json_type_boolean);
            if (largest && json_object_get_boolean(largest)) forms[a] = form;
            if (a + 1 > algorithms) algorithms = a + 1;
        }
        add_crossovers(r, c, forms, algorithms);
    }
    analysis_fit_eta(r);
    return true;
}

/* Every point of the manifest's axis points looked up and parsed into
 * M; the missing and failed ones named on standard error.  Exit status. */
static int gather(merged *m, merge_lookup lookup, void *context)
{
    int missing = 0;
    for (int v = 0; v < m->axis_point_count; v++) {
        merged_axis_point *p = &m->axis_points[v];
        json_object *ids = member(p->object, "points", json_type_array);
        p->point_count = ids ? (int)json_object_array_length(ids) : 0;
        p->points = calloc((size_t)p->point_count + 1, sizeof *p->points);
        for (int i = 0; i < p->point_count; i++) {
            const char *id = json_object_get_string(json_object_array_get_idx(ids, (size_t)i));
            char why[256] = "missing";
            char *text = lookup(context, id, why, sizeof why);
            p->points[i] = text ? json_tokener_parse(text) : NULL;
            free(text);
            if (p->points[i] && point_well_formed(p->points[i])) continue;
            if (text) snprintf(why, sizeof why, "not a complete point file");
            fprintf(stderr, "collsim merge: point %s of axis point %d (%s) is %s\n", id, v + 1, p->label, why);
            missing++;
        }
    }
    if (missing) fprintf(stderr, "collsim merge: %d of the sweep's points are missing or failed: nothing written; run "
                         "the sweep again (it does only what is missing), then merge\n", missing);
    return missing ? 1 : 0;
}

/* "key = value, ..." of axis point OBJECT's axes. */
static char *label_of(json_object *axes)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int n = 0;
    json_object_object_foreach(axes, key, value) fprintf(out, "%s%s = %s", n++ ? ", " : "", key, json_object_get_string(value));
    fclose(out);
    return text;
}

static void merged_free(merged *m)
{
    for (int v = 0; v < m->axis_point_count; v++) {
        merged_axis_point *p = &m->axis_points[v];
        for (int i = 0; i < p->point_count; i++) json_object_put(p->points[i]);
        free(p->points);
        free(p->label);
        report_free(&p->report);
    }
    free(m->axis_points);
    json_object_put(m->manifest);
}

int merge_sweep(const char *manifest, const char *where, merge_lookup lookup, void *context, const merge_output *o)
{
    merged m = {.manifest = json_tokener_parse(manifest)};
    json_object *axes = member(m.manifest, "axes", json_type_array);
    json_object *points = member(m.manifest, "axis_points", json_type_array);
    if (!member(m.manifest, "collsim_sweep", json_type_string) || !axes || !points) {
        fprintf(stderr, "%s: not a collsim sweep manifest (written by collsim sweep --out)\n", where);
        merged_free(&m);
        return 2;
    }
    m.name = text_of(m.manifest, "collsim_sweep");
    m.base = text_of(m.manifest, "scenario");
    m.axis_count = (int)json_object_array_length(axes);
    for (int a = 0; a < m.axis_count && a < MERGED_MAX_AXES; a++)
        m.axes[a] = json_object_get_string(json_object_array_get_idx(axes, (size_t)a));
    m.axis_point_count = (int)json_object_array_length(points);
    m.axis_points = calloc((size_t)m.axis_point_count + 1, sizeof *m.axis_points);
    for (int v = 0; v < m.axis_point_count; v++) {
        m.axis_points[v].object = json_object_array_get_idx(points, (size_t)v);
        m.axis_points[v].axes = member(m.axis_points[v].object, "axes", json_type_object);
        m.axis_points[v].label = label_of(m.axis_points[v].axes);
    }
    int status = gather(&m, lookup, context);
    for (int v = 0; status == 0 && v < m.axis_point_count; v++) {
        merged_axis_point *p = &m.axis_points[v];
        char why[256] = "";
        if (p->point_count == 0 || !build_report(p->points, p->point_count, &p->report, why, sizeof why)) {
            fprintf(stderr, "%s: axis point %d (%s): a point's results cannot be read: %s\n", where, v + 1, p->label,
                    p->point_count ? why : "it lists no points");
            status = 2;
        }
    }
    if (status == 0) status = merge_render(&m, o);
    merged_free(&m);
    return status;
}
