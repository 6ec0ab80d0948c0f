/* choose.h — routing on multi-path tiers, per packet, at each fork of its
 * route (the switch's equal-cost links toward the destination), as
 * decisions: a policy returns the alternative taken (0 .. count - 1); the
 * engine moves the packet onto it.
 *   spray     a flow's packets carry entropy values in turn (the sender
 *             cycles through them, as Ultra Ethernet's and EQDS's senders
 *             do); each switch hashes a packet's flow and entropy to one of
 *             its alternatives, as it hashes a flow under ECMP;
 *   adaptive  the alternative whose port has the fewest bytes queued (waiting
 *             for it, a virtual output queue's every packet, or sent into
 *             the buffer it feeds and not yet gone on);
 *             ties go to the flow's ECMP alternative, then the next ones.
 * `ecmp` never gets here: a flow's route already takes the hash's links.
 * At a rank that routes (torus, mesh) `adaptive` is minimal adaptive
 * routing with an escape (Duato): of the dimensions that bring the packet
 * closer, the one whose port has the fewest bytes queued among those whose
 * adaptive channel has room for the packet now (the packet takes that room
 * as it chooses, so it never waits for room there); when none has, the
 * escape: the hop dimension order takes, on the dateline's channels (the
 * next fork chooses again).  Escape hops follow dimension order from hop
 * to hop (a packet that escapes in dimension i has nothing left below i),
 * so the escape channels alone are deadlock-free, and a packet on an
 * adaptive channel never waits for room: Duato's condition. */
#ifndef COLLSIM_CHOOSE_H
#define COLLSIM_CHOOSE_H

#include "net/packet/arbitration.h"
#include "net/packet/port.h"
#include "net/packet/routing.h"

/* Spray: the route a packet of ENTROPY takes from ROUTE's first open fork
 * on, every fork decided (each switch's hash of the flow's ends, the
 * entropy and the switch: the same at whichever fork it is computed). */
int choose_spray(route_table *routes, int route, unsigned entropy);

/* Adaptive, for a packet on ROUTE at BRANCH, reading PORTS (their far
 * BUFFERS, 2^VC_SHIFT a port, settled to NOW) and the REQUESTS waiting for
 * them; the alternatives' hops come from ROUTES (route_options). */
int choose_adaptive(route_table *routes, port *ports, port_buffer *buffers, int vc_shift, request_view requests,
                    net_time now, int route, route_branch branch);
/* Minimal adaptive at a rank that routes, for a packet of WIRE bytes,
 * among ROUTE's first COUNT alternatives (its ways on each adaptive
 * channel, route_choice_count): the one whose port has the fewest bytes
 * queued and whose buffer has room for WIRE under credit flow control
 * (CREDIT; the engine takes it; any has room without), the first on
 * ties (dimension order, then the first channel); COUNT, the escape,
 * when none has room. */
int choose_minimal(route_table *routes, port *ports, port_buffer *buffers, int vc_shift, request_view requests,
                   net_time now, int route, int count, int64_t wire, bool credit);

#endif
