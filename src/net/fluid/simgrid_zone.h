/* simgrid_zone.h — a topology handed to SimGrid through its platform API, as
 * one network zone that routes itself: SimGrid asks it for the route of a
 * message when the message starts, and it answers with the topology's own
 * route function (platform/topology.h).  No route text, no route table: the
 * zone's memory is its hosts and links, whatever pairs the simulation joins.
 *
 * SimGrid 3.32 creates zones, hosts and links only in C++ (s4u::NetZone,
 * kernel::routing::NetZoneImpl), so this one interface is implemented in C++
 * (simgrid_zone.cpp) behind this C header; docs/architecture.md says why. */
#ifndef COLLSIM_SIMGRID_ZONE_H
#define COLLSIM_SIMGRID_ZONE_H

#include <stdbool.h>

#include "platform/simgrid_xml.h"
#include "platform/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/* After simgrid_init: build T's platform as the root zone, with the hosts the
 * (sorted, deduplicated here) PAIRS join and, unless HOSTS_ONLY, the links on
 * their routes (bandwidths x BANDWIDTH_SCALE), declared in the order the XML
 * platform declares them (simgrid_xml.c) so that SimGrid's solver sees the same
 * system.  HOSTS_ONLY: no link, for actors whose messages bypass SimGrid (the
 * packet model); a message between them would then be a collsim bug and stops
 * the run.  False with a message on stderr when a pair has no route. */
bool simgrid_zone_build(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale, bool hosts_only);

#ifdef __cplusplus
}
#endif

#endif
