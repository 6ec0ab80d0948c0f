/* run_traffic.h — a scenario's traffic cases (docs/scenarios.md, "Traffic")
 * simulated and made into rows of their own: a traffic matrix's flows in
 * either network model (the fluid model's flows, the packet engine's
 * messages), each at its start time, the cases of a `concurrent:` block
 * together; synthetic traffic on the packet model alone.  No α-β model
 * predicts them: their rows carry no prediction (docs/output.md). */
#ifndef COLLSIM_RUN_TRAFFIC_H
#define COLLSIM_RUN_TRAFFIC_H

#include "cli/run_cases.h"

/* The rows of the traffic block whose first case is FIRST, one per case
 * into ROWS[FIRST ..], simulated under run (O's network model), bare under
 * predict; exit status: 0, 2 (synthetic traffic on a fluid model) or 3 (a
 * simulation failed). */
int run_traffic(const scenario *s, const run_settings *o, int first, result_row *rows);

#endif
