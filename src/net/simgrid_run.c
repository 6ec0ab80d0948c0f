/* simgrid_run.c — forked SimGrid sessions, and concurrent point-to-point flows. */
#include "net/simgrid_run.h"

#include <errno.h>
#include <signal.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The max-min precisions tried in turn: a simulation whose attempt crashed
 * SimGrid 3.32's solver is run again at the next (see simgrid_join). */
static const char *const precisions[] = {"--cfg=maxmin/precision:1e-12", "--cfg=maxmin/precision:1e-9",
                                         "--cfg=maxmin/precision:1e-7"};
#define PRECISION_LEVELS 3
static int precision_level; /* set in the forked child */

const char *const *simgrid_model_settings(network_model model)
{
    static const char *const cm02[] = {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                                       "--cfg=network/TCP-gamma:0", "--cfg=surf/precision:1e-15", NULL};
    static const char *const lv08[] = {"--cfg=network/model:LV08", NULL};
    return model == NETWORK_LV08 ? lv08 : cm02;
}

static int simgrid_arguments(const sim_options *options, const char **argv, int capacity)
{
    int n = 0;
    argv[n++] = "collsim";
    argv[n++] = "--log=root.thres:critical";
    const char *const *model = simgrid_model_settings(options->model);
    for (const char *const *a = model; *a && n < capacity - 1; a++) argv[n++] = *a;
    if (options->model != NETWORK_LV08) argv[n++] = precisions[precision_level];
    for (const char *const *a = options->extra_cfg; a && *a && n < capacity - 1; a++) argv[n++] = *a;
    argv[n] = NULL;
    return n;
}

bool simgrid_open(const topology *t, node_pair *pairs, int pair_count, const sim_options *options,
                  double bandwidth_scale)
{
    char path[] = "/tmp/collsim-platform-XXXXXX";
    int fd = mkstemp(path);
    FILE *xml = fd >= 0 ? fdopen(fd, "w") : NULL;
    diag d = {0};
    bool ok = xml && simgrid_xml_write(t, pairs, pair_count, bandwidth_scale, xml, &d);
    if (xml && fclose(xml) != 0) ok = false;
    if (!ok) {
        if (d.set) diag_print(&d);
        unlink(path);
        return false;
    }
    const char *argv[32];
    int argc = simgrid_arguments(options, argv, 32);
    simgrid_init(&argc, (char **)argv);
    simgrid_load_platform(path);
    unlink(path);
    return true;
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

/* Start one forked run of C's job. */
static bool spawn_once(sim_child *c, diag *d)
{
    int channel[2];
    if (pipe(channel) != 0) return diag_fail(d, "cannot create a pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        close(channel[0]);
        close(channel[1]);
        return diag_fail(d, "cannot fork the simulation: %s", strerror(errno));
    }
    if (child == 0) {
        close(channel[0]);
        if (c->log) dup2(fileno(c->log), STDERR_FILENO); /* a solver crash's backtrace is not the user's concern */
        precision_level = c->level;
        bool ok = c->job(c->ctx, c->out) && transfer(channel[1], c->out, sizeof(double) * (size_t)c->out_count, true);
        _exit(ok ? 0 : 1);
    }
    close(channel[1]);
    c->pid = child;
    c->fd = channel[0];
    return true;
}

/* Collect one forked run; false with *SIGNAL set when the child died of a signal. */
static bool join_once(sim_child *c, int *signal, diag *d)
{
    *signal = 0;
    bool ok = transfer(c->fd, c->out, sizeof(double) * (size_t)c->out_count, false);
    close(c->fd);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFSIGNALED(status)) *signal = WTERMSIG(status);
    if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return diag_fail(d, "the SimGrid simulation failed");
    return true;
}

bool simgrid_spawn(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count, sim_child *c, diag *d)
{
    *c = (sim_child){.job = job, .ctx = ctx, .out = out, .out_count = out_count, .log = tmpfile()};
    if (spawn_once(c, d)) return true;
    if (c->log) fclose(c->log);
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

/* SimGrid 3.32's max-min solver can crash (SIGSEGV in lmm::MaxMin::do_solve)
 * at maxmin/precision 1e-12 on some heavily shared flow sets (torus
 * all-to-all on 4x6, 2x3x4, ...).  Such a run is simulated again at the
 * SimGrid default 1e-9, and the user is told. */
bool simgrid_join(sim_child *c, diag *d)
{
    static int noted;
    int signal = 0;
    bool ok = join_once(c, &signal, d);
    while (!ok && (signal == SIGSEGV || signal == SIGABRT) && c->level + 1 < PRECISION_LEVELS) {
        release_log(c, false);
        c->level++;
        if (noted < c->level) {
            fprintf(stderr, "collsim: note: SimGrid's max-min solver crashed (signal %d) at %s; simulating again at %s "
                    "(times then agree with the formulas to about that precision rather than 1e-15)\n", signal,
                    precisions[c->level - 1] + 6, precisions[c->level] + 6);
            noted = c->level;
        }
        *d = (diag){0};
        c->log = c->level + 1 < PRECISION_LEVELS ? tmpfile() : NULL;
        ok = spawn_once(c, d) && join_once(c, &signal, d);
    }
    release_log(c, !ok);
    return ok;
}

bool simgrid_fork(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count, diag *d)
{
    sim_child c;
    return simgrid_spawn(job, ctx, out, out_count, &c, d) && simgrid_join(&c, d);
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
    const flow *f = &child_flows[atoi(argv[1])];
    if (f->start_s > 0) sg_actor_sleep_until(f->start_s);
    sg_mailbox_put(sg_mailbox_by_name(argv[1]), (void *)f, (long)f->size_bytes);
}

static void flow_receiver(int argc, char **argv)
{
    (void)argc;
    sg_mailbox_get(sg_mailbox_by_name(argv[1]));
    child_finish[atoi(argv[1])] = simgrid_get_clock();
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
    simgrid_run();
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
    return simgrid_fork(run_flows_job, &job, finish_s, count, d);
}
