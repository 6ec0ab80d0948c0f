/* packet_budget.c — a packet-model simulation's packet-hops, estimated
 * from its schedules before it runs (packet_budget.h). */
#include "exec/packet_budget.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One part's packet-hops: each send's packets times its route's links (the
 * route looked up once per run of sends to one peer). */
static double part_packet_hops(const topology *t, const exec_part *part, route_hop *hops, double mtu_bytes,
                               double *messages)
{
    const schedule *s = part->s;
    double wire = part->wire_denominator > 0 ? (double)part->wire_numerator / part->wire_denominator : 1;
    double total = 0;
    for (int a = 0; a < s->actors; a++) {
        int peer = -1, links = 0;
        sched_cursor cursor;
        sched_cursor_init(&cursor, s, a);
        for (int o = 0; o < s->actor[a].op_count; o++) {
            sched_op op = sched_cursor_op(&cursor, o);
            if (op.kind != OP_SEND) continue;
            if (op.peer != peer) {
                peer = op.peer;
                links = topology_route(t, part->actor_nodes[a], part->actor_nodes[peer], hops);
            }
            double packets = ceil(exec_op_bytes_of(part, a, &op) * wire / mtu_bytes);
            total += (packets > 0 ? packets : 1) * links;
            *messages += 1;
        }
    }
    return total;
}

double packet_hops_estimate(const topology *t, const exec_part *parts, int count, double *messages)
{
    route_hop *hops = route_buffer(t);
    double total = 0, mtu_bytes = t->packet.mtu_bytes > 0 ? packet_unit_bytes(&t->packet) : 4096;
    *messages = 0;
    for (int k = 0; k < count; k++) total += part_packet_hops(t, &parts[k], hops, mtu_bytes, messages);
    free(hops);
    return total;
}

/* The budget: COLLSIM_PACKET_HOPS (a count, or "unlimited": 0), else the
 * default; false when the variable is no such thing. */
static bool packet_budget(double *budget, diag *d)
{
    const char *text = getenv("COLLSIM_PACKET_HOPS");
    *budget = PACKET_HOPS_DEFAULT;
    if (!text) return true;
    if (strcmp(text, "unlimited") == 0) {
        *budget = 0;
        return true;
    }
    char *end;
    double value = strtod(text, &end);
    if (end == text || *end || !isfinite(value) || value < 1)
        return diag_fail(d, "COLLSIM_PACKET_HOPS=%s: give the packet-hops one packet-model simulation may make "
                         "(1e11), or \"unlimited\" (docs/reliability.md)", text);
    *budget = value;
    return true;
}

/* A count as people read it: whole below a billion, else three digits. */
static void format_count(double count, char *out, size_t size)
{
    snprintf(out, size, count < 1e9 ? "%.0f" : "%.3g", count);
}

bool packet_budget_check(const topology *t, const exec_part *parts, int count, const char *label, diag *d)
{
    double budget;
    if (!packet_budget(&budget, d)) return false;
    if (budget == 0) return true;
    double messages, hops = packet_hops_estimate(t, parts, count, &messages);
    if (hops <= budget) return true;
    double step = pow(10, floor(log10(hops)) - 1), enough = ceil(hops / step) * step; /* two digits, rounded up */
    double seconds = hops / PACKET_HOPS_PER_SECOND;
    char estimate[32], limit[32], suggested[32], duration[32];
    format_count(hops, estimate, sizeof estimate);
    format_count(budget, limit, sizeof limit);
    format_count(enough, suggested, sizeof suggested);
    snprintf(duration, sizeof duration, seconds < 120 ? "%.2g s" : "%.0f min", seconds < 120 ? seconds : seconds / 60);
    return diag_fail(d, "%s would make %s packet-hops in the packet model (%.0f messages cut into %s of %.0f B, "
                     "each crossing its route's links), past the budget of %s: about %s at the engine's 10 million a "
                     "second.  Use the fluid model (--model cm02), a smaller size, or give a budget: "
                     "COLLSIM_PACKET_HOPS=%s (docs/reliability.md)",
                     label, estimate, messages, t->packet.unit_bytes > 0 ? "units" : "packets",
                     packet_unit_bytes(&t->packet), limit, duration, suggested);
}
