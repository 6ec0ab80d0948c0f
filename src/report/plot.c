/* plot.c — report_plot: a report's panels (plot_script.c writes their
 * gnuplot script and data) drawn by gnuplot.  The data, the script and
 * gnuplot's drawing go to a private temporary directory; the drawing is
 * then copied to PATH as util/output_file.h says (a regular file replaced whole, a FIFO or device
 * written into, never replaced). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/plot_script.h"
#include "report/report.h"
#include "util/interrupt.h"
#include "util/output_file.h"

extern char **environ;

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
    FILE *script = fopen(f->script, "w"), *data = fopen(f->data, "w");
    bool ok = script && data;
    if (ok) plot_write_script(script, data, f->data, r, format->terminal, f->drawing);
    if (script) ok = fclose(script) == 0 && ok;
    if (data) ok = fclose(data) == 0 && ok;
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
