/* plot.c — report_plot: time against message size, one log-log panel per
 * case, the analytic prediction as a line and the simulated times as points
 * per algorithm, with the fitted η (SPEC §8 --plot).  The data and a gnuplot
 * script go to a private temporary directory; gnuplot draws the SVG into
 * PATH.tmp-XXXXXX, renamed to PATH only when gnuplot succeeded. */
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
#define PANEL_HEIGHT 480

/* The files of one plot: the temporary directory and what goes in it. */
typedef struct plot_files {
    char directory[256];
    char data[300], script[300], errors[300];
    char output[1100];         /* PATH.tmp-XXXXXX */
} plot_files;

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
    bool predicted, simulated; /* whether there is anything to draw */
} series;

static void collect_series(const report *r, int first, series *s)
{
    s->count = 0;
    s->predicted = s->simulated = false;
    for (int i = first; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (!same_series(row, &r->rows[first])) continue;
        s->rows[s->count++] = row;
        s->predicted |= !isnan(positive_or_nan(row->predicted_s));
        s->simulated |= row->simulated && !isnan(positive_or_nan(row->time_s));
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

/* VALUE in µs, or gnuplot's missing-value mark when there is nothing to draw. */
static void write_microseconds(FILE *data, double value_s)
{
    if (isnan(positive_or_nan(value_s))) fprintf(data, " ?");
    else fprintf(data, " %.17g", value_s * 1e6);
}

/* One data block per series: size, predicted µs, simulated µs. */
static void write_series_data(FILE *data, const series *s)
{
    for (int k = 0; k < s->count; k++) {
        const result_row *row = s->rows[k];
        fprintf(data, "%.17g", row->size_bytes);
        write_microseconds(data, row->predicted_s);
        write_microseconds(data, row->simulated ? row->time_s : NAN);
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

/* The η labels of case CASE_INDEX: one per whole-collective fit. */
static void write_eta_labels(FILE *script, const report *r, int case_index)
{
    int line = 0;
    for (int i = 0; i < r->eta_count; i++) {
        const eta_row *e = &r->etas[i];
        if (e->case_index != case_index || e->tier[0] || !isfinite(e->eta_alpha) || !isfinite(e->eta_beta)) continue;
        fprintf(script, "set label %d ", ++line);
        gnuplot_string(script, e->algorithm, true); /* escaped; the η_α that follows keeps its subscript */
        fprintf(script, " . ': η_α = %.3f, η_β = %.3f' at graph 0.03, graph %.2f front\n", e->eta_alpha, e->eta_beta,
                0.94 - 0.06 * (line - 1));
    }
}

/* The panel of the case that rows[first] opens. */
static void write_panel(plot_writer *w, const report *r, int first)
{
    const result_row *opener = &r->rows[first];
    fprintf(w->script, "unset label\nset title 'case %d: %s'\n", opener->case_index, primitive_name(opener->prim));
    write_eta_labels(w->script, r, opener->case_index);
    int curves = 0, colors = 0;
    for (int i = first; i < r->row_count; i++) {
        if (r->rows[i].case_index != opener->case_index || !opens_series(r, i)) continue;
        collect_series(r, i, &w->s);
        write_series_data(w->data, &w->s);
        colors++;
        if (w->s.predicted) write_curve(w, &r->rows[i], &curves, 2, "lines lw 2", colors, "predicted");
        if (w->s.simulated) write_curve(w, &r->rows[i], &curves, 3, "points pt 7 ps 0.8", colors, "simulated");
        w->block++;
    }
    /* nothing measured or predicted: an empty panel rather than a gnuplot error */
    if (!curves) fprintf(w->script, "set xrange [1:10]\nset yrange [1:10]\nplot 1/0 notitle\nset autoscale");
    fputc('\n', w->script);
}

static void write_plot(plot_writer *w, const report *r, const char *output)
{
    int cases = 0;
    for (int i = 0; i < r->row_count; i++) cases += opens_case(r, i);
    int columns = cases ? (int)ceil(sqrt(cases)) : 1, rows = cases ? (cases + columns - 1) / columns : 1;
    fprintf(w->script, "set encoding utf8\nset terminal svg size %d,%d dynamic enhanced\nset output ",
            PANEL_WIDTH * columns, PANEL_HEIGHT * rows);
    gnuplot_string(w->script, output, false);
    fprintf(w->script, "\nset datafile missing '?'\nset logscale xy\nset format x '10^{%%L}'\nset format y '10^{%%L}'\n"
                       "set xlabel 'message size (bytes)'\nset ylabel 'time (µs)'\nset key bottom right\nset grid\n"
                       "set multiplot layout %d,%d\n", rows, columns);
    w->s.rows = malloc(sizeof(const result_row *) * (size_t)(r->row_count + 1));
    for (int i = 0; i < r->row_count; i++)
        if (opens_case(r, i)) write_panel(w, r, i);
    if (!cases) fprintf(w->script, "plot 1/0 notitle\n");
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
    const char *const inside[] = {f->errors, f->script, f->data};
    for (int i = 0; i < 3; i++) {
        unlink(inside[i]);
        interrupt_forget_path(inside[i]);
    }
    rmdir(f->directory);
    interrupt_forget_path(f->directory);
}

/* Data and script into F's directory. */
static bool write_inputs(const report *r, const plot_files *f, const char *path, diag *d)
{
    plot_writer w = {.script = fopen(f->script, "w"), .data = fopen(f->data, "w"), .data_path = f->data};
    bool ok = w.script && w.data;
    if (ok) write_plot(&w, r, f->output);
    if (w.script) ok = fclose(w.script) == 0 && ok;
    if (w.data) ok = fclose(w.data) == 0 && ok;
    return ok || diag_fail(d, "cannot plot %s: cannot write gnuplot's input in %s: %s", path, f->directory, strerror(errno));
}

bool report_plot(const report *r, const char *path, diag *d)
{
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
    const char *const inside[] = {f.directory, f.data, f.script, f.errors};
    for (int i = 0; made && i < 4; i++) interrupt_track_path(inside[i]);
    interrupt_release(&saved);
    if (!made) return diag_fail(d, "cannot plot %s: no temporary directory: %s", path, strerror(error));
    int fd = output_file_create(path, f.output, sizeof f.output);
    if (fd < 0) {
        diag_fail(d, "cannot write %s: %s", path, strerror(errno));
        remove_files(&f);
        return false;
    }
    close(fd);
    bool ok = write_inputs(r, &f, path, d) && run_gnuplot(&f, path, d);
    if (!ok) output_file_discard(f.output);
    else if (output_file_commit(f.output, path) != 0) ok = diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    remove_files(&f);
    return ok;
}
