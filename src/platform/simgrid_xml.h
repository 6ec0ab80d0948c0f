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

/* Write a simulation's platform with routes for PAIRS (deduplicated here;
 * may be reordered): only the hosts the pairs join and the links on their
 * routes, since SimGrid's Full zone keeps an N x N route table over its hosts
 * that all the nodes of a large fabric would exhaust (SIM_MAX_HOSTS,
 * net/simgrid_run.h).  Link bandwidths are multiplied by BANDWIDTH_SCALE (1
 * for the real fabric; the executor scales bytes and bandwidths together so
 * that fractional chunk sizes stay exact).  False with a message when a pair
 * has no route. */
bool simgrid_xml_write(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale, FILE *out, diag *d);

/* Only the hosts PAIRS join, no link and no route: a platform for actors
 * whose messages do not go through SimGrid (the packet model). */
bool simgrid_xml_write_hosts(const topology *t, node_pair *pairs, int pair_count, FILE *out, diag *d);

/* The whole platform (every host and link) for SimGrid's own tools (smpirun
 * -platform), with routes for PAIRS: CONFIG ("--cfg=NAME:VALUE" strings, NULL-terminated) becomes
 * the platform's <config> block, and NOTE (may be NULL) a comment. */
bool simgrid_xml_write_standalone(const topology *t, node_pair *pairs, int pair_count, const char *const *config,
                                  const char *note, FILE *out, diag *d);

#endif
