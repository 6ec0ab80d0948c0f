/* progress.c — the progress line of a long run (progress.h). */
#include "cli/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double monotonic_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

void progress_start(progress *p, bool on, int total)
{
    *p = (progress){.on = on && total > 0, .terminal = isatty(STDERR_FILENO), .total = total, .start_s = monotonic_s()};
}

/* "1 h 02 min", "3 min 05 s", "12.3 s" */
static void format_duration(double seconds, char *out, size_t size)
{
    if (seconds >= 3600) snprintf(out, size, "%d h %02d min", (int)(seconds / 3600), (int)(seconds / 60) % 60);
    else if (seconds >= 60) snprintf(out, size, "%d min %02d s", (int)(seconds / 60), (int)seconds % 60);
    else snprintf(out, size, "%.1f s", seconds);
}

void progress_show(progress *p, int done, const char *current)
{
    if (!p->on) return;
    p->done = done;
    double elapsed = monotonic_s() - p->start_s;
    char spent[32], left[48] = "";
    format_duration(elapsed, spent, sizeof spent);
    if (done > 0 && done < p->total) { /* the mean simulation so far, times those left */
        char estimate[32];
        format_duration(elapsed / done * (p->total - done), estimate, sizeof estimate);
        snprintf(left, sizeof left, ", about %s left", estimate);
    }
    fprintf(stderr, "%scollsim: %d/%d simulations done%s%s; %s elapsed%s%s", p->terminal ? "\r" : "", done, p->total,
            current ? ", running " : "", current ? current : "", spent, left, p->terminal ? "\033[K" : "\n");
    fflush(stderr);
    p->line_open = p->terminal;
}

void progress_clear(progress *p)
{
    if (!p->line_open) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    p->line_open = false;
}
