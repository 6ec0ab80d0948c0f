/* simgrid_xml.h — the SimGrid platform (XML, DTD 4.1) of a topology: one host
 * per rank and per switch, SPLITDUPLEX links, FATPIPE latency-only switch
 * delays, and one Full-routing zone whose routes are the topology's own,
 * emitted for the node pairs asked for: for SimGrid's own tools (smpirun, the
 * ring baseline).  Simulations build their platform through SimGrid's API
 * instead (net/fluid/simgrid_zone.h): no text, no route table. */
#ifndef COLLSIM_SIMGRID_XML_H
#define COLLSIM_SIMGRID_XML_H

#include <stdbool.h>
#include <stdio.h>

#include "platform/topology.h"
#include "util/diag.h"

typedef struct node_pair {
    int src, dst;
} node_pair;

/* The whole platform (every host and link) for SimGrid's own tools (smpirun
 * -platform), with routes for PAIRS: CONFIG ("--cfg=NAME:VALUE" strings, NULL-terminated) becomes
 * the platform's <config> block, and NOTE (may be NULL) a comment. */
bool simgrid_xml_write_standalone(const topology *t, node_pair *pairs, int pair_count, const char *const *config,
                                  const char *note, FILE *out, diag *d);

#endif
