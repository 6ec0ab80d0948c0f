/* run_cases.c — a scenario's simulations, in order, at most `jobs` at once.
 *
 * A task is one simulation (plan/plan.h): the k-th algorithm at the m-th
 * size of every case of a concurrent block, each case with all its groups.
 * Tasks are planned (plan/) and started in order; at most `jobs` run at
 * once; each is collected in order and its rows made (report/rows.c).  Rows
 * are then added case by case, algorithm by algorithm, size by size, so the
 * output never depends on `jobs`. */
#include "cli/run_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/progress.h"
#include "cli/run_traffic.h"
#include "exec/packet_budget.h"
#include "net/fluid/simgrid_run.h"
#include "report/rows.h"
#include "report/trace_simulation.h"
#include "util/units.h"

typedef struct task {
    const scenario *s;     /* the scenario it is of (a sweep runs several) */
    sim_options sim;       /* its simulation's options (the scenario's network model) */
    int first, a, m;       /* the block's first case, algorithm and size index */
    int start_status;      /* start_task's exit status */
    int member_count;
    plan_member *members;  /* one per case of the block */
    exec_part *parts;      /* one per group of each member */
    int part_count;
    exec_run *run;
    exec_views views;      /* once simulated */
    double end_s;          /* the simulation's time: its last op */
    result_row *rows;      /* per member, once done */
} task;

static void free_task_work(const scenario *s, task *t)
{
    for (int i = 0; i < t->member_count; i++) plan_member_free(&t->members[i], s->cases[t->members[i].c].groups.count);
    free(t->parts);
    t->parts = NULL;
}

/* "case 0 (allreduce ring at 1 MB)": how messages name task T. */
static void task_label(const scenario *s, const task *t, char *out, size_t size)
{
    const scenario_case *first = &s->cases[t->first];
    char bytes[32];
    units_format(first->sizes[t->m], UNIT_SIZE, bytes, sizeof bytes);
    snprintf(out, size, "case %d%s (%s %s at %s)", t->first, t->member_count > 1 ? " and its concurrent cases" : "",
             primitive_name(first->prim), t->members[0].run.algorithm->name, bytes);
}

/* Plan task T's members and, under run, its executor parts; exit status. */
static int plan_task(const scenario *s, const run_settings *o, task *t)
{
    const scenario_case *first = &s->cases[t->first];
    plan_settings plan = {o->mode, o->verify, o->quiet};
    t->member_count = first->together_count;
    t->members = calloc((size_t)t->member_count, sizeof *t->members);
    t->rows = calloc((size_t)t->member_count, sizeof *t->rows);
    int status = 0;
    for (int i = 0; i < t->member_count && status == 0; i++) {
        plan_member *m = &t->members[i];
        m->c = t->first + i;
        m->a = t->a;
        m->size_bytes = s->cases[m->c].sizes[t->m];
        status = plan_member_prepare(s, &plan, m);
    }
    if (status != 0 || o->mode != MODE_RUN) return status;
    t->parts = plan_parts(s, t->members, t->member_count, &t->part_count);
    return 0;
}

/* Plan task T and, under run, start its simulation; exit status. */
static int start_task(const scenario *s, const run_settings *o, task *t, const sim_options *sim)
{
    int status = plan_task(s, o, t);
    if (status != 0 || o->mode != MODE_RUN) return status;
    const scenario_case *first = &s->cases[t->first];
    char label[160];
    task_label(s, t, label, sizeof label);
    sim_options with = *sim;
    const scenario_case *traffic = scenario_background_case(s, first);
    with.background = traffic ? &traffic->background : NULL;
    if (!o->quiet) plan_note_coupling(with.model, scenario_platform(s, first), t->parts, t->part_count, label);
    diag d = {0};
    t->run = exec_start(scenario_platform(s, first), t->parts, t->part_count, &with, label, &d);
    if (!t->run) {
        diag_print(&d);
        return 3;
    }
    return 0;
}

/* Wait for task T's simulation and hand each member its groups' results;
 * false with D set when it failed. */
static bool collect_task(const scenario *s, task *t, diag *d)
{
    exec_result *results = calloc((size_t)t->part_count + 1, sizeof *results);
    bool ok = exec_finish(t->run, results, &t->views, d);
    t->run = NULL;
    for (int i = 0, n = 0; i < t->member_count; i++) {
        plan_member *m = &t->members[i];
        int groups = s->cases[m->c].groups.count;
        m->results = calloc((size_t)groups, sizeof *m->results);
        if (ok) memcpy(m->results, results + n, sizeof *results * (size_t)groups);
        n += groups;
        for (int g = 0; ok && g < groups; g++) t->end_s = fmax(t->end_s, m->results[g].time_s);
    }
    free(results);
    return ok;
}

/* Collect task T (when it was simulated) and make its rows; exit status. */
static int finish_task(const scenario *s, const run_settings *o, task *t, bool keep)
{
    int status = 0;
    diag d = {0};
    if (t->run && !collect_task(s, t, &d)) {
        if (keep) diag_print(&d);
        status = 3; /* the input was valid: the simulation failed (docs/reliability.md) */
    }
    if (status == 0 && keep) {
        bool lone_exact = scenario_network(s, o->sim.model) == NETWORK_CM02;
        for (int i = 0; i < t->member_count; i++) t->rows[i] = rows_make(s, &t->members[i], lone_exact);
        if (t->views.links)
            rows_add_link_views(scenario_platform(s, &s->cases[t->first]), t->views.links, t->end_s,
                                scenario_network(s, o->sim.model) == NETWORK_PACKET, o->all_links, t->rows,
                                t->member_count);
    }
    exec_views_free(&t->views);
    free_task_work(s, t);
    return status;
}

/* Under the packet model: every simulation of TASKS within the packet-hop
 * budget, before any of them runs (each planned quietly, without
 * verification, and let go); exit status, 2 past the budget. */
static int check_packet_budgets(const scenario *s, const run_settings *o, const task *tasks, int count)
{
    run_settings quiet = *o;
    quiet.verify = false;
    quiet.quiet = true;
    int status = 0;
    for (int i = 0; i < count && status == 0; i++) {
        task t = {.first = tasks[i].first, .a = tasks[i].a, .m = tasks[i].m};
        status = plan_task(s, &quiet, &t);
        char label[160];
        diag d = {0};
        if (status == 0) {
            task_label(s, &t, label, sizeof label);
            if (!packet_budget_check(scenario_platform(s, &s->cases[t.first]), t.parts, t.part_count, label, &d)) {
                diag_print(&d);
                status = 2;
            }
        }
        free_task_work(s, &t);
        free(t.members);
        free(t.rows);
    }
    return status;
}

/* Rows in the scenario's order: case, algorithm, size; then crossovers.  A
 * traffic case has one row, of TRAFFIC_ROWS (whose flows R then owns). */
static void add_rows(const scenario *s, const task *tasks, int task_count, const result_row *traffic_rows, report *r)
{
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        if (k->traffic.kind != TRAFFIC_NONE) {
            report_add(r, &traffic_rows[c]);
            continue;
        }
        prediction largest[SCENARIO_MAX_ALGORITHMS];
        for (int i = 0; i < task_count; i++) {
            const task *t = &tasks[i];
            if (t->first != k->together_first) continue;
            report_add(r, &t->rows[c - t->first]);
            if (t->m == plan_largest_size(k)) largest[t->a] = t->members[c - t->first].pr;
        }
        rows_add_crossovers(r, c, k, largest);
    }
}

/* "case 1 allreduce dbt 4 MB" (and the concurrent cases of its block). */
static void describe_task(const scenario *s, const task *t, char *out, size_t size)
{
    const scenario_case *k = &s->cases[t->first];
    char bytes[32];
    units_format(k->sizes[t->m], UNIT_SIZE, bytes, sizeof bytes);
    int used = snprintf(out, size, "case %d", t->first);
    for (int c = t->first + 1; c < t->first + k->together_count && used < (int)size; c++)
        used += snprintf(out + used, size - (size_t)used, "+%d", c);
    if (used < (int)size)
        snprintf(out + used, size - (size_t)used, " %s %s %s", primitive_name(k->prim), k->algorithms[t->a], bytes);
}

/* A simulation's heartbeat onto the progress line BAR. */
static void show_beat(void *bar, const heartbeat *h, double waited_s)
{
    progress_beat(bar, h->time_s, h->operations, waited_s);
}

#define TRACE_SAMPLES 1000 /* per queue, evenly over the simulation */

/* Simulate task FIRST (already run) again, keeping every op's times and
 * sampling the queues of its busiest links (packet model), and write it as
 * a trace to o->trace_path; exit status. */
static int write_trace(const scenario *s, const run_settings *o, const sim_options *base, const task *first)
{
    run_settings quiet = *o;
    quiet.verify = false;
    task t = {.first = first->first, .a = first->a, .m = first->m};
    const link_row *hot = first->rows[0].hot;
    int hot_count = base->model == NETWORK_PACKET ? first->rows[0].hot_count : 0;
    int ports[REPORT_HOT_LINKS];
    for (int i = 0; i < hot_count; i++) ports[i] = hot[i].port;
    queue_sampling sampling = {ports, hot_count, first->end_s / (TRACE_SAMPLES - 1), TRACE_SAMPLES};
    sim_options sim = *base;
    sim.keep_op_times = true;
    sim.queue_samples = hot_count ? &sampling : NULL;
    int status = start_task(s, &quiet, &t, &sim);
    exec_result *results = calloc((size_t)t.part_count + 1, sizeof *results);
    diag d = {0};
    if (status == 0 && !exec_finish(t.run, results, &t.views, &d)) status = 2;
    if (status == 0) {
        char title[256], model[64];
        snprintf(title, sizeof title, "collsim %s, network model %s", s->name, network_label(base, model, sizeof model));
        traced_queues queues = {hot, hot_count, t.views.queue_bytes, TRACE_SAMPLES, sampling.interval_s};
        if (!trace_simulation(s, t.members, t.member_count, t.parts, results, &queues, title, o->trace_path, &d))
            status = 2;
    }
    if (status != 0 && d.set) diag_print(&d);
    for (int n = 0; n < t.part_count; n++) exec_result_free(&results[n]);
    free(results);
    exec_views_free(&t.views);
    free_task_work(s, &t);
    free(t.members);
    free(t.rows);
    return status;
}

/* Run the COUNT TASKS in order, at most o->jobs at once.  Without DONE the
 * first failure stops the rest (run); with it every task runs and DONE sees
 * each as it finishes, in order, with its exit status (a sweep).  The exit
 * status: 0, or the first failure's. */
static int run_pool(task *tasks, int count, const run_settings *o, run_simulation_done done, void *context)
{
    int status = 0, started = 0, finished = 0;
    int jobs = o->mode == MODE_RUN && o->jobs > 1 ? o->jobs : 1;
    progress bar;
    progress_start(&bar, o->progress, count);
    while (finished < count) {
        if ((status == 0 || done) && started < count && started - finished < jobs) {
            progress_clear(&bar); /* verification lines and notes print on a line of their own */
            task *t = &tasks[started++];
            t->start_status = start_task(t->s, o, t, &t->sim);
            if (status == 0) status = t->start_status;
            continue;
        }
        task *t = &tasks[finished++];
        char current[160];
        describe_task(t->s, t, current, sizeof current);
        if (status == 0 || done) progress_show(&bar, finished - 1, current);
        if ((status == 0 || done) && bar.on && t->run) exec_watch(t->run, show_beat, &bar);
        int ended = finish_task(t->s, o, t, t->start_status == 0 && (status == 0 || done));
        if (t->start_status != 0) ended = t->start_status;
        if (done) {
            done(context, finished - 1, ended, t->members, ended == 0 ? t->rows : NULL, t->member_count);
            for (int k = 0; ended == 0 && k < t->member_count; k++) free(t->rows[k].links);
        }
        if (status == 0) status = ended;
        if (status != 0 && !done && started == finished) break;
    }
    for (int i = finished; i < started; i++) finish_task(tasks[i].s, o, &tasks[i], false);
    if (status == 0 || done) progress_show(&bar, finished, NULL);
    progress_clear(&bar);
    return status;
}

int run_simulations(const run_simulation *list, int count, const run_settings *o, run_simulation_done done,
                    void *context)
{
    diag d = {0};
    if (!simgrid_check_options(&o->sim, &d)) {
        diag_print(&d);
        return 2;
    }
    task *tasks = calloc((size_t)count + 1, sizeof *tasks);
    for (int i = 0; i < count; i++) {
        tasks[i] = (task){.s = list[i].s, .sim = o->sim, .first = list[i].first, .a = list[i].a, .m = list[i].m};
        tasks[i].sim.model = scenario_network(list[i].s, o->sim.model);
    }
    int status = run_pool(tasks, count, o, done, context);
    for (int i = 0; i < count; i++) {
        free(tasks[i].members);
        free(tasks[i].rows);
    }
    free(tasks);
    return status;
}

/* The options and cases that the scenario's network contradicts, before
 * anything runs; exit status. */
static int check_run_options(const scenario *s, const run_settings *o, network_model model)
{
    if (o->mode != MODE_RUN) return 0;
    if (o->ties_given && model != NETWORK_PACKET) {
        fprintf(stderr, "collsim run: --ties orders the packet model's events at one attosecond; this run uses the %s "
                "model: add --model packet, or drop --ties\n", network_model_name(model));
        return 2;
    }
    for (int c = 0; c < s->case_count && model != NETWORK_PACKET; c++) {
        const scenario_case *k = &s->cases[c];
        if (k->virtual_lane == 0 && k->background.virtual_lane == 0) continue;
        diag d = {0};
        diag_at(&d, s->path, k->virtual_lane ? k->virtual_lane_line : k->line, k->virtual_lane ? k->virtual_lane_column : 1,
                "virtual lanes are the packet model's (a buffer and credits per lane, docs/packet.md); the %s model has "
                "none: say 'network: packet' or run with --model packet, or remove 'virtual_lane'",
                network_model_name(model));
        diag_print(&d);
        return 2;
    }
    return 0;
}

int run_cases(const scenario *s, const run_settings *o, report *r)
{
    diag d = {0};
    /* predict --verify builds every schedule: its limits are verify's */
    if (!plan_check(s, o->mode == MODE_PREDICT && o->verify ? MODE_VERIFY : o->mode, o->sim.model, &d)) {
        diag_print(&d);
        return 2;
    }
    static char label[64]; /* the report keeps it to the end: one run per process */
    sim_options sim = o->sim;
    sim.model = scenario_network(s, o->sim.model);
    if (check_run_options(s, o, sim.model) != 0) return 2;
    if (!o->quiet) {
        plan_note_short_sweeps(s);
        plan_note_uncalibrated(s);
    }
    if (o->mode == MODE_RUN && !simgrid_check_options(&o->sim, &d)) {
        diag_print(&d);
        return 2;
    }
    if (o->mode == MODE_RUN) r->model = network_label(&sim, label, sizeof label); /* every row's model */
    int task_count = 0;
    for (int c = 0; c < s->case_count; c++)
        if (s->cases[c].together_first == c) task_count += s->cases[c].algorithm_count * s->cases[c].size_count;
    task *tasks = calloc((size_t)task_count + 1, sizeof *tasks);
    for (int c = 0, n = 0; c < s->case_count; c++)
        if (s->cases[c].together_first == c)
            for (int a = 0; a < s->cases[c].algorithm_count; a++)
                for (int m = 0; m < s->cases[c].size_count; m++) tasks[n++] = (task){.first = c, .a = a, .m = m};
    for (int i = 0; i < task_count; i++) {
        tasks[i].s = s;
        tasks[i].sim = sim;
    }
    int status = 0;
    if (o->mode == MODE_RUN && sim.model == NETWORK_PACKET) status = check_packet_budgets(s, o, tasks, task_count);
    if (status == 0) status = run_pool(tasks, task_count, o, NULL, NULL);
    result_row *traffic_rows = calloc((size_t)s->case_count + 1, sizeof *traffic_rows);
    run_settings traffic = *o;
    traffic.sim = sim;
    for (int c = 0; c < s->case_count && status == 0 && o->mode != MODE_VERIFY; c++)
        if (s->cases[c].traffic.kind != TRAFFIC_NONE && s->cases[c].together_first == c)
            status = run_traffic(s, &traffic, c, traffic_rows);
    if (status == 0 && o->mode != MODE_VERIFY) add_rows(s, tasks, task_count, traffic_rows, r);
    for (int c = 0; !(status == 0 && o->mode != MODE_VERIFY) && c < s->case_count; c++) free(traffic_rows[c].flows);
    free(traffic_rows);
    bool rows_reported = status == 0 && o->mode != MODE_VERIFY; /* the report owns their link lists */
    if (status == 0 && o->mode == MODE_RUN && o->trace_path && task_count > 0) status = write_trace(s, o, &sim, &tasks[0]);
    for (int i = 0; i < task_count; i++) {
        for (int k = 0; !rows_reported && tasks[i].rows && k < tasks[i].member_count; k++) free(tasks[i].rows[k].links);
        free(tasks[i].members);
        free(tasks[i].rows);
    }
    free(tasks);
    return status;
}
