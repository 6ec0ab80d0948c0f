/* bad_inputs.c — every hostile file through collsim's readers in one process,
 * for valgrind (tests/valgrind_bad_inputs.sh): files under a bad-platforms
 * folder are loaded as platforms, the others as scenarios and, when read,
 * predicted (or planned for a run, where the file's second line says a
 * closed form predicts it: tests/cli_bad_scenarios.sh); each must be
 * refused.  Exit 0 when all were. */
#include <stdio.h>
#include <string.h>

#include "cli/run_cases.h"
#include "platform/platform.h"
#include "scenario/scenario.h"

/* Whether PATH's second line is "# predicted: closed form". */
static bool predicted(const char *path)
{
    char line[2][128] = {"", ""};
    FILE *f = fopen(path, "r");
    for (int i = 0; f && i < 2 && fgets(line[i], sizeof line[i], f); i++) {}
    if (f) fclose(f);
    return strcmp(line[1], "# predicted: closed form\n") == 0;
}

/* True when PATH is refused. */
static bool refused(const char *path)
{
    diag d = {0};
    if (strstr(path, "bad-platforms/")) {
        topology t;
        if (!platform_load(path, &t, &d)) return true;
        topology_free(&t);
        return false;
    }
    scenario s;
    if (!scenario_load(path, &s, &d)) return true;
    report r = {.scenario = s.name, .model = "analytic"};
    run_settings settings = {.mode = predicted(path) ? MODE_RUN : MODE_PREDICT, .jobs = 1};
    int status = run_cases(&s, &settings, &r);
    report_free(&r);
    scenario_free(&s);
    return status == 2;
}

int main(int argc, char **argv)
{
    int accepted = 0;
    for (int i = 1; i < argc; i++)
        if (!refused(argv[i])) {
            fprintf(stderr, "%s: accepted\n", argv[i]);
            accepted++;
        }
    return accepted ? 1 : 0;
}
