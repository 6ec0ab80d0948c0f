/* main.c — collsim's command line: dispatch to the subcommands (SPEC §2). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "collsim %s — discrete-event simulation of collective communication on GPU-cluster fabrics\n\n"
            "usage:\n"
            "  collsim run SCENARIO.yaml [--format table|csv|json] [-o FILE] [--plot FILE.svg] [--verify]\n"
            "                            [--baseline FILE [--rtol X]] [--write-baseline FILE] [--jobs N]\n"
            "                            [--model cm02|lv08] [--quiet] [--cfg=SIMGRID_OPTION ...]\n"
            "                                               simulate every case of the scenario (docs/output.md);\n"
            "                                               --baseline compares the times with a recorded run and\n"
            "                                               exits 1 on a drift past --rtol (default 1e-9),\n"
            "                                               --write-baseline records this run (scripts/regress);\n"
            "                                               --jobs N runs N simulations at once (same output)\n"
            "  collsim predict SCENARIO.yaml [--format table|csv|json] [-o FILE] [--plot FILE.svg]\n"
            "                                               the analytic alpha-beta model only, nothing simulated\n"
            "  collsim verify SCENARIO.yaml                 run every schedule on data, no timing\n"
            "  collsim platform describe PLATFORM.yaml      ranks, switches, links, per-tier alpha and BW,\n"
            "                                               diameter, bisection bandwidth\n"
            "  collsim platform xml PLATFORM.yaml [--routes all|ring|none]\n"
            "                                               the SimGrid platform it builds\n"
            "  collsim platform route PLATFORM.yaml SRC DST [--size 16MB]\n"
            "                                               the route between two nodes, and one message\n"
            "                                               over it simulated against latency + size/BW\n"
            "  collsim list platforms|algorithms|primitives the platform kinds, the algorithms, the primitives\n"
            "  collsim --help | --version\n\n"
            "exit codes: 0 success, 1 regression or failed verification, 2 bad input,\n"
            "            3 a valid run that could not finish (docs/reliability.md)\n",
            PACKAGE_VERSION);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(command, "--version") == 0) {
        printf("collsim %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (strcmp(command, "platform") == 0) return command_platform(argc - 2, argv + 2);
    if (strcmp(command, "list") == 0) return command_list(argc - 2, argv + 2);
    if (strcmp(command, "run") == 0) return command_run(argc - 2, argv + 2);
    if (strcmp(command, "verify") == 0) return command_verify(argc - 2, argv + 2);
    if (strcmp(command, "predict") == 0) return command_predict(argc - 2, argv + 2);
    fprintf(stderr, "collsim: unknown command '%s' (collsim --help lists them)\n", command);
    return 2;
}
