/* plot.c — report_plot: per case, two panels against message size: the
 * time (log-log) and the bus bandwidth (what nccl-tests users compare), the
 * analytic prediction as a line (a marker for a single size) and the
 * simulated values as points per algorithm, with the fitted η (docs/output.md,
 * --plot).  The data, a gnuplot script and gnuplot's drawing go to a private
 * temporary directory; the drawing is then copied to PATH as
 * util/output_file.h says (a regular file replaced whole, a FIFO or device
 * written into, never replaced). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "util/interrupt.h"
#include "util/output_file.h"

extern char **environ;

#define PANEL_WIDTH 640
#define PANEL_HEIGHT 420

/* The files of one plot: the temporary directory and what goes in it. */
typedef struct plot_files {
    char directory[256];
    char data[300], script[300], errors[300], drawing[300];
} plot_files;

/* The formats gnuplot draws, by the output's extension. */
typedef struct plot_format {
    const char *extension;
    const char *terminal;      /* printf format taking width and height in pixels */
} plot_format;

static const plot_format plot_formats[] = {
    {".svg", "svg size %d,%d dynamic enhanced font 'sans,11' background rgb 'white'"},
    {".png", "pngcairo size %d,%d enhanced font 'sans,10' background rgb 'white'"},
    {".pdf", "pdfcairo size %d/100.0,%d/100.0 enhanced font 'sans,8' background rgb 'white'"},
};

static const plot_format *format_of(const char *path)
{
    size_t length = strlen(path);
    for (size_t i = 0; i < sizeof plot_formats / sizeof *plot_formats; i++) {
        size_t n = strlen(plot_formats[i].extension);
        if (length > n && strcmp(path + length - n, plot_formats[i].extension) == 0) return &plot_formats[i];
    }
    return NULL;
}

bool report_plot_format_known(const char *path)
{
    return format_of(path) != NULL;
}

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

/* ", 'DATA' index N using 1:COLUMN with STYLE lc COLOR title '<alg> WHAT'" (or
 * "plot ..." for the first); an algorithm's line and points share COLOR */
static void write_curve(plot_writer *w, const result_row *row, int *curves, int column, const char *style, int color,
                        const char *what)
{
    fprintf(w->script, "%s ", (*curves)++ ? ", \\\n    " : "plot");
    gnuplot_string(w->script, w->data_path, false);
    fprintf(w->script, " index %d using 1:%d with %s lc %d title ", w->block, column, style, color);
    char title[96];
    if (row->group) snprintf(title, sizeof title, "%s group %d %s", row->algorithm, row->group, what);
    else snprintf(title, sizeof title, "%s %s", row->algorithm, what);
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
    fprintf(script, "set xtics (");
    for (int k = first - (first % step + step) % step, n = 0; k <= last; k += step) {
        if (k < 0) continue;
        int unit = (int)(k / per_unit);
        if (unit > 5) unit = 5;
        double value = pow(base, k), shown = value / pow(base, unit * per_unit);
        fprintf(script, "%s'%g %s' %.17g", n++ ? ", " : "", shown, binary ? binary_units[unit] : decimal_units[unit], value);
    }
    fprintf(script, ")\n");
}

/* The panel title: "case K: PRIMITIVE, N ranks on PLATFORM: WHAT". */
static void write_panel_title(FILE *script, const report *r, const result_row *opener, const char *what)
{
    char title[256];
    snprintf(title, sizeof title, "case %d: %s, %d ranks%s on %s: %s", opener->case_index, primitive_name(opener->prim),
             opener->ranks, opener->groups > 1 ? " per group" : "",
             opener->platform[0] ? opener->platform : (r->platform_name ? r->platform_name : ""), what);
    fprintf(script, "set title ");
    gnuplot_string(script, title, true);
    fputc('\n', script);
}

/* The two panels of the case that rows[first] opens: time, then busbw. */
static void write_panels(plot_writer *w, const report *r, int first)
{
    const result_row *opener = &r->rows[first];
    static const struct {
        const char *what, *ylabel, *logscale;
        int predicted_column, simulated_column, measured_column;
    } panels[2] = {{"time", "time (µs)", "set logscale xy\nset format y '%g'\n", 2, 3, 6},
                   {"bus bandwidth", "busbw (GB/s)", "unset logscale y\nset logscale x\nset format y '%g'\nset yrange [0:*]\n", 4, 5, 7}};
    for (int p = 0; p < 2; p++) {
        fprintf(w->script, "unset label\nset autoscale\n%sset ylabel '%s'\n", panels[p].logscale, panels[p].ylabel);
        fprintf(w->script, "set key %s\n", p == 0 ? "bottom right" : "top left");
        write_panel_title(w->script, r, opener, panels[p].what);
        write_size_ticks(w->script, r, opener->case_index);
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

static void write_plot(plot_writer *w, const report *r, const plot_format *format, const char *drawing)
{
    int cases = 0;
    for (int i = 0; i < r->row_count; i++) cases += opens_case(r, i);
    int rows = cases ? cases : 1;
    fprintf(w->script, "set encoding utf8\nset terminal ");
    fprintf(w->script, format->terminal, PANEL_WIDTH * 2, PANEL_HEIGHT * rows + 40);
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

/* First line of FILE (gnuplot's complaint), without the newline. */
static void first_line(const char *file, char *line, int size)
{
    line[0] = '\0';
    FILE *in = fopen(file, "r");
    if (!in) return;
    while (fgets(line, size, in) && strspn(line, " \t\r\n") == strlen(line)) {
    }
    fclose(in);
    line[strcspn(line, "\r\n")] = '\0';
}

static bool run_gnuplot(const plot_files *f, const char *path, diag *d)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, f->errors, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    char *argv[] = {"gnuplot", (char *)f->script, NULL};
    posix_spawnattr_t attributes; /* gnuplot starts with collsim's interrupt signals back to the defaults */
    posix_spawnattr_init(&attributes);
    sigset_t none, interrupts, saved;
    sigemptyset(&none);
    interrupt_signals(&interrupts);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &interrupts);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    interrupt_hold(&saved); /* so that an interrupt kills gnuplot too */
    int error = posix_spawnp(&pid, "gnuplot", &actions, &attributes, argv, environ);
    if (!error) interrupt_track_child(pid);
    interrupt_release(&saved);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (!error) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        interrupt_forget_child(pid);
    }
    char complaint[512] = "";
    if (!error) first_line(f->errors, complaint, sizeof complaint);
    /* glibc reports a failed exec as ENOENT; where spawning is a plain fork
     * (valgrind), the child's exit 127 with nothing said is the sign */
    if (error == ENOENT || (!error && WIFEXITED(status) && WEXITSTATUS(status) == 127 && !complaint[0]))
        return diag_fail(d, "cannot plot %s: gnuplot not found on PATH (install gnuplot-nox; scripts/setup does)", path);
    if (error) return diag_fail(d, "cannot plot %s: cannot run gnuplot: %s", path, strerror(error));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    if (WIFEXITED(status))
        return diag_fail(d, "cannot plot %s: gnuplot failed (exit %d)%s%s", path, WEXITSTATUS(status), complaint[0] ? ": " : "", complaint);
    return diag_fail(d, "cannot plot %s: gnuplot was killed by signal %d", path, WTERMSIG(status));
}

static void remove_files(const plot_files *f)
{
    const char *const inside[] = {f->drawing, f->errors, f->script, f->data};
    for (int i = 0; i < 4; i++) {
        unlink(inside[i]);
        interrupt_forget_path(inside[i]);
    }
    rmdir(f->directory);
    interrupt_forget_path(f->directory);
}

/* Data and script into F's directory. */
static bool write_inputs(const report *r, const plot_files *f, const plot_format *format, const char *path, diag *d)
{
    plot_writer w = {.script = fopen(f->script, "w"), .data = fopen(f->data, "w"), .data_path = f->data};
    bool ok = w.script && w.data;
    if (ok) write_plot(&w, r, format, f->drawing);
    if (w.script) ok = fclose(w.script) == 0 && ok;
    if (w.data) ok = fclose(w.data) == 0 && ok;
    return ok || diag_fail(d, "cannot plot %s: cannot write gnuplot's input in %s: %s", path, f->directory, strerror(errno));
}

/* gnuplot's drawing to PATH. */
static bool copy_drawing(const plot_files *f, const char *path, diag *d)
{
    FILE *in = fopen(f->drawing, "rb");
    if (!in) return diag_fail(d, "cannot plot %s: gnuplot drew nothing: %s", path, strerror(errno));
    output_file out;
    if (!output_open(&out, path, d)) {
        fclose(in);
        return false;
    }
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, in)) > 0) fwrite(buffer, 1, n, out.stream);
    bool read_ok = !ferror(in);
    fclose(in);
    if (read_ok) return output_commit(&out, d);
    output_discard(&out);
    return diag_fail(d, "cannot plot %s: cannot read gnuplot's drawing", path);
}

bool report_plot(const report *r, const char *path, diag *d)
{
    const plot_format *format = format_of(path);
    if (!format) return diag_fail(d, "cannot plot %s: the name must end in .svg, .png or .pdf", path);
    plot_files f;
    const char *tmp = getenv("TMPDIR");
    snprintf(f.directory, sizeof f.directory, "%s/collsim-plot-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    sigset_t saved;
    interrupt_hold(&saved); /* an interrupt removes the directory and what it holds */
    bool made = mkdtemp(f.directory) != NULL;
    int error = errno;
    snprintf(f.data, sizeof f.data, "%s/data.txt", f.directory);
    snprintf(f.script, sizeof f.script, "%s/plot.gp", f.directory);
    snprintf(f.errors, sizeof f.errors, "%s/gnuplot.err", f.directory);
    snprintf(f.drawing, sizeof f.drawing, "%s/drawing%s", f.directory, format->extension);
    const char *const inside[] = {f.directory, f.data, f.script, f.errors, f.drawing};
    for (int i = 0; made && i < 5; i++) interrupt_track_path(inside[i]);
    interrupt_release(&saved);
    if (!made) return diag_fail(d, "cannot plot %s: no temporary directory: %s", path, strerror(error));
    bool ok = write_inputs(r, &f, format, path, d) && run_gnuplot(&f, path, d) && copy_drawing(&f, path, d);
    remove_files(&f);
    return ok;
}
