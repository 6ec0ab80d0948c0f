/* command_list.c — `collsim list platforms | algorithms | primitives`;
 * the platforms' list also names the platform files shipped with collsim,
 * where collsim finds them (util/data_path.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "algo/algorithm.h"
#include "platform/platform.h"
#include "util/data_path.h"

static int is_yaml(const struct dirent *entry)
{
    size_t length = strlen(entry->d_name);
    return length > 5 && strcmp(entry->d_name + length - 5, ".yaml") == 0;
}

/* A platform file's one line: its first comment line, else nothing. */
static void print_summary(const char *path)
{
    FILE *in = fopen(path, "r");
    char line[256] = "";
    while (in && fgets(line, sizeof line, in) && line[0] != '#') line[0] = '\0';
    if (in) fclose(in);
    const char *text = line + strspn(line, "# ");
    int length = (int)strcspn(text, "\n"), shown = length > 46 ? 43 : length;
    while (shown > 0 && shown < length && (text[shown] & 0xC0) == 0x80) shown--; /* not inside a UTF-8 character */
    printf("%.*s%s\n", shown, text, shown < length ? "..." : "");
}

/* Every FOLDER/platforms/NAME.yaml, NAME and its one line, under a title
 * ending in WHERE. */
static void list_platform_files(const char *folder, const char *where)
{
    char platforms[4200];
    snprintf(platforms, sizeof platforms, "%s/platforms", folder);
    struct dirent **entries;
    int count = scandir(platforms, &entries, is_yaml, alphasort);
    if (count <= 0) return;
    printf("\nPlatform files in %s%s:\n", platforms, where);
    for (int i = 0; i < count; i++) {
        char path[4500];
        snprintf(path, sizeof path, "%s/%s", platforms, entries[i]->d_name);
        printf("  %-30s ", entries[i]->d_name);
        print_summary(path);
        free(entries[i]);
    }
    free(entries);
}

int command_list(const cli_args *args)
{
    const char *const *argv = args->operands;
    if (strcmp(argv[0], "platforms") == 0) {
        int count;
        const platform_kind *kinds = platform_kinds(&count);
        for (int i = 0; i < count; i++) printf("%-16s %s  [%s]\n", kinds[i].name, kinds[i].summary, kinds[i].seed);
        char folders[DATA_PATH_MAX_FOLDERS][4096];
        int folder_count = data_path_folders(folders, DATA_PATH_MAX_FOLDERS);
        for (int i = 0; i < folder_count; i++)
            list_platform_files(folders[i], ", found as platforms/NAME.yaml from any folder");
        if (folder_count == 0) list_platform_files(".", " (collsim is not installed: from this folder only)");
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
            "rank i holds V_i -> rank pi(i) holds V_i, pi a seeded derangement; M = each rank's message",
            "flows of a traffic matrix, or open-loop synthetic packets (a case's traffic:, not primitive:)"};
        for (int p = 0; p < PRIM_COUNT; p++) printf("%-14s %s\n", primitive_name((primitive)p), meaning[p]);
        return 0;
    }
    fprintf(stderr, "collsim list: unknown list '%s': expected platforms, algorithms or primitives\n", argv[0]);
    return 2;
}
