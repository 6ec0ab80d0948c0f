/* options.h — collsim's command line as data: every command with its
 * operands, every option with the commands it applies to and its help text.
 * One table feeds getopt_long (GNU conventions: `--opt=value` or `--opt
 * value`, options anywhere on the line), `--help` (top level and per
 * command), and through help2man the man page, so they cannot drift apart.
 * An option given to a command it does not apply to is refused (exit 2). */
#ifndef COLLSIM_OPTIONS_H
#define COLLSIM_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum {
    CMD_RUN,
    CMD_PREDICT,
    CMD_VERIFY,
    CMD_PLATFORM_DESCRIBE,
    CMD_PLATFORM_XML,
    CMD_PLATFORM_ROUTE,
    CMD_LIST,
    CMD_CALIBRATE,
    CMD_SWEEP,
    CMD_MERGE,
    CMD_SCHEDULE_SHOW,
    CMD_SCHEDULE_EXPORT,
    CMD_COUNT
} command_id;

typedef enum {
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_PLOT,
    OPT_VERIFY,
    OPT_BASELINE,
    OPT_RTOL,
    OPT_WRITE_BASELINE,
    OPT_JOBS,
    OPT_MODEL,
    OPT_TIES,
    OPT_LINKS,
    OPT_TRACE,
    OPT_QUIET,
    OPT_PROGRESS,
    OPT_CFG,
    OPT_MEASURED,
    OPT_ROUTES,
    OPT_SIZE,
    OPT_ALGORITHM,
    OPT_LIST,
    OPT_PLAN,
    OPT_SHARD,
    OPT_ID,
    OPT_OUT,
    OPT_BUDGET,
    OPT_RANKS,
    OPT_PRIMITIVE,
    OPT_CHANNELS,
    OPT_PROTOCOL,
    OPT_CASE,
    OPT_HELP,
    OPT_VERSION,
    OPT_COUNT
} option_id;

#define CLI_MAX_OPERANDS 64
#define CLI_MAX_CFG 32

/* What the command line said; values are argv's strings. */
typedef struct cli_args {
    command_id command;
    const char *operands[CLI_MAX_OPERANDS];
    int operand_count;
    const char *value[OPT_COUNT]; /* the option's argument, or "" for a flag given; NULL when absent */
    const char *cfg[CLI_MAX_CFG + 1]; /* every --cfg, NULL-terminated */
    int cfg_count;
    const char *measured[CLI_MAX_CFG + 1]; /* every --measured, NULL-terminated */
    int measured_count;
} cli_args;

/* Parse ARGV (argv[0] is the program; the command follows).  Returns -1 when
 * the command should run with *ARGS filled, else the exit status after
 * printing what was asked (help, version: 0) or why not (bad usage: 2). */
int cli_parse(int argc, char **argv, cli_args *args);

/* The name of COMMAND ("run", "platform describe"). */
const char *cli_command_name(command_id command);

/* The usage text: all commands (COMMAND == CMD_COUNT) or one. */
void cli_usage(FILE *out, command_id command);

#endif
