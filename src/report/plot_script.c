/* plot_script.c — the gnuplot script and data of a report's plot: per
 * case, two panels, the time and the bus bandwidth (what nccl-tests users
 * compare).  A case with several sizes is drawn against message size (time
 * log-log), the analytic prediction as a line and the simulated values as
 * points per algorithm, with the fitted η; a case with one size as bars, its
 * algorithms side by side, predicted beside simulated (docs/output.md,
 * "Plot").  Every panel's range leaves a margin around its data and its
 * legend sits below it, so that no point is clipped or covered. */
#include "report/plot_script.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

#define PANEL_WIDTH 640
#define PANEL_HEIGHT 460
/* "hierarchical_pipelined inc/ring group 12345": a name and its tiers' (32 bytes each) and group */
#define SERIES_NAME_SIZE 128

/* TEXT as a gnuplot single-quoted string; with ENHANCED, the characters
 * enhanced text mode would interpret (sub/superscripts, braces, ...) are
 * escaped so that "recursive_doubling" prints as it is spelled. */
static void gnuplot_string(FILE *out, const char *text, bool enhanced)
{
    fputc('\'', out);
    for (const char *p = text; *p; p++) {
        if (*p == '\'') fputs("''", out);
        else if (enhanced && strchr("_^{}@&~\\", *p)) fprintf(out, "\\%c", *p);
        else fputc(*p, out);
    }
    fputc('\'', out);
}

static bool same_series(const result_row *a, const result_row *b)
{
    return a->case_index == b->case_index && a->group == b->group && strcmp(a->algorithm, b->algorithm) == 0;
}

static int by_size(const void *a, const void *b)
{
    double x = (*(const result_row *const *)a)->size_bytes, y = (*(const result_row *const *)b)->size_bytes;
    return (x > y) - (x < y);
}

static double positive_or_nan(double value)
{
    return isfinite(value) && value > 0 ? value : NAN;
}

/* One curve family: the rows of a (case, algorithm, group), by size. */
typedef struct series {
    const result_row **rows;
    int count;
    bool predicted, simulated, measured; /* whether there is anything to draw */
} series;

static void collect_series(const report *r, int first, series *s)
{
    s->count = 0;
    s->predicted = s->simulated = s->measured = false;
    for (int i = first; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (!same_series(row, &r->rows[first])) continue;
        s->rows[s->count++] = row;
        s->predicted |= !isnan(positive_or_nan(row->predicted_s));
        s->simulated |= row->simulated && !isnan(positive_or_nan(row->time_s));
        s->measured |= row->measured_s > 0;
    }
    qsort(s->rows, (size_t)s->count, sizeof *s->rows, by_size);
}

static bool opens_series(const report *r, int i)
{
    for (int j = 0; j < i; j++)
        if (same_series(&r->rows[j], &r->rows[i])) return false;
    return true;
}

static bool opens_case(const report *r, int i)
{
    for (int j = 0; j < i; j++)
        if (r->rows[j].case_index == r->rows[i].case_index) return false;
    return true;
}

/* What the script and data writers share while they walk the rows. */
typedef struct plot_writer {
    FILE *script, *data;
    const char *data_path;
    int block;                 /* data blocks written so far (gnuplot `index`) */
    series s;
} plot_writer;

/* VALUE × SCALE, or gnuplot's missing-value mark when there is nothing to draw. */
static void write_value(FILE *data, double value, double scale)
{
    if (isnan(positive_or_nan(value))) fprintf(data, " ?");
    else fprintf(data, " %.17g", value * scale);
}

/* One data block per series: size, predicted µs, simulated µs, predicted
 * busbw GB/s, simulated busbw GB/s (01 App. D: C(N)·M/t), measured µs and
 * measured busbw GB/s (--measured). */
static void write_series_data(FILE *data, const series *s)
{
    for (int k = 0; k < s->count; k++) {
        const result_row *row = s->rows[k];
        double factor = primitive_busbw_factor(row->prim, row->ranks);
        double simulated = row->simulated ? row->time_s : NAN;
        fprintf(data, "%.17g", row->size_bytes);
        write_value(data, row->predicted_s, 1e6);
        write_value(data, simulated, 1e6);
        write_value(data, row->predicted_s > 0 ? factor * row->size_bytes / row->predicted_s : NAN, 1e-9);
        write_value(data, simulated > 0 ? factor * row->size_bytes / simulated : NAN, 1e-9);
        write_value(data, row->measured_s, 1e6);
        write_value(data, row->measured_s > 0 ? factor * row->size_bytes / row->measured_s : NAN, 1e-9);
        fputc('\n', data);
    }
    fprintf(data, "\n\n");
}

/* How a legend or a bar names ROW's series: "hierarchical inc/ring group 2". */
static void series_name(const result_row *row, char *out, size_t size)
{
    int used = snprintf(out, size, "%s", row->algorithm);
    if (row->inner[0] && used < (int)size) used += snprintf(out + used, size - (size_t)used, " %s/%s", row->inner, row->outer);
    if (row->group && used < (int)size) used += snprintf(out + used, size - (size_t)used, " group %d", row->group);
    if (row->tuned && used < (int)size) snprintf(out + used, size - (size_t)used, " (auto)");
}

/* ", 'DATA' index N using 1:COLUMN with STYLE lc COLOR title '<alg> WHAT'" (or
 * "plot ..." for the first); an algorithm's line and points share COLOR */
static void write_curve(plot_writer *w, const result_row *row, int *curves, int column, const char *style, int color,
                        const char *what)
{
    fprintf(w->script, "%s ", (*curves)++ ? ", \\\n    " : "plot");
    gnuplot_string(w->script, w->data_path, false);
    fprintf(w->script, " index %d using 1:%d with %s lc %d title ", w->block, column, style, color);
    char name[SERIES_NAME_SIZE], title[SERIES_NAME_SIZE + 16];
    series_name(row, name, sizeof name);
    snprintf(title, sizeof title, "%s %s", name, what);
    gnuplot_string(w->script, title, true);
}

/* The η labels of case CASE_INDEX: one per whole-collective fit that is a result. */
static void write_eta_labels(FILE *script, const report *r, int case_index)
{
    int line = 0;
    for (int i = 0; i < r->eta_count; i++) {
        const eta_row *e = &r->etas[i];
        if (e->case_index != case_index || e->tier[0] || e->note[0] || !isfinite(e->eta_alpha) || !isfinite(e->eta_beta))
            continue;
        fprintf(script, "set label %d ", ++line);
        gnuplot_string(script, e->algorithm, true); /* escaped; the η_α that follows keeps its subscript */
        fprintf(script, " . ': η_α = %.3f, η_β = %.3f' at graph 0.03, graph %.2f front\n", e->eta_alpha, e->eta_beta,
                0.94 - 0.06 * (line - 1));
    }
}

/* Size ticks people read: KiB/MiB/GiB when the sizes are binary, KB/MB/GB
 * (powers of ten, the seed's convention) otherwise; at most about 8 ticks. */
static void write_size_ticks(FILE *script, const report *r, int case_index)
{
    double low = INFINITY, high = 0;
    bool binary = true, any_not_decimal = false;
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != case_index || !(row->size_bytes > 0)) continue;
        low = fmin(low, row->size_bytes);
        high = fmax(high, row->size_bytes);
        if (row->size_bytes >= 1024 && fmod(row->size_bytes, 1024) != 0) binary = false;
        if (fmod(row->size_bytes, 1000) != 0) any_not_decimal = true;
    }
    if (!(high > 0)) return;
    binary = binary && any_not_decimal;
    static const char *const binary_units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    static const char *const decimal_units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    double base = binary ? 2 : 10, per_unit = binary ? 10 : 3; /* ticks at base^k; a unit is base^per_unit */
    int first = (int)floor(log(low) / log(base) + 1e-9), last = (int)ceil(log(high) / log(base) - 1e-9);
    if (last <= first) last = first + 1;
    int step = (last - first + 7) / 8;
    if (step < 1) step = 1;
    /* two decades or less of decimal sizes: 1, 2 and 5 of each, so that the axis has ticks to read */
    bool dense = !binary && last - first <= 2;
    static const double mantissas[] = {1, 2, 5};
    fprintf(script, "set xtics (");
    for (int k = first - (first % step + step) % step - (dense ? 1 : 0), n = 0; k <= last; k += step)
        for (int m = 0; m < (dense ? 3 : 1); m++) {
            double value = mantissas[m] * pow(base, k);
            if (k < 0 || (dense && (value < low / 1.5 || value > high * 1.5))) continue;
            int unit = (int)(k / per_unit);
            if (unit > 5) unit = 5;
            double shown = value / pow(base, unit * per_unit);
            fprintf(script, "%s'%g %s' %.17g", n++ ? ", " : "", shown, binary ? binary_units[unit] : decimal_units[unit], value);
        }
    fprintf(script, ")\n");
}

/* A log axis spanning less than two decades between LOW and HIGH gets 1, 2
 * and 5 of each decade as ticks (1, 1.5, 2, 3, 5 and 7 within one decade):
 * gnuplot labels only whole decades. */
static void write_log_ticks(FILE *script, const char *axis, double low, double high)
{
    if (!(low > 0) || high / low >= 100) return;
    static const double mantissas[] = {1, 2, 5}, finer[] = {1, 1.5, 2, 3, 5, 7};
    bool fine = high / low < 10; /* less than a decade: about six ticks rather than two */
    fprintf(script, "set %stics (", axis);
    for (int k = (int)floor(log10(low)) - 1, n = 0; k <= (int)ceil(log10(high)); k++)
        for (int m = 0; m < (fine ? 6 : 3); m++) {
            double value = (fine ? finer[m] : mantissas[m]) * pow(10, k);
            if (value >= low && value <= high) fprintf(script, "%s'%g' %.17g", n++ ? ", " : "", value, value);
        }
    fprintf(script, ")\n");
}

/* The panel title: "case K: PRIMITIVE, N ranks on PLATFORM: WHAT", written
 * piece by piece (no buffer to cut a long platform name). */
static void write_panel_title(FILE *script, const report *r, const result_row *opener, const char *what)
{
    fprintf(script, "set title '");
    fprintf(script, "case %d: %s, %d ranks%s on ' . ", opener->case_index, primitive_name(opener->prim), opener->ranks,
            opener->groups > 1 ? " per group" : "");
    gnuplot_string(script, opener->platform[0] ? opener->platform : (r->platform_name ? r->platform_name : ""), true);
    if (opener->case_index < r->case_note_count) { /* a sweep's axis values */
        fprintf(script, " . ', ' . ");
        gnuplot_string(script, r->case_notes[opener->case_index], true);
    }
    fprintf(script, " . ': %s'\n", what);
}

/* The busbw of ROW at TIME_S (01 App. D: C(N)·M/t), NaN when there is none. */
static double busbw_at(const result_row *row, double time_s)
{
    return time_s > 0 ? primitive_busbw_factor(row->prim, row->ranks) * row->size_bytes / time_s : NAN;
}

/* The least and greatest positive values a case's panel draws: its rows'
 * times (BUSBW false, µs) or bus bandwidths (GB/s), predicted, simulated
 * and measured. */
typedef struct extent {
    double low, high;
} extent;

static extent case_extent(const report *r, int case_index, bool busbw)
{
    extent e = {INFINITY, 0};
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != case_index) continue;
        const double times[3] = {row->predicted_s, row->simulated ? row->time_s : NAN,
                                 row->measured_s > 0 ? row->measured_s : NAN};
        for (int k = 0; k < 3; k++) {
            double value = busbw ? busbw_at(row, times[k]) * 1e-9 : times[k] * 1e6;
            if (!(isfinite(value) && value > 0)) continue;
            e.low = fmin(e.low, value);
            e.high = fmax(e.high, value);
        }
    }
    return e;
}

/* Whether every row of the case that rows[FIRST] opens has the same size: drawn as bars. */
static bool single_size(const report *r, int first)
{
    for (int i = first; i < r->row_count; i++)
        if (r->rows[i].case_index == r->rows[first].case_index && r->rows[i].size_bytes != r->rows[first].size_bytes)
            return false;
    return true;
}

/* The x range of a size axis: the case's sizes with a margin (log scale). */
static void write_size_range(FILE *script, const report *r, int case_index)
{
    double low = INFINITY, high = 0;
    for (int i = 0; i < r->row_count; i++)
        if (r->rows[i].case_index == case_index && r->rows[i].size_bytes > 0) {
            low = fmin(low, r->rows[i].size_bytes);
            high = fmax(high, r->rows[i].size_bytes);
        }
    if (high > 0) fprintf(script, "set xrange [%.17g:%.17g]\n", low / 1.5, high * 1.5);
}

/* The y range of a panel: a margin around its data (a log axis by factors,
 * a linear one from 0 with room above the highest for a bar's label). */
static void write_value_range(FILE *script, extent e, bool logarithmic)
{
    if (!(e.high > 0)) return;
    if (logarithmic) fprintf(script, "set yrange [%.17g:%.17g]\n", e.low / 1.6, e.high * 1.6);
    else fprintf(script, "set yrange [0:%.17g]\n", e.high * 1.18);
}

/* The two line panels of the case that rows[first] opens: time, then busbw,
 * against message size. */
static void write_line_panels(plot_writer *w, const report *r, int first)
{
    const result_row *opener = &r->rows[first];
    static const struct {
        const char *what, *ylabel, *logscale;
        int predicted_column, simulated_column, measured_column;
    } panels[2] = {{"time", "time (µs)", "set logscale xy\nset format y '%g'\n", 2, 3, 6},
                   {"bus bandwidth", "busbw (GB/s)", "unset logscale y\nset logscale x\nset format y '%g'\n", 4, 5, 7}};
    for (int p = 0; p < 2; p++) {
        fprintf(w->script, "unset label\nset autoscale\n%sset ylabel '%s'\nset key below horizontal\n", panels[p].logscale,
                panels[p].ylabel);
        write_panel_title(w->script, r, opener, panels[p].what);
        write_size_ticks(w->script, r, opener->case_index);
        write_size_range(w->script, r, opener->case_index);
        extent e = case_extent(r, opener->case_index, p == 1);
        write_value_range(w->script, e, p == 0);
        if (p == 0) write_log_ticks(w->script, "y", e.low / 1.6, e.high * 1.6);
        else fprintf(w->script, "set ytics autofreq\n");
        if (p == 0) write_eta_labels(w->script, r, opener->case_index);
        int curves = 0, colors = 0, block = w->block;
        for (int i = first; i < r->row_count; i++) {
            if (r->rows[i].case_index != opener->case_index || !opens_series(r, i)) continue;
            collect_series(r, i, &w->s);
            if (p == 0) write_series_data(w->data, &w->s);
            colors++;
            /* one size has no line to draw: its prediction is a marker */
            const char *predicted_style = w->s.count > 1 ? "lines lw 2" : "points pt 6 ps 1.6";
            if (w->s.predicted) write_curve(w, &r->rows[i], &curves, panels[p].predicted_column, predicted_style, colors, "predicted");
            if (w->s.simulated) write_curve(w, &r->rows[i], &curves, panels[p].simulated_column, "points pt 7 ps 0.8", colors, "simulated");
            if (w->s.measured) write_curve(w, &r->rows[i], &curves, panels[p].measured_column, "points pt 4 ps 1.2", colors, "measured");
            w->block++;
        }
        if (p == 0) w->block = block; /* the busbw panel reads the same blocks */
        /* nothing measured or predicted: an empty panel rather than a gnuplot error */
        if (!curves) fprintf(w->script, "set xrange [1:10]\nset yrange [1:10]\nplot 1/0 notitle\nset autoscale");
        fputc('\n', w->script);
    }
}

/* The bars' data block of the case that rows[first] opens: one line per
 * series (its name, then predicted, simulated and measured time in µs and
 * busbw in GB/s, '?' where there is none). */
static void write_bar_data(plot_writer *w, const report *r, int first, bool *simulated, bool *measured)
{
    for (int i = first; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != r->rows[first].case_index || !opens_series(r, i)) continue;
        char name[SERIES_NAME_SIZE];
        series_name(row, name, sizeof name);
        fputc('"', w->data);
        for (const char *c = name; *c; c++) fputc(*c == '"' ? '\'' : *c, w->data);
        fputc('"', w->data);
        double sim = row->simulated ? row->time_s : NAN, meas = row->measured_s > 0 ? row->measured_s : NAN;
        write_value(w->data, row->predicted_s, 1e6);
        write_value(w->data, sim, 1e6);
        write_value(w->data, meas, 1e6);
        write_value(w->data, busbw_at(row, row->predicted_s), 1e-9);
        write_value(w->data, busbw_at(row, sim), 1e-9);
        write_value(w->data, busbw_at(row, meas), 1e-9);
        fputc('\n', w->data);
        *simulated |= row->simulated;
        *measured |= row->measured_s > 0;
    }
    fprintf(w->data, "\n\n");
}

/* The two bar panels of a case with one size (rows[first] opens it): its
 * algorithms side by side, predicted beside simulated (and measured), each
 * bar labelled with its value. */
static void write_bar_panels(plot_writer *w, const report *r, int first)
{
    const result_row *opener = &r->rows[first];
    bool simulated = false, measured = false;
    write_bar_data(w, r, first, &simulated, &measured);
    static const char *const kinds[3] = {"predicted", "simulated", "measured"};
    bool shown[3] = {true, simulated, measured};
    int columns = 1 + simulated + measured;
    char size[32];
    units_format(opener->size_bytes, UNIT_SIZE, size, sizeof size);
    for (int p = 0; p < 2; p++) {
        if (!(case_extent(r, opener->case_index, p == 1).high > 0)) { /* nothing to draw: an empty panel */
            write_panel_title(w->script, r, opener, p == 0 ? "time" : "bus bandwidth");
            fprintf(w->script, "set xrange [1:10]\nset yrange [1:10]\nplot 1/0 notitle\nset autoscale\n");
            continue;
        }
        fprintf(w->script, "unset label\nset autoscale\nunset logscale\nset format y '%%g'\nset xtics autofreq noenhanced\n"
                           "set key below horizontal\nset style data histograms\nset style histogram clustered gap 1\n"
                           "set style fill solid 0.8 border -1\nset xlabel 'algorithm, M = %s'\nset ylabel '%s'\n",
                size, p == 0 ? "time (µs)" : "busbw (GB/s)");
        write_panel_title(w->script, r, opener, p == 0 ? "time" : "bus bandwidth");
        write_value_range(w->script, case_extent(r, opener->case_index, p == 1), false);
        for (int k = 0, n = 0; k < 3; k++) {
            if (!shown[k]) continue;
            int column = 2 + k + 3 * p;
            fprintf(w->script, "%s ", n ? ", \\\n    " : "plot");
            gnuplot_string(w->script, w->data_path, false);
            fprintf(w->script, " index %d using %d%s lc %d title '%s'", w->block, column, n ? "" : ":xtic(1)", k + 1, kinds[k]);
            /* its value above each bar: bar j of C in a cluster sits at x + (j - (C-1)/2) / (C + 1) (gap 1) */
            fprintf(w->script, ", \\\n    '' index %d using ($0 + %.17g):%d:(sprintf('%%.4g', $%d)) with labels offset 0,0.7 "
                               "notitle",
                    w->block, (n - (columns - 1) / 2.0) / (columns + 1), column, column);
            n++;
        }
        fprintf(w->script, "\nset xlabel 'message size'\nset style data points\nset style fill empty\n");
    }
    w->block++;
}

static void write_panels(plot_writer *w, const report *r, int first)
{
    if (single_size(r, first)) write_bar_panels(w, r, first);
    else write_line_panels(w, r, first);
}

static void write_plot(plot_writer *w, const report *r, const char *terminal, const char *drawing)
{
    int cases = 0;
    for (int i = 0; i < r->row_count; i++) cases += opens_case(r, i);
    int rows = cases ? cases : 1;
    fprintf(w->script, "set encoding utf8\nset terminal ");
    fprintf(w->script, terminal, PANEL_WIDTH * 2, PANEL_HEIGHT * rows + 40);
    fprintf(w->script, "\nset output ");
    gnuplot_string(w->script, drawing, false);
    fprintf(w->script, "\nset datafile missing '?'\nset xlabel 'message size'\nset grid\nset border lw 1\n");
    /* the scenario's platform, unless its cases name their own (each panel's title names it) */
    bool one_platform = true;
    for (int i = 1; i < r->row_count; i++)
        if (strcmp(r->rows[i].platform, r->rows[0].platform) != 0) one_platform = false;
    const char *platform = !one_platform                            ? "per case"
                           : r->row_count && r->rows[0].platform[0] ? r->rows[0].platform
                           : r->platform_name                       ? r->platform_name
                                                                    : ""; /* rows without a name run on the scenario's */
    char title[320];
    snprintf(title, sizeof title, "collsim: scenario %s, platform %s, network model %s", r->scenario ? r->scenario : "",
             platform, r->model ? r->model : "");
    fprintf(w->script, "set multiplot layout %d,2 title ", rows);
    gnuplot_string(w->script, title, true);
    fputc('\n', w->script);
    w->s.rows = malloc(sizeof(const result_row *) * (size_t)(r->row_count + 1));
    for (int i = 0; i < r->row_count; i++)
        if (opens_case(r, i)) write_panels(w, r, i);
    if (!cases) fprintf(w->script, "plot 1/0 notitle\nplot 1/0 notitle\n");
    free(w->s.rows);
    fprintf(w->script, "unset multiplot\nunset output\n");
}
void plot_write_script(FILE *script, FILE *data, const char *data_path, const report *r, const char *terminal,
                       const char *drawing)
{
    plot_writer w = {.script = script, .data = data, .data_path = data_path};
    write_plot(&w, r, terminal, drawing);
}
