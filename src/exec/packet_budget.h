/* packet_budget.h — what a packet-model simulation will cost, estimated
 * before it runs: its packet-hops (every packet of every message, once per
 * link of its route), which the engine processes one event at a time (about
 * 10 million a second, docs/packet.md), so that a run of hours is refused
 * with the estimate rather than started (docs/reliability.md, "Simulation
 * budgets"). */
#ifndef COLLSIM_PACKET_BUDGET_H
#define COLLSIM_PACKET_BUDGET_H

#include <stdbool.h>

#include "exec/executor.h"

/* Packet-hops allowed per simulation unless COLLSIM_PACKET_HOPS says
 * otherwise: 10^10, about 15 to 30 minutes of the engine. */
#define PACKET_HOPS_DEFAULT 1e10
/* The engine's pace on one core (scripts/bench's packet_bench: 10 to 20
 * million), for the time a refused run would have taken. */
#define PACKET_HOPS_PER_SECOND 1e7

/* The packet-hops the COUNT PARTS would make on T (its packet MTU):
 * per message ceil(wire bytes / MTU) packets times its route's links; the
 * messages it holds in *MESSAGES.  Setup work: it reads every op once. */
double packet_hops_estimate(const topology *t, const exec_part *parts, int count, double *messages);

/* Whether the COUNT PARTS fit the packet-hop budget (COLLSIM_PACKET_HOPS,
 * or PACKET_HOPS_DEFAULT); false with D giving the estimate, the budget and
 * what to do, naming LABEL. */
bool packet_budget_check(const topology *t, const exec_part *parts, int count, const char *label, diag *d);

#endif
