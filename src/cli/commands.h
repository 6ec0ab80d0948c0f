/* commands.h — the subcommands of the collsim command line (README, docs/output.md), each
 * given its parsed arguments (cli/options.h).  Each returns the process exit
 * code: 0 success, 1 regression/verification failure, 2 bad input, 3 a valid
 * run that could not finish (docs/reliability.md). */
#ifndef COLLSIM_COMMANDS_H
#define COLLSIM_COMMANDS_H

#include "cli/options.h"

int command_platform(const cli_args *args);
int command_list(const cli_args *args);
/* run, predict and verify */
int command_scenario(const cli_args *args);
int command_calibrate(const cli_args *args);
/* sweep and merge (docs/sweeps.md) */
int command_sweep(const cli_args *args);
int command_merge(const cli_args *args);
/* schedule show and schedule export (command_schedule.c) */
int command_schedule(const cli_args *args);

#endif
