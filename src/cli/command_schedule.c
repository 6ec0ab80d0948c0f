/* command_schedule.c — `collsim schedule show` and `collsim schedule export`
 * (docs/schedules.md): the schedule of a built-in algorithm (on N ranks), of
 * an MSCCL algorithm file, or of a scenario case's algorithm, printed per
 * rank and lane, or written as MSCCL's XML. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/msccl_program.h"
#include "cli/commands.h"
#include "plan/plan.h"
#include "sched/critical_path.h"
#include "sched/msccl_xml.h"
#include "util/output_file.h"

/* What the operand names, built: one schedule per algorithm (a case may list several). */
typedef struct named_schedules {
    int count;
    schedule *items[SCENARIO_MAX_ALGORITHMS];
    char names[SCENARIO_MAX_ALGORITHMS][40];
} named_schedules;

static bool ends_with(const char *text, const char *suffix)
{
    size_t a = strlen(text), b = strlen(suffix);
    return a >= b && strcmp(text + a - b, suffix) == 0;
}

static bool read_count(const char *command, const char *option, const char *text, int low, int high, int *out)
{
    char *end;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end || v < low || v > high) {
        fprintf(stderr, "collsim %s: --%s takes a whole number from %d to %d%s%s\n", command, option, low, high,
                text ? ", not " : "", text ? text : "");
        return false;
    }
    *out = (int)v;
    return true;
}

/* A built-in algorithm on --ranks N; exit status. */
static int build_builtin(const cli_args *args, const char *command, named_schedules *out)
{
    const char *name = args->operands[0];
    primitive prim = PRIM_ALLREDUCE;
    const char *text = args->value[OPT_PRIMITIVE];
    if (text && !primitive_from_name(text, &prim)) {
        fprintf(stderr, "collsim %s: unknown primitive '%s' (collsim list primitives)\n", command, text);
        return 2;
    }
    const algorithm *a = algorithm_find(prim, name);
    if (!a) {
        fprintf(stderr, "collsim %s: no %s algorithm '%s' (collsim list algorithms); a file ends in .xml or .yaml\n",
                command, primitive_name(prim), name);
        return 2;
    }
    if (algorithm_inc_capabilities(a) && args->command == CMD_SCHEDULE_EXPORT) {
        fprintf(stderr, "collsim %s: MSCCL cannot run %s %s: its switch actors reduce or multicast inside the network "
                "(in-network collectives, explainer 04 §1); MSCCL's threadblocks run on GPUs only\n", command,
                primitive_name(prim), name);
        return 2;
    }
    if (a->composition != COMPOSITION_FLAT) {
        fprintf(stderr, "collsim %s: %s %s takes the platform's domains (nodes, pods): name a scenario whose case runs it "
                "(collsim %s SCENARIO.yaml --case K)\n", command, primitive_name(prim), name, command);
        return 2;
    }
    algo_params p = {.segments = 0, .root = 0, .peer = 1, .seed = 1, .dim_count = 1, .channels = 1, .tiers = 1,
                     .layout = CHANNELS_SHARED};
    if (!args->value[OPT_RANKS]) {
        fprintf(stderr, "collsim %s: a built-in algorithm needs --ranks N\n", command);
        return 2;
    }
    if (!read_count(command, "ranks", args->value[OPT_RANKS], 2, 4096, &p.ranks) ||
        (args->value[OPT_CHANNELS] && !read_count(command, "channels", args->value[OPT_CHANNELS], 1, SCHED_MAX_CHANNELS, &p.channels)))
        return 2;
    p.dims[0] = p.ranks;
    char why[512] = "";
    schedule *s = algorithm_build(a, &p, why, sizeof why);
    if (!s) {
        fprintf(stderr, "collsim %s: %s %s on %d ranks: %s\n", command, primitive_name(prim), name, p.ranks, why);
        return 2;
    }
    out->items[0] = s;
    snprintf(out->names[0], sizeof out->names[0], "%s_%s_%d", primitive_name(prim), name, p.ranks);
    out->count = 1;
    return 0;
}

/* An MSCCL file, on its own ngpus; exit status. */
static int build_file(const char *path, named_schedules *out)
{
    msccl_program p;
    diag d = {0};
    if (!msccl_program_load(path, &p, &d)) {
        diag_print(&d);
        return 2;
    }
    schedule *s = msccl_schedule(&p, p.prim, p.ngpus, 0, &d);
    if (s) {
        out->items[0] = s;
        snprintf(out->names[0], sizeof out->names[0], "%.39s", p.name[0] ? p.name : "msccl");
        out->count = 1;
    } else diag_print(&d);
    msccl_program_free(&p);
    return s ? 0 : 2;
}

/* Each algorithm of case --case K of a scenario, on its first group at its first size; exit status. */
static int build_case(const cli_args *args, const char *command, named_schedules *out, scenario *s)
{
    diag d = {0};
    if (!scenario_load(args->operands[0], s, &d)) {
        diag_print(&d);
        return 2;
    }
    int c = 0;
    if (args->value[OPT_CASE] && !read_count(command, "case", args->value[OPT_CASE], 0, s->case_count - 1, &c)) return 2;
    const scenario_case *k = &s->cases[c];
    for (int a = 0; a < k->algorithm_count; a++) {
        plan_member m = {.c = c, .a = a, .size_bytes = k->sizes[0]};
        if (!plan_choose(s, c, a, k->sizes[0], MODE_RUN, &m)) continue;
        char why[512] = "";
        schedule *built = plan_schedule(s, c, m.run.algorithm, m.run.channels, 0, k->sizes[0], false, why, sizeof why);
        if (!built) {
            fprintf(stderr, "%s: case %d %s: %s\n", s->path, c, k->algorithms[a], why);
            return 2;
        }
        out->items[out->count] = built;
        snprintf(out->names[out->count++], sizeof out->names[0], "%.39s", m.run.algorithm->name);
    }
    return 0;
}

static const char *kind_name(const sched_op *op)
{
    static const char *const names[] = {"send", "receive", "reduce", "copy", "add"};
    return names[op->kind];
}

/* Lane of OP: its connection (channel, peer, direction), or -1 for local ops. */
static long long lane_of(const sched_op *op)
{
    if (sched_op_local(op)) return -1;
    return ((long long)op->channel << 33) | ((long long)op->peer << 1) | (op->kind != OP_SEND);
}

static void print_range(FILE *out, const schedule *s, const sched_actor *a, const sched_op *op)
{
    const char *unit = s->slots > 0 ? "slot" : "chunk";
    for (int i = 0; i < sched_op_range_count(op); i++) {
        chunk_range r = sched_op_range(a, op, i);
        fprintf(out, i ? "," : " ");
        if (r.count == 1) fprintf(out, "%s %d", unit, r.first);
        else fprintf(out, "%ss %d-%d", unit, r.first, r.first + r.count - 1);
    }
    if (sched_op_local(op)) fprintf(out, " from %s %d", unit, op->range_first);
}

static double one_step(void *context, int from, int to, int chunks)
{
    (void)context, (void)from, (void)to, (void)chunks;
    return 1;
}

static void show(FILE *out, const schedule *s, const char *name)
{
    schedule_seal((schedule *)s);
    long ops = 0;
    for (int a = 0; a < s->actors; a++) ops += s->actor[a].op_count;
    sched_path path;
    bool live = sched_critical_path(s, one_step, NULL, &path);
    fprintf(out, "%s: %s on %d ranks, %d chunks%s, %ld ops, %ld messages; critical path %d messages\n", name,
            primitive_name(s->prim), s->ranks, s->chunks, s->slots > 0 ? " (in per-rank buffers, as slots)" : "", ops,
            sched_messages(s), live ? path.message_count : -1);
    if (live) sched_path_free(&path);
    for (int a = 0; a < s->actors; a++) {
        const sched_actor *actor = &s->actor[a];
        fprintf(out, "%s %d\n", a < s->ranks ? "rank" : "switch", a);
        bool *shown = calloc((size_t)actor->op_count + 1, 1);
        for (int first = 0; first < actor->op_count; first++) {
            if (shown[first]) continue;
            long long lane = lane_of(&actor->ops[first]);
            const sched_op *head = &actor->ops[first];
            if (lane < 0) fprintf(out, "  lane: local copies and reductions\n");
            else fprintf(out, "  lane: %s %d, channel %d\n", head->kind == OP_SEND ? "send to" : "receive from", head->peer,
                         head->channel);
            for (int o = first; o < actor->op_count; o++) {
                const sched_op *op = &actor->ops[o];
                if (shown[o] || lane_of(op) != lane) continue;
                shown[o] = true;
                fprintf(out, "    op %d: %s", o, kind_name(op));
                print_range(out, s, actor, op);
                bool any = false;
                for (int d = 0; d < op->dep_count; d++) {
                    int dep = actor->deps[op->dep_first + d];
                    if (lane >= 0 && lane_of(&actor->ops[dep]) == lane) continue; /* the lane's order */
                    fprintf(out, "%s%d", any ? ", " : "; after op ", dep);
                    any = true;
                }
                fputc('\n', out);
            }
        }
        free(shown);
    }
}

static int export_one(const cli_args *args, const schedule *s, const char *name)
{
    const char *format = args->value[OPT_FORMAT] ? args->value[OPT_FORMAT] : "msccl";
    const char *protocol = args->value[OPT_PROTOCOL] ? args->value[OPT_PROTOCOL] : "Simple";
    if (strcmp(format, "msccl") != 0) {
        fprintf(stderr, "collsim schedule export: --format takes msccl (MSCCL's algorithm XML), not '%s'\n", format);
        return 2;
    }
    if (strcmp(protocol, "Simple") != 0 && strcmp(protocol, "LL128") != 0 && strcmp(protocol, "LL") != 0) {
        fprintf(stderr, "collsim schedule export: --protocol takes MSCCL's Simple, LL128 or LL, not '%s'\n", protocol);
        return 2;
    }
    char *text = NULL, why[512] = "";
    size_t size = 0;
    FILE *memory = open_memstream(&text, &size);
    bool ok = msccl_export(s, name, protocol, memory, why, sizeof why);
    fclose(memory);
    if (!ok) {
        fprintf(stderr, "collsim schedule export: MSCCL cannot run %s: %s\n", name, why);
        free(text);
        return 2;
    }
    output_file f;
    diag d = {0};
    const char *path = args->value[OPT_OUTPUT] ? args->value[OPT_OUTPUT] : "-";
    if (!output_open(&f, path, &d)) {
        diag_print(&d);
        free(text);
        return 2;
    }
    fwrite(text, 1, size, f.stream);
    free(text);
    if (!output_commit(&f, &d)) {
        diag_print(&d);
        return 2;
    }
    return 0;
}

int command_schedule(const cli_args *args)
{
    const char *command = cli_command_name(args->command), *operand = args->operands[0];
    named_schedules built = {0};
    scenario s = {0};
    bool is_scenario = ends_with(operand, ".yaml") || ends_with(operand, ".yml");
    int status;
    if (is_scenario) status = build_case(args, command, &built, &s);
    else if (ends_with(operand, ".xml")) {
        status = args->command == CMD_SCHEDULE_EXPORT ? 2 : build_file(operand, &built);
        if (args->command == CMD_SCHEDULE_EXPORT)
            fprintf(stderr, "collsim %s: %s is already an MSCCL file: collsim schedule show reads it\n", command, operand);
    } else status = build_builtin(args, command, &built);
    if (status == 0 && args->command == CMD_SCHEDULE_SHOW)
        for (int i = 0; i < built.count; i++) show(stdout, built.items[i], built.names[i]);
    if (status == 0 && args->command == CMD_SCHEDULE_EXPORT)
        status = built.count > 0 ? export_one(args, built.items[0], built.names[0]) : 2;
    for (int i = 0; i < built.count; i++) schedule_free(built.items[i]);
    if (is_scenario) scenario_free(&s);
    return status;
}
