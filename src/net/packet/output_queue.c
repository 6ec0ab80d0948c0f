/* output_queue.c — which switch ports have output queues, their crossbar
 * ports and the shared switches' pools (output_queue.h).  Not on a
 * packet's path: built once per engine. */
#include "net/packet/output_queue.h"

#include <math.h>
#include <stdlib.h>

#include "util/memory.h"

int output_queue_switch(const topology *t, int p)
{
    const topo_link *link = &t->links[p / 2];
    int node = port_source_node(t, p);
    if (link->latency_only || node < t->ranks) return -1; /* a rank's port, or none */
    int s = node - t->ranks;
    return packet_output_queues(&t->packet, t->switches[s].tier) ? s : -1;
}

void output_queues_init(output_queues *o, const topology *t, double scale)
{
    int ports = 2 * t->link_count;
    *o = (output_queues){.first = ports};
    int32_t *switch_ports = o->switch_ports = calloc((size_t)t->switch_count + 1, sizeof *switch_ports);
    if (!switch_ports) out_of_memory();
    for (int p = 0; p < ports; p++) {
        int s = output_queue_switch(t, p);
        if (s < 0) continue;
        if (!o->crossbar_of) {
            o->crossbar_of = malloc(sizeof *o->crossbar_of * (size_t)ports);
            if (!o->crossbar_of) out_of_memory();
            for (int q = 0; q < ports; q++) o->crossbar_of[q] = -1;
        }
        o->crossbar_of[p] = o->first + o->count++;
        switch_ports[s]++;
    }
    if (o->count) {
        o->link_of = malloc(sizeof *o->link_of * (size_t)o->count);
        o->waiting = calloc((size_t)o->count, 1);
        o->pools = calloc((size_t)t->switch_count, sizeof *o->pools);
        o->pool_count = t->switch_count;
        if (!o->link_of || !o->waiting || !o->pools) out_of_memory();
        for (int p = 0; p < ports; p++)
            if (o->crossbar_of[p] >= 0) o->link_of[o->crossbar_of[p] - o->first] = p;
        for (int s = 0; s < t->switch_count; s++) {
            int tier = t->switches[s].tier;
            if (!switch_ports[s] || t->packet.architecture[tier] != SWITCH_SHARED) continue;
            shared_pool *pool = &o->pools[s];
            pool->capacity = llround(packet_shared_buffer_bytes(t, tier, switch_ports[s]) * scale);
            pool->alpha = t->packet.alpha;
            pool->waiting = malloc(sizeof *pool->waiting * (size_t)switch_ports[s]);
            if (!pool->waiting) out_of_memory();
        }
    }
}

void output_queues_free(output_queues *o)
{
    for (int s = 0; o->pools && s < o->pool_count; s++) free(o->pools[s].waiting);
    free(o->crossbar_of);
    free(o->link_of);
    free(o->waiting);
    free(o->pools);
    free(o->switch_ports);
    *o = (output_queues){0};
}
