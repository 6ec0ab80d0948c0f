/* packet_flows.h — point-to-point flows on the packet engine alone, without
 * SimGrid: for tests (exact forms, backpressure, deadlock) and the engine's
 * benchmark.  The schedules run through the executor (net_packet.c). */
#ifndef COLLSIM_PACKET_FLOWS_H
#define COLLSIM_PACKET_FLOWS_H

#include <stdbool.h>

#include "net/flow.h"
#include "net/network.h"
#include "net/packet/engine.h"

/* Simulate FLOWS (whole bytes) on T's packet model; FINISH_S[i] receives the
 * time flow i's last byte arrives.  Returns the engine, for its counters
 * (caller frees), or NULL with a message: no route, or the network
 * deadlocked (lossless buffers in a cycle).  VIRTUAL_CHANNELS false runs the
 * torus without its dateline channels. */
engine *packet_run_flows(const topology *t, const flow *flows, int count, bool virtual_channels, double *finish_s,
                         diag *d);

/* The same on E, an engine made for T (and set up: ties, virtual
 * channels) before anything is sent; false with a message. */
bool packet_run_flows_on(engine *e, const flow *flows, int count, double *finish_s, diag *d);
/* Every port's counts on E now (net_link_stats, by port), in seconds and bytes
 * unscaled by SCALE: a stall or a buffer's occupancy under way counted up to now. */
void packet_link_stats(engine *e, double scale, net_link_stats *links);

#endif
