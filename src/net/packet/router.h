/* router.h — ranks that route (torus, mesh: docs/packet.md, "Routers"), as
 * real tori build them: a rank's own messages wait in a few injection
 * queues per outgoing link (Blue Gene's DMA injection FIFOs, one per torus
 * direction), each queue one input of the link, rather than every message
 * an input of its own.  A queue sends one packet at a time from the
 * messages it holds: the farthest message's first, in turn among messages
 * as far (`order: farthest`, the default: the last packets a rank sends
 * are then its shortest flights), or every message in turn (`order:
 * in_turn`, a DMA engine working on the descriptors it holds).  At an
 * outgoing link packets passing through go before injected ones, the
 * oldest first (`transit: age`, arbitration.h), so that a rank's own
 * traffic cannot fill the rings' buffers and stall what they carry.  This
 * file keeps the queues and says which message sends next: the engine
 * offers it. */
#ifndef COLLSIM_ROUTER_H
#define COLLSIM_ROUTER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct router_state {
    int queues;               /* injection queues per link port; 0: none (every message sends at once) */
    bool farthest;            /* order: farthest (else in turn) */
    int32_t *sending;         /* by port * queues + k: the message whose packet is offered, -1: none */
    int32_t *waiting;         /* by queue: the root of its waiting messages' heap, -1 when empty */
    uint64_t *turns;          /* by queue: turns given so far */
    uint32_t *joins;          /* by port: messages that joined its queues (each joins the next queue) */
} router_state;

struct engine;
/* E's routers, from its platform's `router:` (nothing where ranks do not route). */
void router_init(struct engine *e);
void router_free(router_state *r);
/* Message SLOT, whose first port is P, joins one of P's injection queues:
 * true when it sends now, false when it waits. */
bool router_join(struct engine *e, int slot, int p);
/* Message SLOT, sending from its queue, has cut a packet: the message
 * whose packet that queue sends next (SLOT waits its turn again while it
 * has packets left), or -1 when the queue is empty. */
int router_sent(struct engine *e, int slot);

#endif
