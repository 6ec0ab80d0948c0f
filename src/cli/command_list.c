/* command_list.c — `collsim list platforms | algorithms | primitives`. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "algo/algorithm.h"
#include "platform/platform.h"

int command_list(const cli_args *args)
{
    const char *const *argv = args->operands;
    if (strcmp(argv[0], "platforms") == 0) {
        int count;
        const platform_kind *kinds = platform_kinds(&count);
        for (int i = 0; i < count; i++) printf("%-16s %s  [%s]\n", kinds[i].name, kinds[i].summary, kinds[i].seed);
        return 0;
    }
    if (strcmp(argv[0], "algorithms") == 0) {
        int count;
        const algorithm *table = algorithm_table(&count);
        for (int p = 0; p < PRIM_COUNT; p++)
            for (int i = 0; i < count; i++)
                if (table[i].prim == (primitive)p)
                    printf("%-14s %-22s %s  [%s]\n", primitive_name(table[i].prim), table[i].name, table[i].summary, table[i].seed);
        return 0;
    }
    if (strcmp(argv[0], "primitives") == 0) {
        static const char *const meaning[PRIM_COUNT] = {
            "rank 0 (root) holds V -> all hold V; M = the message",
            "rank i holds V_i -> root holds sum V_i; M = the message",
            "rank i holds V_i -> all hold sum V_i; M = each rank's vector",
            "rank i holds chunk i -> all hold the concatenation; M = the gathered total",
            "rank i holds V_i -> rank i holds chunk i of sum V_j; M = each rank's input",
            "rank i holds N chunks by destination -> N chunks by source; M = each rank's total payload",
            "rank a holds V -> rank b holds V; M = the message",
            "rank i holds V_i -> rank pi(i) holds V_i, pi a seeded derangement; M = each rank's message"};
        for (int p = 0; p < PRIM_COUNT; p++) printf("%-14s %s\n", primitive_name((primitive)p), meaning[p]);
        return 0;
    }
    fprintf(stderr, "collsim list: unknown list '%s': expected platforms, algorithms or primitives\n", argv[0]);
    return 2;
}
