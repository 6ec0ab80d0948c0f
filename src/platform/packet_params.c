/* packet_params.c — reading and deriving the `packet:` parameters. */
#include "platform/packet_params.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "platform/topology.h"
#include "util/units.h"
#include "yaml/yaml_tree.h"

static const char *const switching_names[] = {"cut_through", "store_and_forward"};
static const char *const flow_control_names[] = {"credit", "none"};
static const char *const routing_names[] = {"ecmp", "spray", "adaptive"};
static const char *const architecture_names[] = {"fifo", "voq", "shared"};
static const char *const scheduler_names[] = {"round_robin", "islip"};
static const char *const transit_names[] = {"round_robin", "priority", "bubble", "age"};
static const char *const order_names[] = {"farthest", "in_turn"};
static const char *const channels_names[] = {"default", "balanced", "dateline"};

const char *packet_switching_name(packet_switching s) { return switching_names[s]; }
const char *packet_flow_control_name(packet_flow_control f) { return flow_control_names[f]; }
const char *packet_routing_name(packet_routing r) { return routing_names[r]; }
const char *switch_architecture_name(switch_architecture a) { return architecture_names[a]; }
const char *voq_scheduler_name(voq_scheduler s) { return scheduler_names[s]; }
const char *router_transit_name(router_transit r) { return transit_names[r]; }
const char *injection_order_name(injection_order o) { return order_names[o]; }
const char *dateline_channels_name(dateline_channels c) { return channels_names[c]; }

int router_adaptive_channels(const packet_params *p)
{
    return p->router.adaptive_channels > 0 ? p->router.adaptive_channels : 2;
}

dateline_channels router_channels(const packet_params *p)
{
    if (p->router.channels != CHANNELS_DEFAULT) return p->router.channels;
    return p->routing == PACKET_ROUTING_ADAPTIVE ? CHANNELS_DATELINE : CHANNELS_BALANCED;
}

void packet_params_default(packet_params *p)
{
    memset(p, 0, sizeof *p);
    p->mtu_bytes = 4096;
    p->header_bytes = 0;
    p->switching = SWITCHING_CUT_THROUGH;
    p->flow_control = FLOW_CONTROL_CREDIT;
    p->routing = PACKET_ROUTING_ECMP;
    p->entropies = 64;
    p->speedup = 1;
    p->scheduler = SCHEDULER_ROUND_ROBIN;
    p->iterations = 1;
    p->alpha = 1;
    for (int k = 0; k < PACKET_MAX_TIERS; k++) p->virtual_lanes[k] = 1;
    for (int l = 0; l < PACKET_MAX_LANES; l++) p->lane_weights[l] = 1;
    p->router = (router_params){.injection = 1, .transit = TRANSIT_AGE, .architecture = SWITCH_VOQ};
}

int packet_max_lanes(const packet_params *p, int tiers)
{
    int most = 1;
    for (int k = 0; k < tiers; k++)
        if (p->virtual_lanes[k] > most) most = p->virtual_lanes[k];
    return most;
}

double packet_wire_bytes(const packet_params *p)
{
    return p->mtu_bytes + p->header_bytes;
}

double packet_unit_bytes(const packet_params *p)
{
    return p->unit_bytes > 0 ? p->unit_bytes : p->mtu_bytes;
}

double packet_unit_wire_bytes(const packet_params *p)
{
    return packet_unit_bytes(p) * packet_wire_bytes(p) / p->mtu_bytes;
}

/* The longest switch crossbar delay of T: a conservative d for every link
 * (a link does not record which switch it enters). */
static double longest_crossbar_s(const topology *t)
{
    double d = 0;
    for (int s = 0; s < t->switch_count; s++) {
        int x = t->switches[s].xbar_link;
        if (x >= 0 && t->links[x].latency_s > d) d = t->links[x].latency_s;
    }
    return d;
}

double packet_credit_loop_bytes(const topology *t, int tier)
{
    const packet_params *p = &t->packet;
    double w = packet_unit_wire_bytes(p), d = longest_crossbar_s(t), need = 0;
    double extra = p->switching == SWITCHING_STORE_AND_FORWARD ? 2 : 1;
    for (int l = 0; l < t->link_count; l++) {
        const topo_link *link = &t->links[l];
        if (link->latency_only || link->tier != tier) continue;
        double packets = ceil((2 * link->latency_s + d) * link->bandwidth_Bps / w) + extra;
        if (packets * w > need) need = packets * w;
    }
    return need;
}

double packet_buffer_bytes(const topology *t, int tier)
{
    return t->packet.buffer_bytes[tier] > 0 ? t->packet.buffer_bytes[tier] : packet_credit_loop_bytes(t, tier);
}

bool packet_output_queues(const packet_params *p, int tier)
{
    return p->architecture[tier] == SWITCH_SHARED || p->speedup > 1;
}

double packet_output_buffer_bytes(const topology *t, int tier)
{
    return t->packet.output_buffer_bytes[tier] > 0 ? t->packet.output_buffer_bytes[tier] : packet_buffer_bytes(t, tier);
}

double packet_shared_buffer_bytes(const topology *t, int tier, int ports)
{
    return t->packet.shared_buffer_bytes[tier] > 0 ? t->packet.shared_buffer_bytes[tier]
                                                   : ports * t->packet.virtual_lanes[tier] * packet_buffer_bytes(t, tier);
}

/* A size in whole bytes: MIN or more. */
static bool read_bytes(yaml_tree *tree, ynode *node, const char *key, double min, double *out, diag *d)
{
    if (!yaml_read_quantity(tree, node, key, UNIT_SIZE, true, out, d)) return false;
    if (*out != floor(*out)) return yaml_error(tree, node, d, "'%s' must be a whole number of bytes", key);
    if (*out < min) {
        char text[32];
        units_format(min, UNIT_SIZE, text, sizeof text);
        return yaml_error(tree, node, d, "'%s' must be at least %s", key, text);
    }
    return true;
}

/* KEY of MAP, one of NAMES (COUNT of them), into *OUT. */
static bool read_choice(yaml_tree *tree, ynode *map, const char *key, const char *const *names, int count, int *out,
                        diag *d)
{
    ynode *node = yaml_map_get(tree, map, key);
    const char *text;
    if (!node) return true;
    if (!yaml_read_string(tree, node, key, &text, d)) return false;
    for (int i = 0; i < count; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return true;
        }
    char list[96] = "";
    for (int i = 0; i < count; i++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    return yaml_error(tree, node, d, "unknown %s '%s': expected %s", key, text, list);
}

/* A crossbar speedup: a real number of at least 1 (a slower crossbar than
 * its links would be a bottleneck of its own, which no switch is built as). */
static bool read_speedup(yaml_tree *tree, ynode *node, double *out, diag *d)
{
    if (!yaml_read_positive_number(tree, node, "speedup", out, d)) return false;
    if (!(*out >= 1) || !isfinite(*out))
        return yaml_error(tree, node, d, "'speedup' must be a number of at least 1 (the crossbar's rate over its links')");
    return true;
}

/* A buffer (KEY) of at least one unit (a packet unless `unit` is given),
 * else no port could ever send. */
static bool read_buffer(yaml_tree *tree, ynode *node, const char *key, const packet_params *p, double *out, diag *d)
{
    if (!read_bytes(tree, node, key, 1, out, d)) return false;
    double w = packet_unit_wire_bytes(p);
    if (*out < w)
        return yaml_error(tree, node, d, "'%s' (%.0f B) is smaller than one %s (%.0f B on the wire): a port "
                          "could never send into it; give at least %.0f B", key, *out,
                          p->unit_bytes > 0 ? "unit" : "packet", w, w);
    return true;
}

/* `unit`: the payload the engine moves at once, whole packets from one mtu
 * to what a packet may hold on the wire; packets stored whole at each hop
 * (store_and_forward) are not a train cut through. */
static bool read_unit(yaml_tree *tree, ynode *node, packet_params *p, diag *d)
{
    if (!read_bytes(tree, node, "unit", 1, &p->unit_bytes, d)) return false;
    if (p->unit_bytes < p->mtu_bytes)
        return yaml_error(tree, node, d, "'unit' (%.0f B) is less than the mtu (%.0f B): give at least one packet",
                          p->unit_bytes, p->mtu_bytes);
    if (fmod(p->unit_bytes, p->mtu_bytes) != 0)
        return yaml_error(tree, node, d, "'unit' (%.0f B) is not a whole number of packets of the mtu (%.0f B): give "
                          "a multiple of it, such as %.0f B", p->unit_bytes, p->mtu_bytes,
                          floor(p->unit_bytes / p->mtu_bytes) * p->mtu_bytes);
    if (packet_unit_wire_bytes(p) > PACKET_MAX_WIRE_BYTES)
        return yaml_error(tree, node, d, "'unit' is %.0f B on the wire; the engine moves at most %d B (4 MiB) at once: "
                          "give a smaller 'unit'", packet_unit_wire_bytes(p), PACKET_MAX_WIRE_BYTES);
    if (p->switching == SWITCHING_STORE_AND_FORWARD)
        return yaml_error(tree, node, d, "'unit' moves packets cut through as a train; store_and_forward stores each "
                          "packet whole at every hop: remove one of them");
    return true;
}

/* The tiers' names, as keys of a per-tier mapping. */
static void tier_keys(const topology *t, const char *names[PACKET_MAX_TIERS + 1])
{
    for (int k = 0; k <= PACKET_MAX_TIERS; k++) names[k] = k < t->tier_count ? t->tiers[k].name : NULL;
}

/* Reads value NODE of KEY into OUT's element K (a tier), false with a message. */
typedef bool (*tier_value_reader)(yaml_tree *tree, ynode *node, const char *key, const packet_params *p, void *out,
                                  int k, diag *d);

/* `KEY: VALUE` (every tier: READ into element 0, copied to the others) or
 * `KEY: {TIER: VALUE, ...}` (READ into each tier's element) of OUT, whose
 * elements are SIZE bytes. */
static bool read_per_tier(yaml_tree *tree, ynode *node, const char *key, topology *t, tier_value_reader read, void *out,
                          size_t size, diag *d)
{
    if (node->type != YAML_MAPPING_NODE) {
        if (!read(tree, node, key, &t->packet, out, 0, d)) return false;
        for (int k = 1; k < t->tier_count; k++) memcpy((char *)out + size * (size_t)k, out, size);
        return true;
    }
    const char *names[PACKET_MAX_TIERS + 1];
    tier_keys(t, names);
    if (!yaml_map_check_keys(tree, node, names, d)) return false;
    for (int k = 0; k < t->tier_count; k++) {
        ynode *v = yaml_map_get(tree, node, names[k]);
        if (v && !read(tree, v, key, &t->packet, out, k, d)) return false;
    }
    return true;
}

static bool read_tier_buffer(yaml_tree *tree, ynode *node, const char *key, const packet_params *p, void *out, int k,
                             diag *d)
{
    return read_buffer(tree, node, key, p, &((double *)out)[k], d);
}

/* `architecture: NAME` (every tier's switches) or `{TIER: NAME, ...}`. */
static bool read_architectures(yaml_tree *tree, ynode *map, topology *t, diag *d)
{
    ynode *node = yaml_map_get(tree, map, "architecture");
    packet_params *p = &t->packet;
    int a = p->architecture[0];
    if (!node) return true;
    if (node->type != YAML_MAPPING_NODE) {
        if (!read_choice(tree, map, "architecture", architecture_names, 3, &a, d)) return false;
        for (int k = 0; k < t->tier_count; k++) p->architecture[k] = (switch_architecture)a;
        return true;
    }
    const char *names[PACKET_MAX_TIERS + 1];
    tier_keys(t, names);
    if (!yaml_map_check_keys(tree, node, names, d)) return false;
    for (int k = 0; k < t->tier_count; k++) {
        a = p->architecture[k];
        if (!read_choice(tree, node, names[k], architecture_names, 3, &a, d)) return false;
        p->architecture[k] = (switch_architecture)a;
    }
    return true;
}

/* A count of lanes for KEY: a whole number from 1 to PACKET_MAX_LANES. */
static bool read_lane_count(yaml_tree *tree, ynode *node, const char *key, int *out, diag *d)
{
    double v;
    if (!yaml_read_positive_number(tree, node, key, &v, d)) return false;
    if (v != floor(v) || v < 1 || v > PACKET_MAX_LANES)
        return yaml_error(tree, node, d, "'%s' must be a whole number from 1 to %d (virtual lanes a link carries)", key,
                          PACKET_MAX_LANES);
    *out = (int)v;
    return true;
}

static bool read_tier_lanes(yaml_tree *tree, ynode *node, const char *key, const packet_params *p, void *out, int k,
                            diag *d)
{
    (void)p;
    return read_lane_count(tree, node, key, &((int *)out)[k], d);
}

/* `lane_weights: [W0, W1, ...]`: one whole number from 1 to 255 per lane
 * of the platform's most (packets a lane sends in its turn). */
static bool read_lane_weights(yaml_tree *tree, ynode *node, topology *t, diag *d)
{
    int lanes = packet_max_lanes(&t->packet, t->tier_count);
    if (node->type != YAML_SEQUENCE_NODE || yaml_sequence_length(node) != lanes)
        return yaml_error(tree, node, d, "'lane_weights' must be a list of %d weights, one per virtual lane (e.g. [%s])",
                          lanes, lanes == 2 ? "4, 1" : lanes == 4 ? "4, 2, 1, 1" : "8, 4, 2, 1, 1, 1, 1, 1");
    for (int l = 0; l < lanes; l++) {
        ynode *w = yaml_sequence_item(tree, node, l);
        double v;
        if (!yaml_read_positive_number(tree, w, "lane_weights", &v, d)) return false;
        if (v != floor(v) || v > 255)
            return yaml_error(tree, w, d, "a lane weight must be a whole number of packets from 1 to 255");
        t->packet.lane_weights[l] = (unsigned char)v;
    }
    return true;
}

bool packet_read_virtual_lane(yaml_tree *tree, ynode *node, const topology *t, int *out, diag *d)
{
    int lanes = packet_max_lanes(&t->packet, t->tier_count);
    if (!yaml_read_int(tree, node, "virtual_lane", 0, PACKET_MAX_LANES - 1, out, d)) return false;
    if (*out >= lanes)
        return yaml_error(tree, node, d, "'virtual_lane' %d: the links of platform '%s' have lanes 0 to %d; give them "
                          "more with 'packet: {virtual_lanes: %d}'", *out, t->name, lanes - 1, *out + 1);
    return true;
}

/* `router: {injection, order, channels, transit, architecture,
 * adaptive_channels}` of a kind whose ranks route. */
static bool read_router(yaml_tree *tree, ynode *node, topology *t, diag *d)
{
    static const char *const keys[] = {"injection",    "order",
                                       "channels",     "transit",
                                       "architecture", "adaptive_channels",
                                       NULL};
    router_params *r = &t->packet.router;
    if (!t->lattice)
        return yaml_error(tree, node, d, "'router' describes ranks that route (torus, mesh), and the ranks of this %s "
                          "do not: remove it", t->kind);
    if (!yaml_expect_mapping(tree, node, "'router' {injection, order, channels, transit, architecture, adaptive_channels}",
                             d) ||
        !yaml_map_check_keys(tree, node, keys, d))
        return false;
    ynode *v = yaml_map_get(tree, node, "injection");
    if (v && !yaml_read_int(tree, v, "injection", 1, 64, &r->injection, d)) return false;
    v = yaml_map_get(tree, node, "adaptive_channels");
    if (v && !yaml_read_int(tree, v, "adaptive_channels", 1, 4, &r->adaptive_channels, d)) return false;
    int order = r->order, channels = r->channels - 1, transit = r->transit, architecture = r->architecture;
    if (!read_choice(tree, node, "order", order_names, 2, &order, d) ||
        !read_choice(tree, node, "channels", channels_names + 1, 2, &channels, d) ||
        !read_choice(tree, node, "transit", transit_names, 4, &transit, d) ||
        !read_choice(tree, node, "architecture", architecture_names, 2, &architecture, d))
        return false;
    r->order = (injection_order)order;
    r->channels = (dateline_channels)(channels + 1);
    r->transit = (router_transit)transit;
    r->architecture = (switch_architecture)architecture;
    return true;
}

/* `iterations`: islip's, a whole number from 1 to 16 (McKeown 1999 finds
 * log2 N enough to converge at any N a switch has). */
static bool read_iterations(yaml_tree *tree, ynode *node, int *out, diag *d)
{
    double v;
    if (!yaml_read_positive_number(tree, node, "iterations", &v, d)) return false;
    if (v != floor(v) || v < 1 || v > 16)
        return yaml_error(tree, node, d, "'iterations' must be a whole number from 1 to 16 (islip's matching rounds per cell time)");
    *out = (int)v;
    return true;
}

/* `entropies`: spray's, a whole number from 1 to 65,536 (a 16-bit entropy
 * field, as Ultra Ethernet's). */
static bool read_entropies(yaml_tree *tree, ynode *node, int *out, diag *d)
{
    double v;
    if (!yaml_read_positive_number(tree, node, "entropies", &v, d)) return false;
    if (v != floor(v) || v > 65536)
        return yaml_error(tree, node, d, "'entropies' must be a whole number from 1 to 65536 (the entropy values a "
                          "sender's packets cycle through)");
    *out = (int)v;
    return true;
}

/* `alpha`: the dynamic threshold's factor, a positive number (Choudhury &
 * Hahne use powers of two from 1/64 to 64). */
static bool read_alpha(yaml_tree *tree, ynode *node, double *out, diag *d)
{
    if (!yaml_read_positive_number(tree, node, "alpha", out, d)) return false;
    if (!isfinite(*out) || *out > 1024)
        return yaml_error(tree, node, d, "'alpha' must be a positive number of at most 1024 (the dynamic threshold's factor)");
    return true;
}

/* A key that means something for some switches only, given where none
 * has it: refused, as an option accepted and ignored would be. */
static bool refuse_unused(yaml_tree *tree, ynode *map, const char *key, bool used, const char *why, diag *d)
{
    ynode *v = yaml_map_get(tree, map, key);
    if (!v || used) return true;
    return yaml_error(tree, v, d, "'%s' %s: remove it, or choose the architecture it belongs to", key, why);
}

bool packet_params_read(yaml_tree *tree, ynode *node, topology *t, diag *d)
{
    static const char *const keys[] = {"mtu", "header", "unit", "buffer", "switching", "flow_control", "routing", "speedup",
                                       "architecture", "scheduler", "iterations", "output_buffer", "shared_buffer",
                                       "alpha", "virtual_lanes", "lane_weights", "router", "entropies", NULL};
    packet_params *p = &t->packet;
    if (!yaml_expect_mapping(tree, node, "'packet' (mtu, header, unit, buffer, switching, flow_control, routing, speedup, "
                             "architecture, scheduler, iterations, output_buffer, shared_buffer, alpha, virtual_lanes, "
                             "lane_weights, router, entropies)", d) ||
        !yaml_map_check_keys(tree, node, keys, d))
        return false;
    ynode *v;
    if ((v = yaml_map_get(tree, node, "mtu")) && !read_bytes(tree, v, "mtu", 1, &p->mtu_bytes, d)) return false;
    if ((v = yaml_map_get(tree, node, "header")) && !read_bytes(tree, v, "header", 0, &p->header_bytes, d)) return false;
    if (packet_wire_bytes(p) > PACKET_MAX_WIRE_BYTES) {
        ynode *at = yaml_map_get(tree, node, "mtu") ? yaml_map_get(tree, node, "mtu") : yaml_map_get(tree, node, "header");
        return yaml_error(tree, at, d, "a packet of mtu %.0f B and header %.0f B is %.0f B on the wire; a packet holds at "
                          "most %d B (4 MiB): give a smaller 'mtu'", p->mtu_bytes, p->header_bytes,
                          packet_wire_bytes(p), PACKET_MAX_WIRE_BYTES);
    }
    int switching = p->switching, flow = p->flow_control, routing = p->routing, scheduler = p->scheduler;
    if (!read_choice(tree, node, "switching", switching_names, 2, &switching, d) ||
        !read_architectures(tree, node, t, d) ||
        !read_choice(tree, node, "scheduler", scheduler_names, 2, &scheduler, d) ||
        !read_choice(tree, node, "flow_control", flow_control_names, 2, &flow, d) ||
        !read_choice(tree, node, "routing", routing_names, 3, &routing, d))
        return false;
    p->switching = (packet_switching)switching;
    p->flow_control = (packet_flow_control)flow;
    p->routing = (packet_routing)routing;
    p->scheduler = (voq_scheduler)scheduler;
    if ((v = yaml_map_get(tree, node, "unit")) && !read_unit(tree, v, p, d)) return false;
    if ((v = yaml_map_get(tree, node, "speedup")) && !read_speedup(tree, v, &p->speedup, d)) return false;
    if ((v = yaml_map_get(tree, node, "iterations")) && !read_iterations(tree, v, &p->iterations, d)) return false;
    if ((v = yaml_map_get(tree, node, "alpha")) && !read_alpha(tree, v, &p->alpha, d)) return false;
    if ((v = yaml_map_get(tree, node, "entropies"))) {
        if (p->routing != PACKET_ROUTING_SPRAY)
            return yaml_error(tree, v, d, "'entropies' counts the entropy values spray's senders cycle through, and "
                              "routing is %s: give 'routing: spray', or remove it", routing_names[p->routing]);
        if (!read_entropies(tree, v, &p->entropies, d)) return false;
    }
    if ((v = yaml_map_get(tree, node, "router")) && !read_router(tree, v, t, d)) return false;
    if ((v = yaml_map_get(tree, node, "virtual_lanes")) &&
        !read_per_tier(tree, v, "virtual_lanes", t, read_tier_lanes, p->virtual_lanes, sizeof *p->virtual_lanes, d))
        return false;
    bool voq = false, shared = false, output_queued = p->speedup > 1;
    for (int k = 0; k < t->tier_count; k++) {
        voq |= p->architecture[k] == SWITCH_VOQ;
        shared |= p->architecture[k] == SWITCH_SHARED;
        output_queued |= p->architecture[k] != SWITCH_SHARED && p->speedup > 1;
    }
    if (!refuse_unused(tree, node, "scheduler", voq, "chooses how voq switches match inputs to outputs, and no switch is voq", d) ||
        !refuse_unused(tree, node, "iterations", voq && p->scheduler == SCHEDULER_ISLIP,
                       "counts islip's matching rounds, and no voq switch runs 'scheduler: islip'", d) ||
        !refuse_unused(tree, node, "shared_buffer", shared, "sizes shared switches' pools, and no switch is shared", d) ||
        !refuse_unused(tree, node, "alpha", shared, "is shared switches' dynamic threshold, and no switch is shared", d) ||
        !refuse_unused(tree, node, "output_buffer", output_queued,
                       "sizes the output queues fifo and voq switches have above 'speedup: 1', and none has any", d))
        return false;
    if ((v = yaml_map_get(tree, node, "lane_weights"))) {
        if (packet_max_lanes(p, t->tier_count) < 2)
            return yaml_error(tree, v, d, "'lane_weights' weighs virtual lanes against each other, and every link has "
                              "one: give 'virtual_lanes' first, or remove it");
        if (voq && p->scheduler == SCHEDULER_ISLIP)
            return yaml_error(tree, v, d, "islip matches a voq switch's queues of every lane alike, so 'lane_weights' "
                              "would be ignored there: use 'scheduler: round_robin', or remove it");
        if (!read_lane_weights(tree, v, t, d)) return false;
    }
    for (int b = 0; b < 3; b++) {
        static const char *const sized[] = {"buffer", "output_buffer", "shared_buffer"};
        double *out[] = {p->buffer_bytes, p->output_buffer_bytes, p->shared_buffer_bytes};
        if (!(v = yaml_map_get(tree, node, sized[b]))) continue;
        if (p->flow_control == FLOW_CONTROL_NONE)
            return yaml_error(tree, v, d, "'flow_control: none' has unbounded buffers, so '%s' would be ignored: remove "
                              "one of them", sized[b]);
        if (!read_per_tier(tree, v, sized[b], t, read_tier_buffer, out[b], sizeof *out[b], d)) return false;
    }
    if (t->lattice && p->router.transit == TRANSIT_BUBBLE && p->flow_control == FLOW_CONTROL_CREDIT &&
        packet_buffer_bytes(t, 0) < 2 * packet_unit_wire_bytes(p))
        return yaml_error(tree, yaml_map_get(tree, node, "router"), d,
                          "'transit: bubble' injects only where a buffer keeps room for one more packet, and the "
                          "buffers hold %.0f B, less than two packets (%.0f B): a rank could never inject; give "
                          "'buffer' at least %.0f B, or choose 'transit: priority'", packet_buffer_bytes(t, 0),
                          2 * packet_unit_wire_bytes(p), 2 * packet_unit_wire_bytes(p));
    if (p->router.adaptive_channels > 0 && p->routing != PACKET_ROUTING_ADAPTIVE)
        return yaml_error(tree, yaml_map_get(tree, yaml_map_get(tree, node, "router"), "adaptive_channels"), d,
                          "'adaptive_channels' are the channels minimal adaptive routing chooses among, and this "
                          "platform routes in dimension order: add 'routing: adaptive', or remove it");
    if (t->lattice && p->routing == PACKET_ROUTING_SPRAY)
        return yaml_error(tree, yaml_map_get(tree, node, "routing"), d,
                          "packet routing 'spray' takes a torus's or mesh's dimensions in turn with no escape from a "
                          "cycle of full buffers: use adaptive (minimal, with a dimension-ordered escape) or ecmp");
    if (p->routing != PACKET_ROUTING_ECMP && (!t->multipath || t->routing != ROUTING_ECMP))
        return yaml_error(tree, yaml_map_get(tree, node, "routing"), d,
                          "packet routing '%s' chooses among parallel equal-cost links, and this %s has none%s: "
                          "use ecmp (or remove 'routing')", routing_names[p->routing], t->kind,
                          t->multipath ? " under 'routing: spread' (one aggregated link per leaf)" : "");
    return true;
}
