/* interrupt.h — what an interrupted collsim undoes.  SIGINT, SIGTERM,
 * SIGHUP (and SIGPIPE: a reader gone) to collsim kill its children
 * (simulations, gnuplot) and wait for them, remove the temporary files it was
 * writing (half-written outputs included), then end the process by the same
 * signal: nothing is left behind (docs/reliability.md).  A child also dies
 * when collsim is killed outright (SIGKILL), through the kernel's
 * parent-death signal.
 *
 * The handlers are installed on first use; a signal ignored when collsim
 * started (nohup, a background job) stays ignored.  The registry they read
 * is the one piece of process-wide mutable state here: a signal handler can
 * reach nothing else. */
#ifndef COLLSIM_INTERRUPT_H
#define COLLSIM_INTERRUPT_H

#include <signal.h>
#include <sys/types.h>

/* fork() for a child that is killed with this process: 0 in the child (its
 * signal dispositions back to the defaults), the pid in the parent (tracked
 * until interrupt_forget_child), -1 with errno on failure. */
pid_t interrupt_fork(void);

/* For children started otherwise (posix_spawn): hold those signals off
 * (into SAVED) while starting and tracking the child, then release them. */
void interrupt_hold(sigset_t *saved);
void interrupt_release(const sigset_t *saved);
void interrupt_track_child(pid_t pid);
/* The child has been waited for. */
void interrupt_forget_child(pid_t pid);

/* PATH is a temporary file or directory (removed once empty) to remove if
 * interrupted, until forgotten; paths are removed newest first. */
void interrupt_track_path(const char *path);
void interrupt_forget_path(const char *path);

/* The signals that interrupt collsim, for children that restore them. */
void interrupt_signals(sigset_t *set);

#endif
