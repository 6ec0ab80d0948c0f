/* results.c — the rows, η fits and crossovers a report collects (results.h). */
#include "report/results.h"

#include <stdlib.h>

#include "util/memory.h"

void report_add(report *r, const result_row *row)
{
    r->rows = grow_array(r->rows, &r->row_capacity, r->row_count + 1, sizeof *r->rows);
    r->rows[r->row_count++] = *row;
}

void report_add_eta(report *r, const eta_row *e)
{
    r->etas = grow_array(r->etas, &r->eta_capacity, r->eta_count + 1, sizeof *r->etas);
    r->etas[r->eta_count++] = *e;
}

void report_add_crossover(report *r, const crossover_row *x)
{
    r->crossovers = grow_array(r->crossovers, &r->crossover_capacity, r->crossover_count + 1, sizeof *r->crossovers);
    r->crossovers[r->crossover_count++] = *x;
}

void report_free(report *r)
{
    for (int i = 0; i < r->row_count; i++) {
        free(r->rows[i].links);
        free(r->rows[i].flows);
    }
    free(r->rows);
    free(r->etas);
    free(r->crossovers);
    r->rows = NULL;
    r->etas = NULL;
    r->crossovers = NULL;
    r->row_count = r->row_capacity = r->eta_count = r->eta_capacity = 0;
    r->crossover_count = r->crossover_capacity = 0;
}
