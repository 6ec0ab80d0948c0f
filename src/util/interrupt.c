/* interrupt.c — killing children and removing temporary files when collsim
 * is interrupted (interrupt.h). */
#include "util/interrupt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* --jobs runs at most 1024 simulations at once (command_run.c), plus gnuplot;
 * a plot writes five temporary paths, a report or baseline one. */
#define TRACKED_CHILDREN 1100
#define TRACKED_PATHS 16
#define PATH_SIZE 1100

static struct {
    pid_t children[TRACKED_CHILDREN];
    int child_count;
    char paths[TRACKED_PATHS][PATH_SIZE];
    int path_count;
    int installed;
} tracked;

void interrupt_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGPIPE);
}

/* Kill and reap every child, remove every path, then die of SIGNAL. */
static void on_interrupt(int signal)
{
    for (int i = 0; i < tracked.child_count; i++) kill(tracked.children[i], SIGKILL);
    for (int i = 0; i < tracked.child_count; i++)
        while (waitpid(tracked.children[i], NULL, 0) < 0 && errno == EINTR) {
        }
    for (int i = tracked.path_count - 1; i >= 0; i--)
        if (unlink(tracked.paths[i]) != 0 && (errno == EISDIR || errno == EPERM)) rmdir(tracked.paths[i]);
    struct sigaction fallback = {.sa_handler = SIG_DFL};
    sigaction(signal, &fallback, NULL);
    raise(signal); /* delivered once this handler returns: the exit status says which signal */
}

static void install(void)
{
    if (tracked.installed) return;
    tracked.installed = 1;
    struct sigaction action = {.sa_handler = on_interrupt}, before;
    sigfillset(&action.sa_mask); /* one cleanup at a time, never interrupted by the others */
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (int i = 0; i < 4; i++) /* a signal ignored when collsim started (nohup, a background job) stays ignored */
        if (sigaction(signals[i], NULL, &before) == 0 && before.sa_handler != SIG_IGN) sigaction(signals[i], &action, NULL);
}

void interrupt_hold(sigset_t *saved)
{
    install();
    sigset_t set;
    interrupt_signals(&set);
    sigprocmask(SIG_BLOCK, &set, saved);
}

void interrupt_release(const sigset_t *saved)
{
    sigprocmask(SIG_SETMASK, saved, NULL);
}

void interrupt_track_child(pid_t pid)
{
    sigset_t saved;
    interrupt_hold(&saved);
    if (tracked.child_count < TRACKED_CHILDREN) tracked.children[tracked.child_count++] = pid;
    interrupt_release(&saved);
}

void interrupt_forget_child(pid_t pid)
{
    sigset_t saved;
    interrupt_hold(&saved);
    for (int i = 0; i < tracked.child_count; i++)
        if (tracked.children[i] == pid) {
            tracked.children[i] = tracked.children[--tracked.child_count];
            break;
        }
    interrupt_release(&saved);
}

pid_t interrupt_fork(void)
{
    sigset_t saved;
    interrupt_hold(&saved);
    pid_t parent = getpid();
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        struct sigaction fallback = {.sa_handler = SIG_DFL};
        sigaction(SIGINT, &fallback, NULL);
        sigaction(SIGTERM, &fallback, NULL);
        sigaction(SIGHUP, &fallback, NULL);
        sigaction(SIGPIPE, &fallback, NULL);
        tracked.child_count = tracked.path_count = 0; /* the parent's, not this child's to undo */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1); /* the parent died before the line above */
    } else if (child > 0 && tracked.child_count < TRACKED_CHILDREN) {
        tracked.children[tracked.child_count++] = child;
    }
    int error = errno;
    interrupt_release(&saved);
    errno = error;
    return child;
}

void interrupt_track_path(const char *path)
{
    sigset_t saved;
    interrupt_hold(&saved);
    if (tracked.path_count < TRACKED_PATHS)
        snprintf(tracked.paths[tracked.path_count++], PATH_SIZE, "%s", path);
    interrupt_release(&saved);
}

void interrupt_forget_path(const char *path)
{
    sigset_t saved;
    interrupt_hold(&saved);
    for (int i = tracked.path_count - 1; i >= 0; i--)
        if (strcmp(tracked.paths[i], path) == 0) {
            memmove(tracked.paths[i], tracked.paths[i + 1], (size_t)(tracked.path_count - 1 - i) * PATH_SIZE);
            tracked.path_count--;
            break;
        }
    interrupt_release(&saved);
}
