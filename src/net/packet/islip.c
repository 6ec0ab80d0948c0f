/* islip.c — iSLIP's request, grant and accept rounds at one switch
 * (islip.h).  Inputs are the buffers the virtual output queues belong to:
 * one packet crosses from a buffer at a time, so a buffer is matched once
 * per round. */
#include "net/packet/islip.h"

#include <stdlib.h>

#include "net/packet/output_queue.h"
#include "util/memory.h"

/* Whether voq input IN's head may cross into port Q now: eligible, its
 * buffer's crossbar free, and room where it goes. */
static bool ready(port *q, port_buffer *far, request_view v, int in, bool credit, net_time now)
{
    const input_request *i = request_of(v, in);
    if (i->eligible > now || crossbar_free(v, in) > now) return false;
    if (!credit || far[i->vc].credits >= i->wire) return true;
    buffer_settle(&far[i->vc], q->latency, now);
    return far[i->vc].credits >= i->wire;
}

/* The input IN crosses from: a virtual output queue's buffer, or itself
 * (a message at a switch that sends: it has one queue). */
static int32_t buffer_of(request_view v, int in)
{
    return in >= VOQ_INPUT_BASE ? v.voqs[in - VOQ_INPUT_BASE].buffer : in;
}

static uint32_t accept_pointer(const islip_state *st, int32_t buffer)
{
    return buffer < st->accept_count ? (uint32_t)st->accept[buffer] : 0;
}

static bool buffer_matched(const islip_state *st, int matched, int32_t buffer)
{
    for (int k = 0; k < matched; k++)
        if (st->matched_buffer[k] == buffer) return true;
    return false;
}

int islip_match_switch(islip_state *st, int s, port *ports, port_buffer *buffers, request_view v, bool credit,
                       net_time now, islip_match *matches)
{
    const islip_switch *sw = &st->switches[s];
    const int32_t *outs = st->outputs + sw->first;
    int matched = 0;
    for (int k = 0; k < sw->count; k++) st->granted[k] = -1, st->requested[k] = false;
    for (int round = 0; round < st->iterations; round++) {
        int grants = 0;
        for (int k = 0; k < sw->count; k++) { /* grant: each free, unmatched output */
            port *q = &ports[outs[k]];
            port_buffer *far = &buffers[(size_t)outs[k] << st->vc_shift];
            st->granted[k] = -1;
            if (q->free_at > now || q->request_head < 0 || st->gate[outs[k]] > now) continue;
            bool taken = false;
            for (int m = 0; m < matched && !taken; m++) taken = matches[m].output == outs[k];
            if (taken) continue;
            uint64_t best = UINT64_MAX; /* wider than any distance */
            for (int before = -1, in = q->request_head; in >= 0; before = in, in = request_of(v, in)->next) {
                int32_t buffer = buffer_of(v, in);
                uint32_t distance = (uint32_t)buffer - (uint32_t)st->grant[outs[k]];
                if (distance >= best || buffer_matched(st, matched, buffer) || !ready(q, far, v, in, credit, now)) continue;
                best = distance;
                st->granted[k] = in;
                st->granted_before[k] = before;
            }
            grants += st->granted[k] >= 0;
            st->requested[k] |= st->granted[k] >= 0;
        }
        if (!grants) break;
        int before_round = matched;
        for (int k = 0; k < sw->count; k++) { /* accept: each buffer granted, once */
            if (st->granted[k] < 0) continue;
            int32_t buffer = buffer_of(v, st->granted[k]);
            if (buffer_matched(st, matched, buffer)) continue;
            int chosen = k;
            uint32_t best = (uint32_t)outs[k] - accept_pointer(st, buffer);
            for (int j = k + 1; j < sw->count; j++) {
                if (st->granted[j] < 0 || buffer_of(v, st->granted[j]) != buffer) continue;
                uint32_t distance = (uint32_t)outs[j] - accept_pointer(st, buffer);
                if (distance < best) best = distance, chosen = j;
            }
            matches[matched] = (islip_match){outs[chosen], st->granted[chosen], st->granted_before[chosen]};
            st->matched_buffer[matched++] = buffer;
            if (round == 0) { /* the pointers move one past the pair, in the first round only */
                st->grant[outs[chosen]] = buffer + 1;
                if (buffer < st->accept_count) st->accept[buffer] = outs[chosen] + 1;
            }
        }
        if (matched == before_round) break;
    }
    return matched;
}

/* The voq switch port P leaves (its crossbar port's when it has one:
 * then the output queue, not the match, feeds the link), or -1. */
static int voq_switch_of(const topology *t, const output_queues *o, int p)
{
    int link_port = p >= o->first ? o->link_of[p - o->first] : p;
    if (p < o->first && o->crossbar_of && o->crossbar_of[p] >= 0) return -1;
    if (t->links[link_port / 2].latency_only) return -1;
    int node = port_source_node(t, link_port);
    if (node < t->ranks) return -1;
    int s = node - t->ranks;
    return t->packet.architecture[t->switches[s].tier] == SWITCH_VOQ ? s : -1;
}

islip_state *islip_create(const topology *t, const output_queues *o, int ports, int vc_shift)
{
    bool any = false;
    for (int k = 0; k < t->tier_count; k++) any |= t->packet.architecture[k] == SWITCH_VOQ;
    if (!any || t->packet.scheduler != SCHEDULER_ISLIP) return NULL;
    islip_state *st = calloc(1, sizeof *st);
    if (!st) out_of_memory();
    st->iterations = t->packet.iterations;
    st->vc_shift = vc_shift;
    st->accept_count = ports << vc_shift;
    st->switches = calloc((size_t)t->switch_count + 1, sizeof *st->switches);
    st->switch_of = malloc(sizeof *st->switch_of * (size_t)(ports + 1));
    st->outputs = malloc(sizeof *st->outputs * (size_t)(ports + 1));
    st->grant = calloc((size_t)ports + 1, sizeof *st->grant);
    st->gate = calloc((size_t)ports + 1, sizeof *st->gate);
    st->accept = calloc((size_t)st->accept_count + 1, sizeof *st->accept);
    if (!st->switches || !st->switch_of || !st->outputs || !st->grant || !st->gate || !st->accept) out_of_memory();
    for (int p = 0; p < ports; p++)
        if ((st->switch_of[p] = voq_switch_of(t, o, p)) >= 0) st->switches[st->switch_of[p]].count++;
    int first = 0, widest = 1;
    for (int s = 0; s < t->switch_count; s++) {
        st->switches[s].first = first;
        first += st->switches[s].count;
        if (st->switches[s].count > widest) widest = st->switches[s].count;
        st->switches[s].count = 0;
    }
    for (int p = 0; p < ports; p++) {
        islip_switch *sw = st->switch_of[p] >= 0 ? &st->switches[st->switch_of[p]] : NULL;
        if (sw) st->outputs[sw->first + sw->count++] = p;
    }
    st->granted = malloc(sizeof *st->granted * (size_t)widest);
    st->granted_before = malloc(sizeof *st->granted_before * (size_t)widest);
    st->matched_buffer = malloc(sizeof *st->matched_buffer * (size_t)widest);
    st->matches = malloc(sizeof *st->matches * (size_t)widest);
    st->requested = malloc(sizeof *st->requested * (size_t)widest);
    if (!st->granted || !st->granted_before || !st->matched_buffer || !st->matches || !st->requested) out_of_memory();
    return st;
}

void islip_free(islip_state *st)
{
    if (!st) return;
    free(st->switches);
    free(st->switch_of);
    free(st->outputs);
    free(st->grant);
    free(st->gate);
    free(st->requested);
    free(st->accept);
    free(st->granted);
    free(st->granted_before);
    free(st->matched_buffer);
    free(st->matches);
    free(st);
}
