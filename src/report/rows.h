/* rows.h — the report's rows made from a finished simulation: one row per
 * case of it (its prediction beside the time of its slowest group, each
 * term timed by its schedule phase, the message latencies of all its
 * groups), the simulation's link view on each, and the crossovers of a
 * case's algorithms (docs/output.md). */
#ifndef COLLSIM_ROWS_H
#define COLLSIM_ROWS_H

#include <stdbool.h>

#include "plan/plan.h"
#include "report/report.h"

/* The row of member M: its prediction, and the simulation of its slowest
 * group when M->results holds its groups' results.  LONE_EXACT: the network
 * model runs a lone message in exactly alpha + M/BW (cm02), so the row can
 * say whether its messages shared links (analysis/contention.h). */
result_row rows_make(const scenario *s, const plan_member *m, bool lone_exact);

/* The link view of one simulation of END_S seconds on its COUNT rows (every
 * row gets the busiest links, and every link when ALL_LINKS; the rows own
 * their lists); PACKET: the buffer and credit counters are meaningful. */
void rows_add_link_views(const topology *t, const net_link_stats *stats, double end_s, bool packet, bool all_links,
                         result_row *rows, int count);

/* Where each pair of case C's algorithms cross, at their predictions at its
 * largest size, LARGEST (one per algorithm; 01 §5.3, App. B.3). */
void rows_add_crossovers(report *r, int c, const scenario_case *k, const prediction *largest);

#endif
