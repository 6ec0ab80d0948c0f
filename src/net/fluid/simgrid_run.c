/* simgrid_run.c — forked SimGrid sessions: the platform in memory, crashes
 * told apart by where they happened and only the solver's retried, the
 * --cfg check; and concurrent point-to-point flows. */
#include "net/fluid/simgrid_run.h"

#include <errno.h>
#include <signal.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net/fluid/cfg_rules.h"
#include "net/fluid/child_limits.h"
#include "net/fluid/simgrid_zone.h"
#include "util/interrupt.h"
#include "util/memory.h"
#include "util/units.h"

/* The max-min precisions tried in turn: a simulation whose attempt crashed
 * SimGrid 3.32's solver is run again at the next (see simgrid_join).  The
 * first is SimGrid's default, 1e-9, where the solver crashes least: at 1e-12
 * most scattered-group and torus all-to-all runs crashed and were run again at
 * 1e-9 (7-50 % of their time wasted), while every run that finished at 1e-12
 * prints the same times at 1e-9 (scripts/regress --rtol 0: no row moves; the
 * exact tests hold).  1e-12 comes next, so that a run 1e-9 crashes but 1e-12
 * does not still gets the times the ladder 1e-12, 1e-9, 1e-7 gave it. */
static const char *const precisions[] = {"--cfg=maxmin/precision:1e-9", "--cfg=maxmin/precision:1e-12",
                                         "--cfg=maxmin/precision:1e-7"};
#define PRECISION_LEVELS 3

/* A forked child's own state, for SimGrid's C actors and its crash handler
 * (which can reach nothing else): its precision level, where it is, the
 * write end of its pipe, and the heartbeat it shares with its parent. */
static int precision_level;
static volatile sig_atomic_t child_place = SIM_IN_COLLSIM;
static int report_fd = -1;
static heartbeat *child_beat;

/* What a child writes first into its pipe: DONE and then its numbers, or,
 * from its crash handler, CRASH with where it was and the signal. */
typedef struct child_report {
    int32_t kind, place, signal;
} child_report;
enum { REPORT_DONE = 0x444f4e45, REPORT_CRASH = 0x43525348 };

void simgrid_mark(sim_place place)
{
    child_place = place;
}

heartbeat *simgrid_heartbeat(void)
{
    return child_beat ? child_beat : heartbeat_unread();
}

static void on_crash(int signal)
{
    child_report report = {REPORT_CRASH, child_place, signal};
    if (report_fd >= 0 && write(report_fd, &report, sizeof report) < 0) report_fd = -1;
    struct sigaction fallback = {.sa_handler = SIG_DFL};
    sigaction(signal, &fallback, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(signal); /* die of it, as without the handler */
}

/* In the child, and again once SimGrid has installed its own handlers. */
static void arm_crash_handler(void)
{
    static char alternate_stack[1 << 16]; /* an actor's stack overflow still gets reported */
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack};
    sigaltstack(&stack, NULL);
    struct sigaction action = {.sa_handler = on_crash, .sa_flags = SA_ONSTACK};
    sigemptyset(&action.sa_mask);
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) sigaction(crashes[i], &action, NULL);
}

static const char *place_name(int place)
{
    switch (place) {
    case SIM_IN_SIMGRID_SETUP: return "SimGrid crashed while reading its options and the platform";
    case SIM_IN_SIMGRID: return "SimGrid crashed while simulating";
    case SIM_IN_ACTOR: return "collsim crashed in the executor (its SimGrid actors)";
    default: return "collsim crashed while preparing the simulation";
    }
}

const char *const *simgrid_model_settings(network_model model)
{
    static const char *const cm02[] = {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                                       "--cfg=network/TCP-gamma:0", "--cfg=surf/precision:1e-15", NULL};
    static const char *const lv08[] = {"--cfg=network/model:LV08", NULL};
    return model == NETWORK_LV08 ? lv08 : cm02;
}

/* NAME:VALUE of a --cfg option, given with or without its "--cfg=". */
static const char *cfg_setting(const char *option)
{
    return strncmp(option, "--cfg=", 6) == 0 ? option + 6 : option;
}

int simgrid_arguments(const sim_options *options, const char **argv, char storage[][SIM_ARGUMENT_BYTES])
{
    const int capacity = SIM_ARGUMENTS;
    int n = 0;
    argv[n++] = "collsim";
    argv[n++] = "--log=root.thres:critical";
    const char *const *model = simgrid_model_settings(options->model);
    for (const char *const *a = model; *a && n < capacity - 1; a++) argv[n++] = *a;
    if (options->model != NETWORK_LV08) argv[n++] = precisions[precision_level];
    /* Actor stacks of 64 KiB rather than SimGrid's 8 MiB: paired runs were
     * faster with the same times (docs/scale.md), and collsim's actors keep
     * small frames.  Not in simgrid_model_settings, which `platform xml` also
     * hands to smpirun, whose MPI programs' frames are not collsim's.  A
     * --cfg=contexts/stack-size given by the user comes later and wins. */
    argv[n++] = "--cfg=contexts/stack-size:64";
    for (const char *const *a = options->extra_cfg; a && *a && n < capacity - 1; a++) {
        snprintf(storage[n], SIM_ARGUMENT_BYTES, "--cfg=%s", cfg_setting(*a));
        argv[n] = storage[n];
        n++;
    }
    argv[n] = NULL;
    return n;
}

static bool open_platform(const topology *t, node_pair *pairs, int pair_count, const sim_options *options,
                          double bandwidth_scale, bool hosts_only)
{
    const char *argv[SIM_ARGUMENTS];
    char storage[SIM_ARGUMENTS][SIM_ARGUMENT_BYTES];
    int argc = simgrid_arguments(options, argv, storage);
    simgrid_mark(SIM_IN_SIMGRID_SETUP);
    simgrid_init(&argc, (char **)argv);
    arm_crash_handler(); /* SimGrid installs its own for SIGSEGV */
    bool ok = simgrid_zone_build(t, pairs, pair_count, bandwidth_scale, hosts_only);
    simgrid_mark(SIM_IN_COLLSIM);
    return ok;
}

bool simgrid_open(const topology *t, node_pair *pairs, int pair_count, const sim_options *options,
                  double bandwidth_scale)
{
    return open_platform(t, pairs, pair_count, options, bandwidth_scale, false);
}

bool simgrid_open_hosts(const topology *t, node_pair *pairs, int pair_count, const sim_options *options)
{
    return open_platform(t, pairs, pair_count, options, 1.0, true);
}

void simgrid_simulate(void)
{
    simgrid_mark(SIM_IN_SIMGRID);
    simgrid_run();
    simgrid_mark(SIM_IN_COLLSIM);
}

void *simgrid_host(const topology *t, int node)
{
    char name[64];
    topology_node_name(t, node, name, sizeof name);
    return sg_host_by_name(name);
}

static bool transfer(int fd, void *buffer, size_t size, bool writing)
{
    char *p = buffer;
    while (size > 0) {
        ssize_t n = writing ? write(fd, p, size) : read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

/* C's numbers, written to or read from FD. */
static bool transfer_numbers(const sim_child *c, int fd, bool writing)
{
    bool ok = transfer(fd, c->out, sizeof(double) * (size_t)c->out_count, writing);
    for (int i = 0; ok && i < c->more_count; i++)
        ok = transfer(fd, c->more[i].at, sizeof(double) * (size_t)c->more[i].count, writing);
    return ok;
}

/* The child: run C's job and report through CHANNEL. */
static void run_child(const sim_child *c, int channel)
{
    report_fd = channel;
    precision_level = c->level;
    child_beat = c->beat;
    child_limits_apply(&c->limits);
    simgrid_mark(SIM_IN_COLLSIM);
    arm_crash_handler();
    if (c->log) dup2(fileno(c->log), STDERR_FILENO); /* a solver crash's backtrace is not the user's concern */
    child_report done = {REPORT_DONE, 0, 0};
    bool ok = c->job(c->ctx, c->out) && transfer(channel, &done, sizeof done, true) && transfer_numbers(c, channel, true);
    _exit(ok ? 0 : 1);
}

/* Start one forked run of C's job. */
static bool spawn_once(sim_child *c, diag *d)
{
    if (c->beat) { /* a retry starts from nothing */
        c->beat->time_s = 0;
        c->beat->operations = 0;
    }
    int channel[2];
    if (pipe(channel) != 0) return diag_fail(d, "cannot create a pipe: %s", strerror(errno));
    pid_t child = interrupt_fork();
    if (child < 0) {
        close(channel[0]);
        close(channel[1]);
        return diag_fail(d, "cannot fork the simulation of %s: %s", c->label, strerror(errno));
    }
    if (child == 0) {
        close(channel[0]);
        run_child(c, channel[1]);
    }
    close(channel[1]);
    c->pid = child;
    c->fd = channel[0];
    return true;
}

/* How one forked run ended. */
typedef enum { RUN_DONE, RUN_SOLVER_CRASH, RUN_FAILED } run_end;

/* Whether the child's log says an allocation failed in SimGrid (C++'s
 * std::bad_alloc, xbt's "Memory allocation of N bytes failed", an actor's
 * "Failed to allocate stack."). */
static bool log_says_out_of_memory(FILE *log)
{
    char line[1024];
    if (!log) return false;
    rewind(log);
    while (fgets(line, sizeof line, log))
        if (strstr(line, "bad_alloc") || strstr(line, "Memory allocation of") || strstr(line, "Failed to allocate"))
            return true;
    return false;
}

static void say_out_of_memory(const sim_child *c, diag *d)
{
    char limit[32] = "the machine's";
    if (c->limits.memory_bytes > 0) units_format(c->limits.memory_bytes, UNIT_SIZE, limit, sizeof limit);
    diag_fail(d, "the simulation of %s ran out of memory (its limit: %s, COLLSIM_CHILD_MEMORY; docs/reliability.md): "
              "simulate fewer ranks, sizes or concurrent cases at once, or raise the limit", c->label, limit);
}

/* End a child that made no progress for STOOD_S seconds, and say so. */
static void end_stalled_child(sim_child *c, double stood_s, diag *d)
{
    kill(c->pid, SIGKILL);
    close(c->fd);
    while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    interrupt_forget_child(c->pid);
    char reached[32];
    units_format(c->beat->time_s, UNIT_TIME, reached, sizeof reached);
    diag_fail(d, "the simulation of %s made no progress in simulated time for %.0f s of wall time (stuck at %s "
              "simulated, %lld operations done): ended, as COLLSIM_STALL_SECONDS=%g asks (docs/reliability.md)",
              c->label, stood_s, c->beat->time_s > 0 ? reached : "0 s", c->beat->operations, c->limits.stall_s);
}

/* Collect one forked run: its numbers, or D saying what went wrong. */
static run_end join_once(sim_child *c, diag *d)
{
    double stood_s;
    if (!child_wait(c->fd, c->beat, c->limits.stall_s, c->on_beat, c->on_beat_ctx, &stood_s)) {
        end_stalled_child(c, stood_s, d);
        return RUN_FAILED;
    }
    child_report report = {0};
    bool reported = transfer(c->fd, &report, sizeof report, false);
    bool numbers = reported && report.kind == REPORT_DONE && transfer_numbers(c, c->fd, false);
    close(c->fd);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
    }
    interrupt_forget_child(c->pid);
    if (numbers && WIFEXITED(status) && WEXITSTATUS(status) == 0) return RUN_DONE;
    if ((WIFEXITED(status) && WEXITSTATUS(status) == OUT_OF_MEMORY_EXIT) ||
        (reported && report.kind == REPORT_CRASH && log_says_out_of_memory(c->log))) {
        say_out_of_memory(c, d);
    } else if (reported && report.kind == REPORT_CRASH) {
        if (report.place == SIM_IN_SIMGRID) return RUN_SOLVER_CRASH;
        diag_fail(d, "%s (signal %d: %s) on %s: please report it with the scenario", place_name(report.place),
                  (int)report.signal, strsignal(report.signal), c->label);
    } else if (WIFSIGNALED(status)) {
        diag_fail(d, "the simulation of %s was killed by signal %d (%s)%s", c->label, WTERMSIG(status),
                  strsignal(WTERMSIG(status)), WTERMSIG(status) == SIGKILL ? ": out of memory?" : "");
    } else {
        diag_fail(d, "the simulation of %s failed (SimGrid's messages are above)", c->label);
    }
    return RUN_FAILED;
}

bool simgrid_spawn(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count, const char *label,
                   sim_child *c, diag *d)
{
    return simgrid_spawn_more(job, ctx, out, out_count, NULL, 0, label, c, d);
}

bool simgrid_spawn_more(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count,
                        const sim_segment *more, int more_count, const char *label, sim_child *c, diag *d)
{
    *c = (sim_child){.job = job, .ctx = ctx, .out = out, .out_count = out_count, .more = more,
                     .more_count = more_count};
    if (!child_limits_read(&c->limits, d)) return false;
    c->log = tmpfile();
    c->beat = heartbeat_create();
    snprintf(c->label, sizeof c->label, "%s", label);
    if (spawn_once(c, d)) return true;
    if (c->log) fclose(c->log);
    heartbeat_free(c->beat);
    return false;
}

/* Pass on what the child wrote to stderr, and close its log. */
static void release_log(sim_child *c, bool show)
{
    if (!c->log) return;
    if (show) {
        char buffer[4096];
        size_t n;
        rewind(c->log);
        while ((n = fread(buffer, 1, sizeof buffer, c->log)) > 0) fwrite(buffer, 1, n, stderr);
    }
    fclose(c->log);
    c->log = NULL;
}

/* SimGrid 3.32's max-min solver can crash (SIGSEGV in lmm::MaxMin::do_solve,
 * or "cannot saturate more a constraint") on some heavily shared flow sets,
 * most at maxmin/precision 1e-12 (torus all-to-all on 4x6, 2x3x4, scattered
 * groups).  Such a run is simulated again at the next precision of the ladder
 * (precisions[]), and the user is told; a crash anywhere else is not
 * SimGrid's solver and is reported. */
bool simgrid_join(sim_child *c, diag *d)
{
    run_end end = join_once(c, d);
    while (end == RUN_SOLVER_CRASH && c->level + 1 < PRECISION_LEVELS) {
        release_log(c, false);
        c->level++;
        fprintf(stderr, "collsim: note: SimGrid's max-min solver crashed on %s at %s; simulating again at %s\n", c->label,
                precisions[c->level - 1] + 6, precisions[c->level] + 6);
        *d = (diag){0};
        c->log = tmpfile();
        end = spawn_once(c, d) ? join_once(c, d) : RUN_FAILED;
    }
    if (end == RUN_SOLVER_CRASH)
        diag_fail(d, "SimGrid's max-min solver crashed on %s at every precision down to %s", c->label,
                  precisions[PRECISION_LEVELS - 1] + 6);
    release_log(c, end != RUN_DONE);
    heartbeat_free(c->beat);
    c->beat = NULL;
    return end == RUN_DONE;
}

bool simgrid_fork(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count, const char *label,
                  diag *d)
{
    sim_child c;
    return simgrid_spawn(job, ctx, out, out_count, label, &c, d) && simgrid_join(&c, d);
}

/* ---- flows: one sender and one receiver actor per flow ---- */

typedef struct flows_job {
    const topology *t;
    const flow *flows;
    int count;
    const sim_options *options;
} flows_job;

static const flow *child_flows; /* SimGrid's C actors take argv only */
static double *child_finish;

static void flow_sender(int argc, char **argv)
{
    (void)argc;
    simgrid_mark(SIM_IN_ACTOR);
    const flow *f = &child_flows[atoi(argv[1])];
    simgrid_mark(SIM_IN_SIMGRID);
    if (f->start_s > 0) sg_actor_sleep_until(f->start_s);
    sg_mailbox_put(sg_mailbox_by_name(argv[1]), (void *)f, (long)f->size_bytes);
}

static void flow_receiver(int argc, char **argv)
{
    (void)argc;
    simgrid_mark(SIM_IN_SIMGRID);
    sg_mailbox_get(sg_mailbox_by_name(argv[1]));
    simgrid_mark(SIM_IN_ACTOR);
    child_finish[atoi(argv[1])] = simgrid_get_clock();
    simgrid_mark(SIM_IN_SIMGRID);
}

static bool run_flows_job(void *ctx, double *out)
{
    flows_job *job = ctx;
    node_pair *pairs = malloc(sizeof *pairs * (size_t)job->count);
    for (int i = 0; i < job->count; i++) pairs[i] = (node_pair){job->flows[i].src, job->flows[i].dst};
    bool ok = simgrid_open(job->t, pairs, job->count, job->options, 1.0);
    free(pairs);
    if (!ok) return false;
    child_flows = job->flows;
    child_finish = out;
    char index[16];
    for (int i = 0; i < job->count; i++) {
        snprintf(index, sizeof index, "%d", i);
        const char *args[] = {"flow", index};
        sg_actor_create_("send", simgrid_host(job->t, job->flows[i].src), flow_sender, 2, args);
        sg_actor_create_("recv", simgrid_host(job->t, job->flows[i].dst), flow_receiver, 2, args);
    }
    simgrid_simulate();
    return true;
}

bool simgrid_run_flows(const topology *t, const flow *flows, int count, const sim_options *options,
                       double *finish_s, diag *d)
{
    int nodes = topology_node_count(t);
    for (int i = 0; i < count; i++) {
        if (flows[i].src < 0 || flows[i].src >= nodes || flows[i].dst < 0 || flows[i].dst >= nodes)
            return diag_fail(d, "flow %d names a node outside platform '%s'", i, t->name);
        if (flows[i].src == flows[i].dst) return diag_fail(d, "flow %d goes from a node to itself", i);
    }
    flows_job job = {t, flows, count, options};
    char label[96];
    snprintf(label, sizeof label, "%d flow(s) on platform '%s'", count, t->name);
    return simgrid_fork(run_flows_job, &job, finish_s, count, label, d);
}

/* ---- --cfg options, checked against SimGrid before any simulation ---- */

static int two_hosts_route(const topology *t, int src, int dst, route_hop *hops)
{
    int n = 0;
    route_push(t, hops, &n, 0, dst < src);
    return n;
}

/* The first complaint SimGrid logged (a CRITICAL line) in LOG, without its
 * position and exception-type prefixes. */
static void simgrid_complaint(FILE *log, char *out, size_t size)
{
    char line[1024];
    snprintf(out, size, "it stops SimGrid");
    if (!log) return;
    rewind(log);
    while (fgets(line, sizeof line, log)) {
        char *text = strstr(line, "CRITICAL] ");
        if (!text) continue;
        text += strlen("CRITICAL] ");
        char *exception = strstr(text, "Uncaught exception ");
        if (exception && (exception = strstr(exception, ": "))) text = exception + 2;
        text[strcspn(text, "\r\n")] = '\0';
        snprintf(out, size, "%s", text);
        return;
    }
}

/* One simulation of a flow between two hosts with OPTIONS; false with D
 * quoting SimGrid's complaint. */
static bool simgrid_accepts(const sim_options *options, const char *what, diag *d)
{
    topology t;
    topology_init(&t, "check");
    snprintf(t.name, sizeof t.name, "option check");
    t.ranks = 2;
    t.route = two_hosts_route;
    t.route_hops_max = 1;
    topology_add_link(&t, "link", 1e9, 1e-6, 0);
    flow f = {0, 1, 1000, 0};
    flows_job job = {&t, &f, 1, options};
    double finish;
    sim_child c;
    bool ok = simgrid_spawn(run_flows_job, &job, &finish, 1, what, &c, d);
    if (ok) {
        ok = join_once(&c, d) == RUN_DONE;
        char complaint[512];
        simgrid_complaint(c.log, complaint, sizeof complaint);
        if (!ok) diag_fail(d, "%s: SimGrid refuses it: %s (SimGrid's options: "
                           "https://simgrid.org/doc/latest/Configuring_SimGrid.html)", what, complaint);
        release_log(&c, false);
    }
    topology_free(&t);
    return ok;
}

bool simgrid_check_options(const sim_options *o, diag *d)
{
    child_limits limits;
    if (!child_limits_read(&limits, d)) return false;
    if (!o->extra_cfg || !o->extra_cfg[0]) return true;
    for (const char *const *a = o->extra_cfg; *a; a++)
        if (!cfg_rules_check(cfg_setting(*a), d)) return false;
    if (simgrid_accepts(o, "the --cfg options", d)) return true; /* the usual case: one run */
    for (const char *const *a = o->extra_cfg; *a; a++) {
        const char *one[] = {*a, NULL};
        sim_options single = {.model = o->model, .extra_cfg = one};
        char what[340];
        snprintf(what, sizeof what, "--cfg=%s", cfg_setting(*a));
        *d = (diag){0};
        if (!simgrid_accepts(&single, what, d)) return false;
    }
    return diag_fail(d, "the --cfg options together: SimGrid refuses them (each alone is accepted)");
}
