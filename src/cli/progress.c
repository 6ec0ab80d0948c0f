/* progress.c — the progress line of a long run (progress.h). */
#include "cli/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "util/units.h"

/* A simulation's heartbeat is shown once it has run this long, and again
 * every as long (docs/output.md, "Progress"). */
#define BEAT_EVERY_S 2.0

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

/* The line: simulations done, the one running, time elapsed and left, then
 * BEAT (the running one's heartbeat, or ""). */
static void print_line(progress *p, double now_s, const char *beat)
{
    double elapsed = now_s - p->start_s;
    char spent[32], left[48] = "";
    format_duration(elapsed, spent, sizeof spent);
    if (p->done > 0 && p->done < p->total) { /* the mean simulation so far, times those left */
        char estimate[32];
        format_duration(elapsed / p->done * (p->total - p->done), estimate, sizeof estimate);
        snprintf(left, sizeof left, ", about %s left", estimate);
    }
    bool running = p->current[0] != '\0';
    fprintf(stderr, "%scollsim: %d/%d simulations done%s%s; %s elapsed%s%s%s", p->terminal ? "\r" : "", p->done,
            p->total, running ? ", running " : "", p->current, spent, left, beat, p->terminal ? "\033[K" : "\n");
    fflush(stderr);
    p->line_open = p->terminal;
}

void progress_show(progress *p, int done, const char *current)
{
    if (!p->on) return;
    p->done = done;
    snprintf(p->current, sizeof p->current, "%s", current ? current : "");
    p->beat_shown_s = 0;
    print_line(p, monotonic_s(), "");
}

void progress_beat(progress *p, double simulated_s, long long operations, double waited_s)
{
    if (!p->on || waited_s < BEAT_EVERY_S) return;
    double now_s = monotonic_s();
    if (p->beat_shown_s > 0 && now_s - p->beat_shown_s < BEAT_EVERY_S) return;
    p->beat_shown_s = now_s;
    char reached[32] = "0 s", beat[96];
    if (simulated_s > 0) units_format(simulated_s, UNIT_TIME, reached, sizeof reached);
    snprintf(beat, sizeof beat, "; simulated %s, %lld operations done", reached, operations);
    print_line(p, now_s, beat);
}

void progress_clear(progress *p)
{
    if (!p->line_open) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    p->line_open = false;
}
