/* simgrid_run.c — forked SimGrid runs of concurrent point-to-point flows. */
#include "net/simgrid_run.h"

#include <errno.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "platform/simgrid_xml.h"

int simgrid_arguments(const sim_options *options, const char **argv, int capacity)
{
    static const char *const cm02[] = {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                                       "--cfg=network/TCP-gamma:0", "--cfg=surf/precision:1e-15",
                                       "--cfg=maxmin/precision:1e-12", NULL};
    static const char *const lv08[] = {"--cfg=network/model:LV08", NULL};
    int n = 0;
    argv[n++] = "collsim";
    argv[n++] = "--log=root.thres:critical";
    for (const char *const *a = options->model == NETWORK_LV08 ? lv08 : cm02; *a && n < capacity - 1; a++) argv[n++] = *a;
    for (const char *const *a = options->extra_cfg; a && *a && n < capacity - 1; a++) argv[n++] = *a;
    argv[n] = NULL;
    return n;
}

/* ---- child side: the state SimGrid's C callbacks force to be global ---- */
static const flow *child_flows;
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
    int index = atoi(argv[1]);
    sg_mailbox_get(sg_mailbox_by_name(argv[1]));
    child_finish[index] = simgrid_get_clock();
}

static int child_simulate(const topology *t, const flow *flows, int count, const sim_options *options)
{
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(count ? count : 1));
    for (int i = 0; i < count; i++) pairs[i] = (node_pair){flows[i].src, flows[i].dst};
    char path[] = "/tmp/collsim-platform-XXXXXX";
    int fd = mkstemp(path);
    FILE *xml = fd >= 0 ? fdopen(fd, "w") : NULL;
    diag d = {0};
    if (!xml || !simgrid_xml_write(t, pairs, count, xml, &d) || fclose(xml) != 0) {
        if (d.set) diag_print(&d);
        unlink(path);
        return 1;
    }
    free(pairs);
    const char *argv[32];
    int argc = simgrid_arguments(options, argv, 32);
    simgrid_init(&argc, (char **)argv);
    simgrid_load_platform(path);
    unlink(path);
    child_flows = flows;
    child_finish = calloc((size_t)(count ? count : 1), sizeof *child_finish);
    char host[64], index[16];
    for (int i = 0; i < count; i++) {
        snprintf(index, sizeof index, "%d", i);
        const char *args[] = {"flow", index};
        topology_node_name(t, flows[i].src, host, sizeof host);
        sg_actor_create_("send", sg_host_by_name(host), flow_sender, 2, args);
        topology_node_name(t, flows[i].dst, host, sizeof host);
        sg_actor_create_("recv", sg_host_by_name(host), flow_receiver, 2, args);
    }
    simgrid_run();
    return 0;
}

static bool read_all(int fd, void *buffer, size_t size)
{
    char *p = buffer;
    while (size > 0) {
        ssize_t got = read(fd, p, size);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got;
        size -= (size_t)got;
    }
    return true;
}

static bool write_all(int fd, const void *buffer, size_t size)
{
    const char *p = buffer;
    while (size > 0) {
        ssize_t put = write(fd, p, size);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return false;
        p += put;
        size -= (size_t)put;
    }
    return true;
}

bool simgrid_run_flows(const topology *t, const flow *flows, int count, const sim_options *options,
                       double *finish_s, diag *d)
{
    for (int i = 0; i < count; i++) {
        int nodes = topology_node_count(t);
        if (flows[i].src < 0 || flows[i].src >= nodes || flows[i].dst < 0 || flows[i].dst >= nodes)
            return diag_fail(d, "flow %d names a node outside platform '%s'", i, t->name);
        if (flows[i].src == flows[i].dst) return diag_fail(d, "flow %d goes from a node to itself", i);
    }
    int channel[2];
    if (pipe(channel) != 0) return diag_fail(d, "cannot create a pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) return diag_fail(d, "cannot fork the simulation: %s", strerror(errno));
    if (child == 0) {
        close(channel[0]);
        int status = child_simulate(t, flows, count, options);
        if (status == 0 && !write_all(channel[1], child_finish, sizeof(double) * (size_t)count)) status = 1;
        _exit(status);
    }
    close(channel[1]);
    bool ok = read_all(channel[0], finish_s, sizeof(double) * (size_t)count);
    close(channel[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return diag_fail(d, "the SimGrid simulation of platform '%s' failed", t->name);
    return true;
}
