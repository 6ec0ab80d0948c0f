/* links.h — the per-link view of one simulation (docs/output.md): each direction
 * of each physical link, what it carried against what it could have
 * (bytes / (BW x time)), and under the packet model the buffer at its far
 * end (peak and mean occupancy) and the time it stalled for credits; and
 * the busiest of them. */
#ifndef COLLSIM_LINKS_H
#define COLLSIM_LINKS_H

#include <stdbool.h>

#include "net/network.h"
#include "platform/topology.h"
#include "report/report.h"

/* The rows of T's physical link directions (latency-only links carry no
 * bytes) from STATS (per port, net/network.h) over a simulation of TIME_S;
 * PACKET: the buffer and credit counters are meaningful.  OUT has room for
 * 2 x T's links; returns how many rows it holds. */
int links_view(const topology *t, const net_link_stats *stats, double time_s, bool packet, link_row *out);
/* The busiest at most MAX of ROWS, into HOT: by utilization, then mean and
 * peak buffer occupancy, then stalled time, then the platform's order;
 * rows that carried nothing are left out.  Returns how many. */
int links_hottest(const link_row *rows, int count, link_row *hot, int max);

#endif
