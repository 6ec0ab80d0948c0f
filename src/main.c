/* main.c — collsim's command line: parse (cli/options.c), then dispatch to
 * the subcommand (README; collsim --help). */
#include "cli/commands.h"

int main(int argc, char **argv)
{
    cli_args args;
    int status = cli_parse(argc, argv, &args);
    if (status >= 0) return status;
    switch (args.command) {
    case CMD_RUN:
    case CMD_PREDICT:
    case CMD_VERIFY: return command_scenario(&args);
    case CMD_LIST: return command_list(&args);
    case CMD_CALIBRATE: return command_calibrate(&args);
    case CMD_SWEEP: return command_sweep(&args);
    case CMD_MERGE: return command_merge(&args);
    case CMD_SCHEDULE_SHOW:
    case CMD_SCHEDULE_EXPORT: return command_schedule(&args);
    default: return command_platform(&args);
    }
}
