/* describe.c — the human summary of a topology (`collsim platform describe`). */
#include "platform/describe.h"
#include "platform/library.h"

#include <string.h>

#include "util/json_out.h"
#include "util/units.h"

/* Switches of tier K. */
static int tier_switches(const topology *t, int k)
{
    int count = 0;
    for (int s = 0; s < t->switch_count; s++) count += t->switches[s].tier == k;
    return count;
}

static int physical_links(const topology *t)
{
    int physical = 0;
    for (int l = 0; l < t->link_count; l++) physical += !t->links[l].latency_only;
    return physical;
}

/* Whether routes have a choice to make (several switches per tier, or oversubscription). */
static bool has_routing_choice(const topology *t)
{
    return t->switch_count > t->tier_count || t->oversubscription > 0;
}

static void print_inc(unsigned inc, FILE *out)
{
    if (!inc) return;
    fprintf(out, "  inc:");
    if (inc & INC_REDUCE) fprintf(out, " reduce");
    if (inc & INC_MULTICAST) fprintf(out, " multicast");
    if (inc & INC_A2A) fprintf(out, " a2a");
}

/* Whether TIER has switches (they carry an architecture). */
static bool tier_has_switches(const topology *t, int tier)
{
    for (int s = 0; s < t->switch_count; s++)
        if (t->switches[s].tier == tier) return true;
    return false;
}

/* How the switches of TIER queue: their architecture and what sizes it. */
static void describe_switches(const topology *t, int tier, FILE *out)
{
    const packet_params *p = &t->packet;
    switch_architecture a = p->architecture[tier];
    char size[32];
    fprintf(out, "  %-12s %s switches", t->tiers[tier].name, switch_architecture_name(a));
    if (a == SWITCH_VOQ) {
        fprintf(out, ", %s", voq_scheduler_name(p->scheduler));
        if (p->scheduler == SCHEDULER_ISLIP) fprintf(out, " (%d iteration%s)", p->iterations, p->iterations > 1 ? "s" : "");
    }
    if (p->flow_control == FLOW_CONTROL_NONE) {
        if (packet_output_queues(p, tier)) fprintf(out, ", unbounded output queues");
    } else if (a == SWITCH_SHARED) {
        bool given = p->shared_buffer_bytes[tier] > 0;
        units_format(given ? p->shared_buffer_bytes[tier] : packet_buffer_bytes(t, tier), UNIT_SIZE, size, sizeof size);
        fprintf(out, ", output queues sharing %s %s, dynamic threshold alpha %g", size,
                given ? "per switch" : "per port (default: the room of its input buffers)", p->alpha);
    } else if (packet_output_queues(p, tier)) {
        units_format(packet_output_buffer_bytes(t, tier), UNIT_SIZE, size, sizeof size);
        fprintf(out, ", output queues of %s", size);
    }
    fprintf(out, "\n");
}

/* Virtual lanes, where a link has more than one: each tier's count, and
 * how ports share a link among them. */
static void describe_lanes(const topology *t, FILE *out)
{
    const packet_params *p = &t->packet;
    int lanes = packet_max_lanes(p, t->tier_count);
    if (lanes < 2) return;
    fprintf(out, "  %-12s ", "lanes");
    for (int k = 0; k < t->tier_count; k++) fprintf(out, "%s%s %d", k ? ", " : "", t->tiers[k].name, p->virtual_lanes[k]);
    bool weighted = false;
    for (int l = 0; l < lanes; l++) weighted |= p->lane_weights[l] != 1;
    fprintf(out, " per link, each with its own buffer and credits; ports serve them %s", weighted ? "weighted (" : "round robin");
    for (int l = 0; weighted && l < lanes; l++) fprintf(out, "%s%d", l ? ":" : "", p->lane_weights[l]);
    fprintf(out, "%s\n", weighted ? " packets a turn)" : "");
}

/* Ranks that route (torus, mesh): their router model and routing. */
static void describe_routers(const topology *t, FILE *out)
{
    const router_params *r = &t->packet.router;
    if (!t->lattice) return;
    bool adaptive = t->packet.routing == PACKET_ROUTING_ADAPTIVE;
    int dynamic = adaptive ? router_adaptive_channels(&t->packet) : 0, vcs = topology_route_vcs(t) + dynamic;
    static const char *const counts[] = {"", ", one adaptive", ", two adaptive", ", three adaptive", ", four adaptive"};
    fprintf(out, "  %-12s ranks route: %d injection queue%s per link (%s, packet by packet), %s, %s; "
            "%s; %d virtual channel%s per lane (%s%s)\n", "routers", r->injection, r->injection == 1 ? "" : "s",
            r->order == INJECTION_FARTHEST ? "the farthest message first" : "messages in turn",
            r->transit == TRANSIT_PRIORITY ? "transit before injection"
            : r->transit == TRANSIT_AGE ? "transit before injection, the oldest packet first (age)"
            : r->transit == TRANSIT_BUBBLE ? "injection only with room for two packets (bubble)"
                                           : "transit and injection in turn",
            r->architecture == SWITCH_VOQ ? "a queue per input and output" : "a FIFO per input",
            adaptive ? "minimal adaptive routing with a dimension-ordered escape" : "dimension-ordered routing", vcs,
            vcs == 1 ? "" : "s",
            topology_route_vcs(t) < 2 ? "one"
            : router_channels(&t->packet) == CHANNELS_BALANCED ? "two for the dateline, arcs that do not cross it on either"
                                                               : "two for the dateline",
            counts[dynamic]);
}

/* The packet model's parameters, and per tier whether its input buffers
 * cover the credit loop (else a lone flow cannot stream at full rate). */
static void describe_packet(const topology *t, FILE *out)
{
    const packet_params *p = &t->packet;
    char buffer[32], loop[32];
    fprintf(out, "packet     (--model packet) mtu %.0f B, header %.0f B per packet, %s, flow control %s, routing %s, "
            "crossbar speedup %g\n", p->mtu_bytes, p->header_bytes, packet_switching_name(p->switching),
            packet_flow_control_name(p->flow_control), packet_routing_name(p->routing), p->speedup);
    if (p->unit_bytes > 0)
        fprintf(out, "  %-12s the engine moves %.0f B at once (%.0f B on the wire): a train of %g packets cut through "
                "together, buffers counted in those units (docs/scale.md, \"Coarse units\")\n", "unit",
                packet_unit_bytes(p), packet_unit_wire_bytes(p), packet_unit_bytes(p) / p->mtu_bytes);
    if (p->routing == PACKET_ROUTING_SPRAY)
        fprintf(out, "  %-12s a sender's packets cycle through %d entropy values; a switch hashes a packet's flow "
                "and entropy to its uplink\n", "spray", p->entropies);
    for (int k = 0; k < t->tier_count; k++)
        if (tier_has_switches(t, k)) describe_switches(t, k, out);
    describe_lanes(t, out);
    describe_routers(t, out);
    if (p->flow_control == FLOW_CONTROL_NONE) {
        fprintf(out, "  %-12s unbounded input buffers (no credits)\n", "every tier");
        return;
    }
    for (int k = 0; k < t->tier_count; k++) {
        double need = packet_credit_loop_bytes(t, k), have = packet_buffer_bytes(t, k);
        if (need == 0) continue;
        units_format(have, UNIT_SIZE, buffer, sizeof buffer);
        units_format(need, UNIT_SIZE, loop, sizeof loop);
        fprintf(out, "  %-12s buffer %s per input port%s%s; credit loop %s: %s\n", t->tiers[k].name, buffer,
                p->virtual_lanes[k] > 1 ? " and lane" : "", p->buffer_bytes[k] > 0 ? "" : " (default)", loop,
                have >= need ? "covered, a lone flow streams at full rate" : "NOT covered, a lone flow is window-bound");
    }
}

void platform_describe(const topology *t, FILE *out)
{
    char a[32], b[32];
    fprintf(out, "platform   %s (kind %s)\n", t->name, t->kind);
    fprintf(out, "ranks      %d\n", t->ranks);
    if (t->dim_count) {
        fprintf(out, "dims       ");
        for (int i = 0; i < t->dim_count; i++) fprintf(out, "%s%d", i ? " x " : "", t->dims[i]);
        fprintf(out, "\n");
    }
    fprintf(out, "switches   %d", t->switch_count);
    for (int k = 0, listed = 0; k < t->tier_count; k++) {
        int count = tier_switches(t, k);
        if (count) fprintf(out, "%s %s: %d", listed++ ? ", " : "  ", t->tiers[k].name, count);
    }
    fprintf(out, "\n");
    int physical = physical_links(t);
    fprintf(out, "links      %d full-duplex", physical);
    if (physical != t->link_count) fprintf(out, " (+%d latency-only switch delays)", t->link_count - physical);
    fprintf(out, "\n");
    fprintf(out, "tiers      (alpha and BW as the formulas use them; BW per rank, per direction)\n");
    for (int k = 0; k < t->tier_count; k++) {
        const topo_tier *tier = &t->tiers[k];
        units_format(tier->alpha_s, UNIT_TIME, a, sizeof a);
        units_format(tier->bandwidth_Bps, UNIT_BANDWIDTH, b, sizeof b);
        fprintf(out, "  %-12s alpha %-10s BW %-12s %s\n", tier->name, a, b, tier->hop);
        fprintf(out, "  %-12s split: %s", "", tier->split);
        if (tier->efficiency != 1) fprintf(out, "  efficiency %g", tier->efficiency);
        if (tier->overhead_s > 0) {
            units_format(tier->overhead_s, UNIT_TIME, a, sizeof a);
            fprintf(out, "  overhead %s", a);
        }
        if (tier->inc) {
            units_format(tier->alpha_switch_s, UNIT_TIME, a, sizeof a);
            fprintf(out, "  alpha_switch %s", a);
            print_inc(tier->inc, out);
        }
        fprintf(out, "\n");
    }
    if (t->launch_s > 0) {
        units_format(t->launch_s, UNIT_TIME, a, sizeof a);
        fprintf(out, "launch     %s per collective\n", a);
    }
    if (t->library != LIBRARY_NONE || t->architecture != ARCH_NONE) {
        fprintf(out, "library    %s", library_name(t->library));
        if (t->architecture != ARCH_NONE) fprintf(out, " on %s GPUs", architecture_name(t->architecture));
        fprintf(out, "%s\n", t->library != LIBRARY_NONE ? " (a case without protocol: or channels: gets auto)" : "");
    }
    if (t->nvls_efficiency < 1) fprintf(out, "nvls       %g of the NVLink rate (NVLS derating)\n", t->nvls_efficiency);
    if (t->protocols) {
        fprintf(out, "protocols ");
        for (int k = 0; k < TOPO_PROTOCOLS; k++)
            if ((t->protocols >> k) & 1u) fprintf(out, " %s", topology_protocol_names[k]);
        fprintf(out, " (the library's; `auto` picks among these)\n");
    }
    const double caps[2] = {t->ll_max_bw_Bps, t->ll128_max_bw_Bps};
    for (int k = 0; k < 2; k++)
        if (caps[k] > 0) {
            units_format(caps[k], UNIT_BANDWIDTH, b, sizeof b);
            fprintf(out, "%-10s at most %s of bus bandwidth\n", k ? "ll128" : "ll", b);
        }
    fprintf(out, "diameter   %d links\n", t->diameter_links);
    units_format(t->bisection_Bps, UNIT_BANDWIDTH, b, sizeof b);
    fprintf(out, "bisection  %s (one direction; %s)\n", b, t->bisection_cut);
    if (t->oversubscription > 0) fprintf(out, "oversubscription  s = %g\n", t->oversubscription);
    if (has_routing_choice(t))
        fprintf(out, "routing    %s\n", t->routing == ROUTING_ECMP ? "ecmp (per-flow hash over equal-cost uplinks)"
                                                                   : "spread (ideal balance: parallel uplinks as one link)");
    if (t->notes[0]) fprintf(out, "%s\n", t->notes);
    describe_packet(t, out);
}

static void json_key(FILE *out, const char *key)
{
    fprintf(out, ", \"%s\": ", key);
}

static void json_tier(const topology *t, int k, FILE *out)
{
    const topo_tier *tier = &t->tiers[k];
    fprintf(out, "{\"name\": ");
    json_print_string(out, tier->name);
    json_key(out, "hop");
    json_print_string(out, tier->hop);
    json_key(out, "switches");
    fprintf(out, "%d", tier_switches(t, k));
    json_key(out, "alpha_s");
    json_print_number(out, tier->alpha_s);
    json_key(out, "bandwidth_Bps");
    json_print_number(out, tier->bandwidth_Bps);
    json_key(out, "efficiency");
    json_print_number(out, tier->efficiency);
    json_key(out, "overhead_s");
    json_print_number(out, tier->overhead_s);
    json_key(out, "alpha_switch_s");
    if (tier->inc) json_print_number(out, tier->alpha_switch_s);
    else fputs("null", out);
    json_key(out, "inc");
    static const struct {
        unsigned bit;
        const char *name;
    } capabilities[] = {{INC_REDUCE, "reduce"}, {INC_MULTICAST, "multicast"}, {INC_A2A, "a2a"}};
    fputc('[', out);
    for (int i = 0, n = 0; i < 3; i++)
        if (tier->inc & capabilities[i].bit) fprintf(out, "%s\"%s\"", n++ ? ", " : "", capabilities[i].name);
    fputc(']', out);
    json_key(out, "split");
    json_print_string(out, tier->split);
    fputc('}', out);
}

void platform_describe_json(const topology *t, FILE *out)
{
    fprintf(out, "{\"name\": ");
    json_print_string(out, t->name);
    json_key(out, "kind");
    json_print_string(out, t->kind);
    fprintf(out, ", \"ranks\": %d, \"dims\": [", t->ranks);
    for (int i = 0; i < t->dim_count; i++) fprintf(out, "%s%d", i ? ", " : "", t->dims[i]);
    fprintf(out, "], \"switches\": %d, \"links\": %d, \"latency_only_links\": %d,\n \"tiers\": [", t->switch_count,
            physical_links(t), t->link_count - physical_links(t));
    for (int k = 0; k < t->tier_count; k++) {
        fprintf(out, "%s\n  ", k ? "," : "");
        json_tier(t, k, out);
    }
    fprintf(out, "],\n \"launch_s\": ");
    json_print_number(out, t->launch_s);
    json_key(out, "library");
    json_print_string(out, library_name(t->library));
    json_key(out, "architecture");
    if (t->architecture != ARCH_NONE) json_print_string(out, architecture_name(t->architecture));
    else fputs("null", out);
    json_key(out, "nvls_efficiency");
    json_print_number(out, t->nvls_efficiency);
    json_key(out, "protocols");
    fprintf(out, "[");
    for (int k = 0, first = 1; k < TOPO_PROTOCOLS; k++)
        if (!t->protocols || (t->protocols >> k) & 1u) {
            fprintf(out, "%s\"%s\"", first ? "" : ", ", topology_protocol_names[k]);
            first = 0;
        }
    fprintf(out, "]");
    json_key(out, "ll_max_bw_Bps");
    json_print_number(out, t->ll_max_bw_Bps);
    json_key(out, "ll128_max_bw_Bps");
    json_print_number(out, t->ll128_max_bw_Bps);
    fprintf(out, ", \"diameter_links\": %d", t->diameter_links);
    json_key(out, "bisection_Bps");
    json_print_number(out, t->bisection_Bps);
    json_key(out, "bisection_cut");
    json_print_string(out, t->bisection_cut);
    json_key(out, "oversubscription");
    if (t->oversubscription > 0) json_print_number(out, t->oversubscription);
    else fputs("null", out);
    json_key(out, "routing");
    if (has_routing_choice(t)) json_print_string(out, t->routing == ROUTING_ECMP ? "ecmp" : "spread");
    else fputs("null", out);
    json_key(out, "notes");
    json_print_string(out, t->notes);
    fprintf(out, "}\n");
}
