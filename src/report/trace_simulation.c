/* trace_simulation.c — the trace's parts from a finished simulation: one
 * per group of each case, labelled "case C PRIMITIVE ALGORITHM SIZE, group
 * G", with every op's message bytes (exec_op_bytes) beside its times. */
#include "report/trace_simulation.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/units.h"

bool trace_simulation(const scenario *s, const plan_member *members, int count, const exec_part *parts,
                      const exec_result *results, const traced_queues *queues, const char *title, const char *path,
                      diag *d)
{
    int part_count = 0;
    for (int i = 0; i < count; i++) part_count += s->cases[members[i].c].groups.count;
    trace_part *traced = calloc((size_t)part_count + 1, sizeof *traced);
    for (int i = 0, n = 0; i < count; i++) {
        const scenario_case *k = &s->cases[members[i].c];
        char size[32];
        units_format(members[i].size_bytes, UNIT_SIZE, size, sizeof size);
        for (int g = 0; g < k->groups.count; g++, n++) {
            const exec_part *part = &parts[n];
            trace_part *p = &traced[n];
            *p = (trace_part){part->s, part->actor_nodes, results[n].op_times, NULL, ""};
            snprintf(p->label, sizeof p->label, "case %d %s %s %s, group %d", members[i].c, primitive_name(k->prim),
                     k->algorithms[members[i].a], size, g);
            long ops = 0;
            for (int a = 0; a < part->s->actors; a++) ops += part->s->actor[a].op_count;
            double *bytes = malloc(sizeof *bytes * (size_t)(ops + 1));
            for (int a = 0, j = 0; a < part->s->actors; a++)
                for (int op = 0; op < part->s->actor[a].op_count; op++) bytes[j++] = exec_op_bytes(part, a, op);
            p->op_bytes = bytes;
        }
    }
    trace tr = {scenario_platform(s, &s->cases[members[0].c]), title, traced, part_count, queues->links, queues->bytes,
                queues->count, queues->samples, queues->interval_s};
    bool ok = trace_write(&tr, path, d);
    for (int n = 0; n < part_count; n++) free((double *)traced[n].op_bytes);
    free(traced);
    return ok;
}
