/* lanes.h — virtual lanes (InfiniBand's VLs; docs/packet.md): a link
 * direction carries several lanes, each with a buffer of its own at the far
 * end and its own credits, so a lane's packets never wait behind another
 * lane's.  Traffic names its lane (a case's or background's
 * `virtual_lane`); a link with fewer lanes carries it on its last.  A free
 * port serves its lanes in turn, each for up to its weight in packets
 * while it has a packet that may start (round robin when every weight is
 * 1), as InfiniBand's VL arbitration table does by weight.
 *
 * Virtual channel of a buffer: lane x the channels the routing needs
 * within a lane (one, or two for a torus dateline) + the routing's
 * channel. */
#ifndef COLLSIM_LANES_H
#define COLLSIM_LANES_H

#include <stdint.h>

/* A port's lane arbitration. */
typedef struct port_lanes {
    uint8_t count; /* lanes of its link */
    uint8_t turn;  /* the lane being served */
    uint8_t left;  /* packets it may still send in this turn */
} port_lanes;

/* The lane a packet of LEVEL (the traffic's lane) takes on a link of COUNT lanes. */
static inline int lane_on_link(int level, int count)
{
    return level < count ? level : count - 1;
}

/* Lane L, whose weight is WEIGHTS[L], sent a packet on port P's link. */
static inline void lanes_served(port_lanes *p, int lane, const uint8_t *weights)
{
    if (lane == p->turn && p->left > 0) p->left--;
    else {
        p->turn = (uint8_t)lane;
        p->left = (uint8_t)(weights[lane] - 1);
    }
}

#endif
