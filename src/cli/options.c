/* options.c — the command and option tables (options.h), their getopt_long
 * parser and the usage text printed by --help (and turned into collsim.1 by
 * help2man: the man page is built from this file's text). */
#include "cli/options.h"

#include <getopt.h>
#include <string.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

typedef struct command_spec {
    const char *name;          /* as typed: "run", "platform describe" */
    const char *operands;      /* the operands' synopsis */
    int min_operands, max_operands;
    const char *summary;       /* for the top-level usage; lines after the first indented */
    const char *description;   /* for the command's own --help */
} command_spec;

static const command_spec commands[CMD_COUNT] = {
    [CMD_RUN] = {"run", "SCENARIO.yaml", 1, 1,
                 "simulate every case of a scenario, each time beside its "
                 "alpha-beta prediction, and fit eta per case",
                 "Simulate every case of SCENARIO.yaml on its platform with SimGrid, set each"
                 "  simulated time beside its alpha-beta prediction, and fit the "
                 "contention coefficients eta_alpha and eta_beta per case and algorithm."},
    [CMD_PREDICT] = {"predict", "SCENARIO.yaml", 1, 1,
                     "the analytic alpha-beta model alone, nothing simulated",
                     "Predict every case of SCENARIO.yaml with the analytic alpha-beta model alone "
                     "(nothing is simulated): scenarios/seed-*.yaml reproduce the seed texts' tables."},
    [CMD_VERIFY] = {"verify", "SCENARIO.yaml", 1, 1,
                    "run every schedule on data, no timing",
                    "Run every schedule of SCENARIO.yaml on data (a fingerprint per chunk) and check "
                    "the primitive's postcondition on every rank; nothing is timed."},
    [CMD_PLATFORM_DESCRIBE] = {"platform describe", "PLATFORM.yaml", 1, 1,
                               "ranks, switches, links, per-tier alpha and BW and "
                               "their split over the links, diameter, bisection",
                               "Describe the fabric PLATFORM.yaml builds: ranks, switches per tier, links, each "
                               "tier's alpha and BW as the formulas use them and how alpha is split over the "
                               "links, the diameter, the bisection bandwidth and the routing in force."},
    [CMD_PLATFORM_XML] = {"platform xml", "PLATFORM.yaml", 1, 1,
                          "the SimGrid platform collsim builds (with its routes "
                          "and network configuration; smpirun -platform loads it)",
                          "Write the SimGrid XML platform that collsim builds from PLATFORM.yaml: hosts, "
                          "links, the routes between ranks and a <config> block with collsim's network "
                          "settings, so that SimGrid's own tools (smpirun -platform) load it as is."},
    [CMD_PLATFORM_ROUTE] = {"platform route", "PLATFORM.yaml SRC DST", 3, 3,
                            "the route between two nodes (rank number or switch "
                            "name) and one message simulated over it",
                            "Print the route between SRC and DST (a rank number or a switch name) and "
                            "simulate one message over it, against latency + size/BW."},
    [CMD_LIST] = {"list", "platforms|algorithms|primitives", 1, 1,
                  "the platform kinds, the algorithms or the primitives",
                  "List the platform kinds, the algorithms (per primitive, with their seed sections) "
                  "or the primitives (and what M means for each)."},
    [CMD_CALIBRATE] = {"calibrate", "PLATFORM.yaml LOG...", 2, CLI_MAX_OPERANDS,
                       "fit launch, per-hop latency and bandwidth per protocol "
                       "regime from nccl-tests / rccl-tests logs",
                       "Read nccl-tests / rccl-tests result logs (all_reduce_perf, all_gather_perf, "
                       "reduce_scatter_perf, alltoall_perf, broadcast_perf, reduce_perf, sendrecv_perf), "
                       "find the size regimes where each measured curve changes slope (protocol switches), "
                       "fit per regime the launch cost, per-hop latency and bandwidth of collsim's model "
                       "by least squares on relative error, print every point's residual, and write "
                       "PLATFORM.yaml with the fitted values (docs/calibration.md)."},
    [CMD_SWEEP] = {"sweep", "SWEEP.yaml", 1, 1,
                   "vary a scenario's platform, case and model keys over a grid or a list; list, plan, run it or "
                   "a shard of it (one JSON per simulation, resumable), report it",
                   "Derive one scenario per axis point of SWEEP.yaml (its base scenario with the axis values set: "
                   "docs/sweeps.md), check them all, then list the simulations with their stable ids (--list), "
                   "estimate their cost (--plan), or run them: all of them into one report (-o, --format, --plot), "
                   "or a share (--shard K/N, --id) into --out DIR, one JSON file per simulation, skipping those "
                   "already complete there."},
    [CMD_MERGE] = {"merge", "DIR...", 1, CLI_MAX_OPERANDS,
                   "a sweep's output folders back into one report",
                   "Read the per-simulation results that collsim sweep --out wrote into DIR... and write the report "
                   "collsim sweep writes when it runs the whole sweep on one machine (table, CSV, JSON, plot); every "
                   "missing or failed simulation is named, and then nothing is written (exit 1)."},
    [CMD_SCHEDULE_SHOW] = {"schedule show", "ALGORITHM|FILE.xml|SCENARIO.yaml", 1, 1,
                           "a schedule's ops per rank and lane: a built-in "
                           "algorithm, an MSCCL file or a scenario case's",
                           "Print the schedule of a built-in ALGORITHM (on --ranks N, --primitive P), of an "
                           "MSCCL algorithm FILE.xml, or of each algorithm of a case of SCENARIO.yaml (--case K): "
                           "per rank and lane (a connection: a channel, a peer and a direction, which an MSCCL "
                           "threadblock runs), every op with the chunks it moves and the ops of other lanes it "
                           "waits for, and the critical path in messages (docs/schedules.md)."},
    [CMD_SCHEDULE_EXPORT] = {"schedule export", "ALGORITHM|SCENARIO.yaml", 1, 1,
                             "a built-in algorithm's schedule as an MSCCL "
                             "algorithm file (XML), or why MSCCL cannot run it",
                             "Write the schedule of a built-in ALGORITHM (on --ranks N, --primitive P, --channels C) "
                             "or of a case of SCENARIO.yaml (--case K, its first algorithm and group) as an MSCCL "
                             "algorithm file that MSCCL's runtime loads: one threadblock per connection, every "
                             "dependency kept, every attribute its parser requires.  Exit 2, saying why, for an "
                             "algorithm MSCCL cannot express (docs/schedules.md)."},
};

#define ON(c) (1u << (c))
#define SCENARIO_COMMANDS (ON(CMD_RUN) | ON(CMD_PREDICT) | ON(CMD_VERIFY))
#define SCHEDULE_COMMANDS (ON(CMD_SCHEDULE_SHOW) | ON(CMD_SCHEDULE_EXPORT))
#define ALL_COMMANDS ((1u << CMD_COUNT) - 1)
#define REPORT_COMMANDS (ON(CMD_SWEEP) | ON(CMD_MERGE))

typedef struct option_spec {
    option_id id;
    const char *long_name;
    char short_name;           /* 0: none */
    const char *argument;      /* NULL for a flag */
    unsigned commands;         /* ON(command) for each command it applies to */
    const char *help;          /* lines after the first indented */
} option_spec;

/* An option may appear twice, with different commands and help. */
static const option_spec options[] = {
    {OPT_FORMAT, "format", 0, "FORMAT", ON(CMD_RUN) | ON(CMD_PREDICT) | REPORT_COMMANDS,
     "table (nccl-tests style), csv, json or nccl-tests (each series an nccl-tests log, "
     "which collsim calibrate reads; docs/output.md); by default the "
     "extension of -o FILE (.csv, .json), else table"},
    {OPT_FORMAT, "format", 0, "FORMAT", ON(CMD_PLATFORM_DESCRIBE), "table (default) or json, for scripts"},
    {OPT_OUTPUT, "output", 'o', "FILE", ON(CMD_CALIBRATE),
     "write the calibrated platform to FILE (default: standard output); replaced whole or not at all"},
    {OPT_ALGORITHM, "algorithm", 0, "FAMILY", ON(CMD_CALIBRATE),
     "the algorithm the logs ran (ring, tree or nvls) where a log does not name it (NCCL_ALGO); "
     "without either, each size regime is the library's own choice as collsim's tuner makes it"},
    {OPT_OUTPUT, "output", 'o', "FILE", ON(CMD_RUN) | ON(CMD_PREDICT) | REPORT_COMMANDS,
     "write the results to FILE ('-': standard output, the default); a regular "
     "file is replaced whole or not at all, a device or FIFO written into; "
     "with csv, also FILE's .eta.csv, .terms.csv, .crossovers.csv and "
     ".hot_links.csv"},
    {OPT_PLOT, "plot", 0, "FILE", ON(CMD_RUN) | ON(CMD_PREDICT) | REPORT_COMMANDS,
     "draw time and busbw against size per case with gnuplot into FILE "
     "(.svg, .png or .pdf)"},
    {OPT_VERIFY, "verify", 0, NULL, ON(CMD_RUN) | ON(CMD_PREDICT),
     "also run every schedule on data first (collsim verify); its lines go to "
     "standard error"},
    {OPT_BASELINE, "baseline", 0, "FILE", ON(CMD_RUN),
     "compare the simulated times with a recorded run (a collsim run JSON); "
     "exit 1 on a drift past --rtol"},
    {OPT_RTOL, "rtol", 0, "X", ON(CMD_RUN), "relative tolerance of --baseline (default 1e-9)"},
    {OPT_WRITE_BASELINE, "write-baseline", 0, "FILE", ON(CMD_RUN), "record this run's JSON in FILE (scripts/regress)"},
    {OPT_JOBS, "jobs", 'j', "N", ON(CMD_RUN) | ON(CMD_SWEEP), "run up to N simulations at once (the output does not change)"},
    {OPT_MODEL, "model", 0, "MODEL", ON(CMD_RUN),
     "network model: cm02 (SimGrid's fluid model, exact: the default), lv08 "
     "(SimGrid's TCP-calibrated model) or packet (collsim's packet-level model: "
     "queues, credits, docs/packet.md); overrides a scenario's network key"},
    {OPT_TIES, "ties", 0, "ORDER", ON(CMD_RUN),
     "packet model: the order of events at one attosecond, scheduled (the "
     "order they were scheduled: the default) or shuffled(SEED) (an order "
     "drawn from SEED); contended results move with it (docs/packet.md §9): "
     "a few seeds show by how much"},
    {OPT_LINKS, "links", 0, NULL, ON(CMD_RUN),
     "list every link direction of each simulation (bytes, utilization, and "
     "under --model packet its buffer and stalls), not only the ten busiest "
     "(JSON links; CSV FILE's .links.csv; table lines under each row)"},
    {OPT_TRACE, "trace", 0, "FILE.json", ON(CMD_RUN),
     "write the scenario's first simulation as a Chrome / Perfetto trace "
     "(ui.perfetto.dev): each rank a track of its operations, and under "
     "--model packet the busiest links' queues as counters (docs/output.md)"},
    {OPT_QUIET, "quiet", 'q', NULL, SCENARIO_COMMANDS | ON(CMD_CALIBRATE) | ON(CMD_SWEEP), "no progress and no notes on standard error (errors still)"},
    {OPT_PROGRESS, "progress", 0, NULL, ON(CMD_RUN) | ON(CMD_SWEEP),
     "show progress on standard error even when it is not a terminal"},
    {OPT_CFG, "cfg", 0, "NAME:VALUE", ON(CMD_RUN) | ON(CMD_SWEEP),
     "a SimGrid configuration option for every simulation (repeatable); "
     "an unknown NAME is refused"},
    {OPT_MEASURED, "measured", 0, "LOG", ON(CMD_RUN) | ON(CMD_PREDICT),
     "an nccl-tests / rccl-tests log measured on the platform (repeatable): "
     "each row of the same collective, ranks and size gets the measured "
     "time and the errors against it, in every format and in --plot"},
    {OPT_ROUTES, "routes", 0, "WHICH", ON(CMD_PLATFORM_XML),
     "all (default: every rank to every rank), ring (each rank to its "
     "neighbours) or none"},
    {OPT_SIZE, "size", 0, "SIZE", ON(CMD_PLATFORM_ROUTE), "the message to simulate (default 1MB; units as 16MB, 4MiB)"},
    {OPT_LIST, "list", 0, NULL, ON(CMD_SWEEP),
     "print one line per simulation: its id (the same on every machine and run), its axis point and what it "
     "simulates; with --shard or --id, only those"},
    {OPT_PLAN, "plan", 0, NULL, ON(CMD_SWEEP),
     "print the number of simulations and their estimated cost from their schedule sizes (schedule operations, "
     "CPU seconds), the whole sweep's or with --shard its share's"},
    {OPT_SHARD, "shard", 0, "K/N", ON(CMD_SWEEP),
     "run only shard K of N (0 <= K < N; a Slurm array's $SLURM_ARRAY_TASK_ID): the simulations dealt out so that "
     "each shard's estimated cost is about the same"},
    {OPT_ID, "id", 0, "ID[,ID...]", ON(CMD_SWEEP), "run only the simulations of these ids (collsim sweep --list)"},
    {OPT_OUT, "out", 0, "DIR", ON(CMD_SWEEP),
     "write each simulation's results to DIR/ID.json (whole or not at all) and the sweep's manifest to "
     "DIR/sweep.json; skip the simulations already complete there (resume)"},
    {OPT_BUDGET, "budget", 0, "X", ON(CMD_SWEEP),
     "refuse to run or plan more than X: schedule operations (2e9), or CPU time (3600s, 90min, 12h) at "
     "docs/sweeps.md's rate"},
    {OPT_FORMAT, "format", 0, "FORMAT", ON(CMD_SCHEDULE_EXPORT), "msccl (MSCCL's algorithm XML: the default and only one)"},
    {OPT_OUTPUT, "output", 'o', "FILE", ON(CMD_SCHEDULE_EXPORT),
     "write the XML to FILE (default: standard output); replaced whole or not at all"},
    {OPT_RANKS, "ranks", 0, "N", SCHEDULE_COMMANDS, "a built-in algorithm's ranks (2 to 4096; required for one)"},
    {OPT_PRIMITIVE, "primitive", 0, "P", SCHEDULE_COMMANDS,
     "a built-in algorithm's primitive (default allreduce; collsim list primitives)"},
    {OPT_CHANNELS, "channels", 0, "C", SCHEDULE_COMMANDS, "a built-in algorithm's channels (1 to 32, default 1)"},
    {OPT_PROTOCOL, "protocol", 0, "P", ON(CMD_SCHEDULE_EXPORT), "MSCCL's protocol: Simple (default), LL128 or LL"},
    {OPT_CASE, "case", 0, "K", SCHEDULE_COMMANDS, "a scenario's case, from 0 (default 0)"},
    {OPT_HELP, "help", 'h', NULL, ALL_COMMANDS, "show this help and exit"},
    {OPT_VERSION, "version", 'V', NULL, ALL_COMMANDS, "show the version and licence and exit"},
};
#define OPTION_SPECS ((int)(sizeof options / sizeof *options))

const char *cli_command_name(command_id command)
{
    return commands[command].name;
}

static void print_version(void)
{
    printf("collsim %s\n"
           "Copyright (C) 2026 the collsim authors.\n"
           "License MIT: <https://opensource.org/license/mit>.\n"
           "This is free software: you are free to change and redistribute it.\n"
           "There is NO WARRANTY, to the extent permitted by law.\n",
           PACKAGE_VERSION);
}

#define HELP_COLUMN 30
#define HELP_WIDTH 79

/* TEXT word-wrapped between INDENT and HELP_WIDTH, its first line after
 * what is already printed (USED columns; on a new line when that is too
 * long).  A "\n" in TEXT starts a new line. */
static void print_wrapped_at(FILE *out, int used, int indent, const char *text)
{
    if (indent > 0 && used > indent - 2) {
        fputc('\n', out);
        used = 0;
    }
    fprintf(out, "%*s", indent - used, "");
    int column = indent;
    for (const char *p = text; *p;) {
        if (*p == '\n' || *p == ' ') {
            p++;
            if (p[-1] == '\n') column = HELP_WIDTH; /* force a break */
            continue;
        }
        int word = (int)strcspn(p, " \n");
        if (column > indent && column + 1 + word > HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
        } else if (column > indent) {
            fputc(' ', out);
            column++;
        }
        fwrite(p, 1, (size_t)word, out);
        column += word;
        p += word;
    }
    fputc('\n', out);
}

static void print_wrapped(FILE *out, int used, const char *text)
{
    print_wrapped_at(out, used, HELP_COLUMN, text);
}

static void print_option(FILE *out, const option_spec *o)
{
    char head[96];
    int used;
    if (o->short_name && o->argument)
        used = snprintf(head, sizeof head, "  -%c, --%s=%s", o->short_name, o->long_name, o->argument);
    else if (o->short_name)
        used = snprintf(head, sizeof head, "  -%c, --%s", o->short_name, o->long_name);
    else if (o->argument)
        used = snprintf(head, sizeof head, "      --%s=%s", o->long_name, o->argument);
    else
        used = snprintf(head, sizeof head, "      --%s", o->long_name);
    fputs(head, out);
    print_wrapped(out, used, o->help);
}

/* "[run, predict]": the commands an option applies to, when not all. */
static void print_option_commands(FILE *out, unsigned mask)
{
    if (mask == ALL_COMMANDS) return;
    char list[256] = "[";
    size_t used = 1;
    for (int c = 0, n = 0; c < CMD_COUNT && used < sizeof list; c++)
        if (mask & ON(c)) used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", n++ ? ", " : "", commands[c].name);
    snprintf(list + used, sizeof list - used, "]");
    print_wrapped(out, 0, list);
}

static void print_exit_status(FILE *out)
{
    fprintf(out, "\nExit status:\n"
                 "  0  success\n"
                 "  1  a regression against --baseline, or a schedule that failed verification\n"
                 "  2  bad input: a message naming the file, line and column, and the fix;\n"
                 "     also a bad command line (a bare 'collsim', without a command)\n"
                 "  3  a valid run that could not finish: out of memory, a simulation that\n"
                 "     crashed, or one whose simulated time stood still, named with its case\n"
                 "     (docs/reliability.md)\n"
                 "\nEnvironment (each simulation's bounds, docs/reliability.md):\n"
                 "  COLLSIM_STALL_SECONDS  end a simulation whose simulated time stands still\n"
                 "                         this long (default 600; 0: never)\n"
                 "  COLLSIM_CHILD_MEMORY   the memory one simulation may map (default 80 %% of\n"
                 "                         the machine's; a size such as 8GiB, or unlimited)\n"
                 "  COLLSIM_PACKET_HOPS    the packet-hops one packet-model simulation may make\n"
                 "                         (default 1e10; a count, or unlimited)\n"
                 "  COLLSIM_PATH           folders (':' between them) searched for a platform,\n"
                 "                         scenario or baseline not found where it is named,\n"
                 "                         before the installed ones (docs/platforms.md)\n");
}

void cli_usage(FILE *out, command_id command)
{
    if (command < CMD_COUNT) {
        const command_spec *c = &commands[command];
        fprintf(out, "Usage: collsim %s %s [OPTION]...\n", c->name, c->operands);
        print_wrapped_at(out, 0, 0, c->description);
        fprintf(out, "\nOptions:\n");
        for (int i = 0; i < OPTION_SPECS; i++)
            if (options[i].commands & ON(command)) print_option(out, &options[i]);
        print_exit_status(out);
        return;
    }
    fprintf(out,
            "Usage: collsim COMMAND [OPTION]... OPERAND...\n"
            "Simulate collective communication on GPU-cluster fabrics: the real schedules of\n"
            "ring, tree, recursive doubling, Rabenseifner, PAT, Bruck, pairwise, torus,\n"
            "hierarchical and in-network algorithms, run chunk by chunk on SimGrid over\n"
            "star, torus, mesh, Clos, fat-tree and SuperPOD fabrics, each time set beside\n"
            "its alpha-beta prediction, and the contention coefficients eta fitted from the\n"
            "gap.\n"
            "\nCommands:\n");
    for (int c = 0; c < CMD_COUNT; c++) {
        char head[96];
        int used = snprintf(head, sizeof head, "  %s %s", commands[c].name, commands[c].operands);
        fputs(head, out);
        print_wrapped(out, used, commands[c].summary);
    }
    fprintf(out, "\nOptions (in brackets, the commands they apply to):\n");
    for (int i = 0; i < OPTION_SPECS; i++) {
        print_option(out, &options[i]);
        print_option_commands(out, options[i].commands);
    }
    print_exit_status(out);
    fprintf(out, "\n'collsim COMMAND --help' shows one command. Scenario and platform formats, the\n"
                 "model, every output field: the docs/ directory, installed with the shipped\n"
                 "platforms/, scenarios/ and baselines/ in collsim's data directory\n"
                 "(/usr/local/share/collsim by default). A relative scenario, platform or\n"
                 "baseline path that is not where it was named is looked for in each folder\n"
                 "of COLLSIM_PATH, then there: 'collsim run scenarios/quickstart.yaml' works\n"
                 "from any folder.\n");
}

/* What a bare `collsim` prints: the commands, and where the rest is. */
static void short_usage(FILE *out)
{
    fprintf(out, "Usage: collsim COMMAND [OPTION]... OPERAND...\nCommands:");
    size_t shown = 0; /* a group's verbs (platform describe, xml, route) stand in the table side by side */
    for (int c = 0; c < CMD_COUNT; c++) {
        size_t word = strcspn(commands[c].name, " ");
        if (c > 0 && word == shown && strncmp(commands[c].name, commands[c - 1].name, word) == 0) continue;
        fprintf(out, "%s %.*s", c > 0 ? "," : "", (int)word, commands[c].name);
        shown = word;
    }
    fprintf(out, "\nTry 'collsim --help' for every command and option, 'collsim COMMAND --help' for one.\n");
}

/* ---- parsing ---- */

static const option_spec *spec_for(option_id id, command_id command)
{
    const option_spec *any = NULL;
    for (int i = 0; i < OPTION_SPECS; i++) {
        if (options[i].id != id) continue;
        if (options[i].commands & ON(command)) return &options[i];
        any = &options[i];
    }
    return any;
}

static bool is_help(const char *word)
{
    return strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0;
}

/* `collsim GROUP --help` (platform, schedule): the group's verbs. */
static void group_usage(FILE *out, const char *group)
{
    bool platform = strcmp(group, "platform") == 0;
    fprintf(out, "Usage: collsim %s VERB %s [OPERAND]... [OPTION]...\n%s\n\nVerbs:\n", group,
            platform ? "PLATFORM.yaml" : "ALGORITHM|FILE", platform ? "Look at the fabric a platform file builds."
                                                                 : "Read a schedule, or write it as MSCCL XML.");
    size_t prefix = strlen(group);
    for (int c = 0; c < CMD_COUNT; c++) {
        if (strncmp(commands[c].name, group, prefix) != 0 || commands[c].name[prefix] != ' ') continue;
        char head[96];
        int used = snprintf(head, sizeof head, "  %s %s", commands[c].name + prefix + 1, commands[c].operands);
        fputs(head, out);
        print_wrapped(out, used, commands[c].summary);
    }
    fprintf(out, "\n'collsim %s VERB --help' shows a verb's options.\n", group);
}

/* The command named by ARGV[*NEXT] (and a platform verb after it): -1, or
 * the exit status after printing the platform group's help (0) or why
 * there is no command (2). */
static int find_command(int argc, char **argv, int *next, command_id *command)
{
    const char *word = argv[*next];
    bool platform = strcmp(word, "platform") == 0;
    if (platform || strcmp(word, "schedule") == 0) {
        const char *verbs = platform ? "describe, xml or route" : "show or export";
        if (*next + 1 < argc && is_help(argv[*next + 1])) {
            group_usage(stdout, word);
            return 0;
        }
        if (*next + 1 >= argc || argv[*next + 1][0] == '-') {
            fprintf(stderr, "collsim %s: say what to do: %s (collsim %s --help)\n", word, verbs, word);
            return 2;
        }
        char name[64];
        snprintf(name, sizeof name, "%s %s", word, argv[*next + 1]);
        for (int c = 0; c < CMD_COUNT; c++)
            if (strcmp(commands[c].name, name) == 0) {
                *command = (command_id)c;
                *next += 2;
                return -1;
            }
        fprintf(stderr, "collsim %s: unknown verb '%s': expected %s\n", word, argv[*next + 1], verbs);
        return 2;
    }
    for (int c = 0; c < CMD_COUNT; c++)
        if (strcmp(commands[c].name, word) == 0) {
            *command = (command_id)c;
            *next += 1;
            return -1;
        }
    fprintf(stderr, "collsim: unknown command '%s' (collsim --help lists them)\n", word);
    return 2;
}

#define LONG_VALUE_BASE 1000

static int parse_options(int argc, char **argv, cli_args *args)
{
    struct option longopts[OPTION_SPECS + 1];
    char shortopts[2 * OPTION_SPECS + 2] = ":";
    int n = 0;
    for (int i = 0; i < OPTION_SPECS; i++) {
        bool seen = false;
        for (int j = 0; j < n; j++) seen |= strcmp(longopts[j].name, options[i].long_name) == 0;
        if (seen) continue;
        longopts[n++] = (struct option){options[i].long_name, options[i].argument ? required_argument : no_argument,
                                        NULL, LONG_VALUE_BASE + (int)options[i].id};
        if (options[i].short_name) {
            size_t length = strlen(shortopts);
            shortopts[length] = options[i].short_name;
            shortopts[length + 1] = options[i].argument ? ':' : '\0';
            shortopts[length + 2] = '\0';
        }
    }
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    const char *name = commands[args->command].name;
    opterr = 0;
    optind = 0; /* glibc: start afresh */
    int value;
    while ((value = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (value == '?' || value == ':') {
            const char *what = argv[optind - 1];
            if (value == ':') fprintf(stderr, "collsim %s: %s needs a value (collsim %s --help)\n", name, what, name);
            else if (optopt) fprintf(stderr, "collsim %s: unknown option '-%c' (collsim %s --help)\n", name, optopt, name);
            else fprintf(stderr, "collsim %s: unknown option '%s' (collsim %s --help)\n", name, what, name);
            return 2;
        }
        option_id id = OPT_COUNT;
        if (value >= LONG_VALUE_BASE) id = (option_id)(value - LONG_VALUE_BASE);
        else
            for (int i = 0; i < OPTION_SPECS; i++)
                if (options[i].short_name == value) id = options[i].id;
        const option_spec *spec = spec_for(id, args->command);
        if (!(spec->commands & ON(args->command))) {
            bool simulation_only = (spec->commands & ON(CMD_RUN)) && !(spec->commands & ON(CMD_PREDICT)) &&
                                   (ON(args->command) & SCENARIO_COMMANDS);
            fprintf(stderr, "collsim %s: --%s does not apply to %s%s (collsim %s --help lists its options)\n", name,
                    spec->long_name, name, simulation_only ? ": it simulates nothing" : "", name);
            return 2;
        }
        if (id == OPT_HELP) {
            cli_usage(stdout, args->command);
            return 0;
        }
        if (id == OPT_VERSION) {
            print_version();
            return 0;
        }
        if (id == OPT_CFG) {
            if (args->cfg_count == CLI_MAX_CFG) {
                fprintf(stderr, "collsim %s: at most %d --cfg options\n", name, CLI_MAX_CFG);
                return 2;
            }
            args->cfg[args->cfg_count++] = optarg;
        }
        if (id == OPT_MEASURED) {
            if (args->measured_count == CLI_MAX_CFG) {
                fprintf(stderr, "collsim %s: at most %d --measured logs\n", name, CLI_MAX_CFG);
                return 2;
            }
            args->measured[args->measured_count++] = optarg;
        }
        args->value[id] = spec->argument ? optarg : "";
    }
    for (int i = optind; i < argc; i++) {
        if (args->operand_count == CLI_MAX_OPERANDS) break;
        args->operands[args->operand_count++] = argv[i];
    }
    const command_spec *c = &commands[args->command];
    int given = argc - optind;
    if (given < c->min_operands || given > c->max_operands) {
        fprintf(stderr, "collsim %s: expected %s, got %d operand%s%s%s (collsim %s --help)\n", name, c->operands, given,
                given == 1 ? "" : "s", given > c->max_operands ? ": " : "",
                given > c->max_operands ? argv[optind + c->max_operands] : "", name);
        return 2;
    }
    return -1;
}

int cli_parse(int argc, char **argv, cli_args *args)
{
    *args = (cli_args){0};
    if (argc < 2) { /* a missing command is a usage error, as GNU tools make it */
        short_usage(stderr);
        return 2;
    }
    const char *first = argv[1];
    if (is_help(first) || strcmp(first, "help") == 0) {
        cli_usage(stdout, CMD_COUNT);
        return 0;
    }
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) {
        print_version();
        return 0;
    }
    int next = 1;
    int status = find_command(argc, argv, &next, &args->command);
    if (status >= 0) return status;
    /* getopt_long sees the command's own arguments, as if they were a program's */
    char *sub[argc - next + 2];
    sub[0] = argv[0];
    for (int i = next; i < argc; i++) sub[i - next + 1] = argv[i];
    sub[argc - next + 1] = NULL;
    return parse_options(argc - next + 1, sub, args);
}
