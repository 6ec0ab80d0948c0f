/* job.c — one simulation of several parts as a job: started in a forked
 * child (exec_start: SimGrid allows one engine per process, and children let
 * several simulations run at once, --jobs), run there (run_job: the network
 * opened for the routes the parts need, their actors run by actor_run.c),
 * and its numbers received back by the parent (exec_finish).
 *
 * Invariants:
 *   1. The numbers cross the pipe as one flat buffer of doubles whose layout
 *      is results_layout's and nobody else's: parent and child each point
 *      the job's fields into their copy of the buffer through it.
 *   2. The large per-message arrays (latencies, kept op times) do not travel
 *      in that buffer: each is received in place, where the result keeps it
 *      (sim_segment), and handed on, not copied.
 *   3. A retry of the child (simgrid_join, after SimGrid's solver crashed)
 *      starts again from the parent's job, which the child never changes. */
#include "exec/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/actor_run.h"
#include "net/fluid/simgrid_run.h"
#include "net/network.h"
#include "util/memory.h"

struct exec_run {
    exec_job job;
    double *out;
    long out_count;
    sim_segment *more;       /* per part its latencies, then per part its kept op times */
    int more_count;
    sim_child child;
};

/* The message of a network failure travels back as text in doubles; op
 * times, link counts and a part's tally as the doubles of their structures. */
#define NETWORK_FAILURE_DOUBLES 32
#define OP_TIME_DOUBLES (sizeof(net_op_time) / sizeof(double))
#define LINK_STATS_DOUBLES ((long)(sizeof(net_link_stats) / sizeof(double)))
#define TALLY_DOUBLES ((long)(sizeof(part_tally) / sizeof(double)))
_Static_assert(sizeof(net_op_time) % sizeof(double) == 0 && sizeof(net_link_stats) % sizeof(double) == 0 &&
                   sizeof(part_tally) % sizeof(double) == 0,
               "op times, link counts and tallies travel as doubles");

/* COUNT doubles of BUFFER from *AT on (NULL when only counting); moves *AT past them. */
static double *take(double *buffer, long *at, long count)
{
    double *where = buffer ? buffer + *at : NULL;
    *at += count;
    return where;
}

/* The one layout of what a child sends back: per part its tally and its
 * ranks' finish times; then every link direction's counts, the queue samples
 * asked for, and the network's failure message.  Points JOB's fields into
 * BUFFER (NULL: only counts); the doubles it takes. */
static long results_layout(exec_job *job, double *buffer)
{
    long at = 0;
    for (int k = 0; k < job->count; k++) {
        exec_piece *p = &job->pieces[k];
        p->tally = (part_tally *)take(buffer, &at, TALLY_DOUBLES);
        p->rank_finish_s = take(buffer, &at, p->s->ranks);
    }
    job->links = (net_link_stats *)take(buffer, &at, job->t->link_count * 2 * LINK_STATS_DOUBLES);
    job->queue_bytes = job->sampled ? take(buffer, &at, job->sample_count) : NULL;
    job->failure = (char *)take(buffer, &at, NETWORK_FAILURE_DOUBLES);
    return at;
}

/* In the child: room for every op's times, actor by actor (the kept times'
 * own when the options keep them). */
static void keep_op_times(exec_piece *p)
{
    p->actor_first = malloc(sizeof *p->actor_first * (size_t)(p->s->actors + 1));
    if (!p->actor_first) out_of_memory();
    p->actor_first[0] = 0;
    for (int a = 0; a < p->s->actors; a++) p->actor_first[a + 1] = p->actor_first[a] + p->s->actor[a].op_count;
    p->times = p->kept_times ? p->kept_times : calloc((size_t)p->ops + 1, sizeof *p->times);
    if (!p->times) out_of_memory();
}

long exec_pair_capacity(const schedule *s)
{
    long capacity = 0;
    for (int a = 0; a < s->actors; a++) capacity += s->actor[a].op_count < s->actors ? s->actor[a].op_count : s->actors;
    return capacity;
}

long exec_part_pairs(const schedule *s, const int *actor_nodes, node_pair *pairs)
{
    int *messages = calloc((size_t)s->actors + 1, sizeof *messages), *peers = malloc(sizeof *peers * ((size_t)s->actors + 1));
    if (!messages || !peers) out_of_memory();
    long count = 0;
    for (int a = 0; a < s->actors; a++) {
        int distinct = sched_send_peers(s, a, messages, peers);
        for (int i = 0; i < distinct; i++) {
            pairs[count++] = (node_pair){actor_nodes[a], actor_nodes[peers[i]]};
            messages[peers[i]] = 0; /* for the next sender */
        }
    }
    free(messages);
    free(peers);
    return count;
}

/* The node pairs SimGrid needs routes for, every part's (simgrid_zone_build
 * sorts and merges them: a ring needs N pairs, not a pair per message).
 * Sets *COUNT. */
static node_pair *route_pairs(const exec_job *job, long *count)
{
    long capacity = 0;
    for (int k = 0; k < job->count; k++) capacity += exec_pair_capacity(job->pieces[k].s);
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(capacity + 1));
    if (!pairs) out_of_memory();
    *count = 0;
    for (int k = 0; k < job->count; k++)
        *count += exec_part_pairs(job->pieces[k].s, job->pieces[k].actor_nodes, pairs + *count);
    return pairs;
}

/* The child's job: simulate, and leave the numbers in OUT (results_layout). */
static bool run_job(void *ctx, double *out)
{
    exec_job *job = ctx;
    results_layout(job, out);
    long n = 1;
    bool driven = job->net->drive != NULL; /* no routes in SimGrid, one actor: one host */
    node_pair *pairs = driven ? &(node_pair){job->pieces[0].actor_nodes[0], job->pieces[0].actor_nodes[0]}
                              : route_pairs(job, &n);
    for (int k = 0; k < job->count; k++) {
        exec_piece *p = &job->pieces[k];
        bool online = !job->options.keep_op_times && message_log_applies(p->s);
        p->log = online ? message_log_open(p->s, p->latency_s) : NULL;
        if (!p->log) keep_op_times(p);
    }
    int actors = actor_run_prepare(job);
    job->beat = simgrid_heartbeat();
    job->network = job->net->open(job->t, pairs, (int)n, driven ? 0 : actors, &job->options, job->scale);
    if (!driven) free(pairs);
    if (!job->network) return false;
    actor_run_all(job, actors);
    char why[NETWORK_FAILURE_DOUBLES * sizeof(double)] = "";
    if (!job->net->close(job->network, job->links, job->queue_bytes, why, sizeof why))
        memcpy(job->failure, why, sizeof why);
    for (int k = 0; k < job->count; k++) {
        exec_piece *p = &job->pieces[k];
        if (!p->log) op_times_latencies(p->s, p->times, p->actor_first, p->latency_s);
        message_log_close(p->log);
        if (p->times != p->kept_times) free(p->times);
        free(p->actor_first);
    }
    return true;
}

static void free_job(exec_job *job)
{
    for (int k = 0; k < job->count; k++) {
        message_size_free(&job->pieces[k].size);
        free(job->pieces[k].latency_s);
        free(job->pieces[k].kept_times);
    }
    free(job->pieces);
}

/* The parts' SimGrid actors (one per schedule actor and channel) within
 * what the network holds (network_max_actors): a driven network
 * (network.h) starts none of them. */
static bool hosts_allowed(const exec_part *parts, int count, const sim_options *options, const char *label, diag *d)
{
    double actors = 0;
    for (int k = 0; k < count; k++) actors += (double)parts[k].s->actors * (parts[k].s->channels > 1 ? parts[k].s->channels : 1);
    double most = network_max_actors(options->model);
    if (actors <= most) return true;
    return diag_fail(d, "%s starts %.0f SimGrid actors; a simulation holds at most %.0f (two memory mappings each within "
                     "vm.max_map_count, docs/reliability.md)", label, actors, most);
}

exec_run *exec_start(const topology *t, exec_part *parts, int count, const sim_options *options, const char *label,
                     diag *d)
{
    if (count < 1) {
        diag_fail(d, "nothing to simulate");
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        schedule_seal(parts[k].s);
        if (part_data_bytes(&parts[k]) <= 0) {
            diag_fail(d, "the message size must be at least 1 byte");
            return NULL;
        }
    }
    if (!hosts_allowed(parts, count, options, label, d)) return NULL;
    exec_run *run = calloc(1, sizeof *run);
    long long scale = message_scale(parts, count);
    const queue_sampling *q = options->queue_samples;
    run->job = (exec_job){.t = t, .pieces = calloc((size_t)count, sizeof(exec_piece)), .count = count,
                          .options = *options, .scale = (double)scale, .net = network_for(options),
                          .sampled = q != NULL, .sample_count = q ? q->port_count * q->count : 0};
    for (int k = 0; k < count; k++) {
        exec_piece *p = &run->job.pieces[k];
        p->s = parts[k].s;
        p->actor_nodes = parts[k].actor_nodes;
        p->launch_s = parts[k].launch_s;
        p->virtual_lane = parts[k].virtual_lane;
        for (int tier = 0; tier < TOPO_MAX_TIERS; tier++) {
            p->overhead_s[tier] = parts[k].overhead_s[tier];
            p->charges |= p->overhead_s[tier] > 0;
        }
        message_size_init(&p->size, &parts[k], scale);
        for (int a = 0; a < p->s->actors; a++) p->ops += p->s->actor[a].op_count;
    }
    run->more = malloc(sizeof *run->more * (size_t)(2 * count));
    for (int k = 0; k < count; k++) { /* calloc'd: untouched in the parent until they come back */
        exec_piece *p = &run->job.pieces[k];
        long messages = sched_messages(p->s);
        p->latency_s = calloc((size_t)messages + 1, sizeof *p->latency_s);
        run->more[run->more_count++] = (sim_segment){p->latency_s, messages};
    }
    for (int k = 0; k < count && options->keep_op_times; k++) {
        exec_piece *p = &run->job.pieces[k];
        p->kept_times = calloc((size_t)p->ops + 1, sizeof *p->kept_times);
        run->more[run->more_count++] = (sim_segment){(double *)p->kept_times, p->ops * (long)OP_TIME_DOUBLES};
    }
    run->out_count = results_layout(&run->job, NULL);
    run->out = calloc((size_t)run->out_count, sizeof(double));
    if (!simgrid_spawn_more(run_job, &run->job, run->out, (int)run->out_count, run->more, run->more_count, label,
                            &run->child, d)) {
        free_job(&run->job);
        free(run->out);
        free(run->more);
        free(run);
        return NULL;
    }
    return run;
}

void exec_watch(exec_run *run, child_beat_fn beat, void *ctx)
{
    run->child.on_beat = beat;
    run->child.on_beat_ctx = ctx;
}

bool exec_finish(exec_run *run, exec_result *results, exec_views *views, diag *d)
{
    bool ok = simgrid_join(&run->child, d);
    exec_job *job = &run->job;
    results_layout(job, run->out);
    if (ok && job->failure[0])
        ok = diag_fail(d, "%.*s", (int)(NETWORK_FAILURE_DOUBLES * sizeof(double)) - 1, job->failure);
    for (int k = 0; ok && k < job->count; k++) {
        const exec_piece *p = &job->pieces[k];
        if (p->tally->completed_ops != (double)p->ops)
            ok = diag_fail(d, "the schedule deadlocked in simulation: %.0f of %ld operations completed",
                           p->tally->completed_ops, p->ops);
    }
    for (int k = 0; ok && k < job->count; k++) {
        exec_piece *p = &job->pieces[k];
        exec_result *r = &results[k];
        r->time_s = p->tally->time_s;
        memcpy(r->phase_end_s, p->tally->phase_end_s, sizeof r->phase_end_s);
        r->ranks = p->s->ranks;
        r->rank_finish_s = malloc(sizeof(double) * (size_t)p->s->ranks);
        memcpy(r->rank_finish_s, p->rank_finish_s, sizeof(double) * (size_t)p->s->ranks);
        r->messages = sched_messages(p->s);
        r->latency_s = p->latency_s; /* handed on, not copied: the largest arrays of a run */
        r->op_times = p->kept_times;
        p->latency_s = NULL;
        p->kept_times = NULL;
    }
    if (ok && views) { /* the options are the caller's, and may be gone: the job says what came back */
        views->ports = job->t->link_count * 2;
        views->links = malloc(sizeof *views->links * (size_t)(views->ports + 1));
        memcpy(views->links, job->links, sizeof *views->links * (size_t)views->ports);
        views->queue_bytes = NULL;
        if (job->sampled) {
            views->queue_bytes = malloc(sizeof(double) * (size_t)(job->sample_count + 1));
            memcpy(views->queue_bytes, job->queue_bytes, sizeof(double) * (size_t)job->sample_count);
        }
    }
    free_job(job);
    free(run->out);
    free(run->more);
    free(run);
    return ok;
}

bool execute_schedule(const topology *t, schedule *s, const int *actor_nodes, double size_bytes,
                      const sim_options *options, exec_result *result, diag *d)
{
    exec_part part = {s, actor_nodes, size_bytes, NULL, 0, {0}, 1, 1, 0};
    for (int tier = 0; tier < t->tier_count; tier++) part.overhead_s[tier] = t->tiers[tier].overhead_s;
    char label[96];
    snprintf(label, sizeof label, "%s on %d ranks of platform '%s'", primitive_name(s->prim), s->ranks, t->name);
    exec_run *run = exec_start(t, &part, 1, options, label, d);
    return run && exec_finish(run, result, NULL, d);
}

void exec_result_free(exec_result *r)
{
    free(r->rank_finish_s);
    free(r->latency_s);
    free(r->op_times);
    r->rank_finish_s = r->latency_s = NULL;
    r->op_times = NULL;
}

void exec_views_free(exec_views *v)
{
    free(v->links);
    free(v->queue_bytes);
    v->links = NULL;
    v->queue_bytes = NULL;
}

int *exec_actor_nodes(const schedule *s, const int *rank_nodes)
{
    int *nodes = malloc(sizeof(int) * (size_t)s->actors);
    for (int a = 0; a < s->actors; a++) nodes[a] = a < s->ranks ? rank_nodes[a] : s->switch_node[a - s->ranks];
    return nodes;
}
