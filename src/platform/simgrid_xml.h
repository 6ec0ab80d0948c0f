/* simgrid_xml.h — the SimGrid platform (XML, DTD 4.1) of a topology: one host
 * per rank and per switch, SPLITDUPLEX links, FATPIPE latency-only switch
 * delays, and one Full-routing zone whose routes are the topology's own,
 * emitted for the node pairs a simulation uses. */
#ifndef COLLSIM_SIMGRID_XML_H
#define COLLSIM_SIMGRID_XML_H

#include <stdbool.h>
#include <stdio.h>

#include "platform/topology.h"
#include "util/diag.h"

typedef struct node_pair {
    int src, dst;
} node_pair;

/* Write the platform with routes for PAIRS (deduplicated here; may be
 * reordered).  Link bandwidths are multiplied by BANDWIDTH_SCALE (1 for the
 * real fabric; the executor scales bytes and bandwidths together so that
 * fractional chunk sizes stay exact).  False with a message when a pair has
 * no route. */
bool simgrid_xml_write(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale, FILE *out, diag *d);
/* The same with only the hosts the pairs join and the links on their routes:
 * what a simulation needs.  SimGrid's Full zone keeps an N x N route table
 * over its hosts, which all the nodes of a large fabric would exhaust
 * (SIM_MAX_HOSTS, net/simgrid_run.h). */
bool simgrid_xml_write_used(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale, FILE *out,
                            diag *d);

#endif
