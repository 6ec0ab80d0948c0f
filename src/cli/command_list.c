/* command_list.c — `collsim list platforms | algorithms | primitives`. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "platform/platform.h"

int command_list(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "collsim list: say what to list: platforms, algorithms or primitives\n");
        return 2;
    }
    if (strcmp(argv[0], "platforms") == 0) {
        int count;
        const platform_kind *kinds = platform_kinds(&count);
        for (int i = 0; i < count; i++) printf("%-16s %s  [%s]\n", kinds[i].name, kinds[i].summary, kinds[i].seed);
        return 0;
    }
    fprintf(stderr, "collsim list: unknown list '%s': expected platforms, algorithms or primitives\n", argv[0]);
    return 2;
}
