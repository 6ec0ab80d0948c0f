/* imported.c — MSCCL algorithm files named by a case (imported.h). */
#include "scenario/imported.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/msccl_program.h"

bool imported_read(yaml_tree *tree, ynode *item, const scenario *s, scenario_case *c, int i, const char *name, diag *d)
{
    const char *path = name + strlen(IMPORTED_PREFIX);
    char dir_buffer[512], file[1024], base_buffer[1024];
    snprintf(dir_buffer, sizeof dir_buffer, "%s", s->path);
    if (path[0] == '/') snprintf(file, sizeof file, "%s", path);
    else snprintf(file, sizeof file, "%s/%s", dirname(dir_buffer), path);
    msccl_program *p = calloc(1, sizeof *p);
    if (!msccl_program_load(file, p, d)) {
        free(p);
        if (d->line > 0) return false; /* a mistake inside the file: its own position */
        char reason[sizeof d->message];
        snprintf(reason, sizeof reason, "%s", d->message);
        return yaml_error(tree, item, d, "%s%s", reason, path[0] == '/' ? "" : " (the path is relative to the scenario's folder)");
    }
    c->programs[i] = p;
    snprintf(base_buffer, sizeof base_buffer, "%s", file);
    char *base = basename(base_buffer), *dot = strrchr(base, '.');
    if (dot && dot != base) *dot = '\0';
    int length = snprintf(p->record_name, sizeof p->record_name, "%s%s", IMPORTED_PREFIX, base);
    if (length >= (int)sizeof c->algorithms[i])
        return yaml_error(tree, item, d, "the algorithm's name '%s' (from the file's name) is longer than the %d characters a "
                          "result row holds: rename the file", p->record_name, (int)sizeof c->algorithms[i] - 1);
    p->record = (algorithm){p->record_name, p->prim, "an MSCCL algorithm read from its XML file", "docs/schedules.md",
                            msccl_build, GROWTH_IMPORTED, FAMILY_RING, COMPOSITION_IMPORTED, 0, 0, NULL, NULL};
    snprintf(c->algorithms[i], sizeof c->algorithms[i], "%s", p->record_name);
    c->records[i] = &p->record;
    return true;
}

bool imported_check(yaml_tree *tree, ynode *node, scenario_case *c, diag *d)
{
    for (int i = 0; i < c->algorithm_count; i++) {
        const msccl_program *p = c->programs[i];
        if (!p) continue;
        if (c->channels != 0 && c->channels != 1)
            return yaml_error(tree, node, d, "%s runs on the channels its file gives its threadblocks: remove 'channels'",
                              c->algorithms[i]);
        if (c->prim == PRIM_ALLTOALL && c->skew.kind != SKEW_UNIFORM)
            return yaml_error(tree, node, d, "%s moves MSCCL's equal chunks: a skewed all-to-all is not one; remove "
                              "'skew' or run a built-in algorithm", c->algorithms[i]);
        schedule *built = msccl_schedule(p, c->prim, c->groups.size, c->root, d);
        if (!built) return false;
        schedule_free(built);
    }
    return true;
}

void imported_free(scenario_case *c)
{
    for (int i = 0; i < SCENARIO_MAX_ALGORITHMS; i++) {
        if (!c->programs[i]) continue;
        msccl_program_free(c->programs[i]);
        free(c->programs[i]);
        c->programs[i] = NULL;
    }
}
