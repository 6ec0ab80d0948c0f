/* read_back.h — a report's result rows read back from the JSON collsim
 * wrote (docs/output.md), through the field tables that wrote them
 * (report/fields.c): every stored field of a row, its terms and its
 * busiest links, so that writing the rows again gives the same bytes. */
#ifndef COLLSIM_READ_BACK_H
#define COLLSIM_READ_BACK_H

#include <json-c/json.h>
#include <stdbool.h>

#include "report/results.h"

/* The result OBJECT (one of a JSON report's "results") into ROW; SIMULATED:
 * the report's "simulated".  False with WHY (the field at fault). */
bool report_read_result(json_object *object, bool simulated, result_row *row, char *why, int why_size);

#endif
