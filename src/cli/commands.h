/* commands.h — the subcommands of the collsim command line (SPEC §2).  Each
 * returns the process exit code: 0 success, 1 regression/verification
 * failure, 2 bad input, 3 a valid run that could not finish
 * (docs/reliability.md). */
#ifndef COLLSIM_COMMANDS_H
#define COLLSIM_COMMANDS_H

int command_platform(int argc, char **argv);
int command_list(int argc, char **argv);
int command_run(int argc, char **argv);
int command_verify(int argc, char **argv);
int command_predict(int argc, char **argv);

#endif
