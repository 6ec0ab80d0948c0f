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
static const char *const architecture_names[] = {"fifo", "voq"};

const char *packet_switching_name(packet_switching s) { return switching_names[s]; }
const char *packet_flow_control_name(packet_flow_control f) { return flow_control_names[f]; }
const char *packet_routing_name(packet_routing r) { return routing_names[r]; }
const char *switch_architecture_name(switch_architecture a) { return architecture_names[a]; }

void packet_params_default(packet_params *p)
{
    memset(p, 0, sizeof *p);
    p->mtu_bytes = 4096;
    p->header_bytes = 0;
    p->switching = SWITCHING_CUT_THROUGH;
    p->flow_control = FLOW_CONTROL_CREDIT;
    p->routing = PACKET_ROUTING_ECMP;
    p->speedup = 1;
}

double packet_wire_bytes(const packet_params *p)
{
    return p->mtu_bytes + p->header_bytes;
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
    double w = packet_wire_bytes(p), d = longest_crossbar_s(t), need = 0;
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

/* A buffer of at least one packet, else no port could ever send. */
static bool read_buffer(yaml_tree *tree, ynode *node, const packet_params *p, double *out, diag *d)
{
    if (!read_bytes(tree, node, "buffer", 1, out, d)) return false;
    double w = packet_wire_bytes(p);
    if (*out < w)
        return yaml_error(tree, node, d, "'buffer' (%.0f B) is smaller than one packet (mtu + header = %.0f B): a port "
                          "could never send into it; give at least %.0f B", *out, w, w);
    return true;
}

/* `buffer: SIZE` (every tier) or `buffer: {TIER: SIZE, ...}`. */
static bool read_buffers(yaml_tree *tree, ynode *node, topology *t, diag *d)
{
    packet_params *p = &t->packet;
    if (node->type != YAML_MAPPING_NODE) {
        double bytes;
        if (!read_buffer(tree, node, p, &bytes, d)) return false;
        for (int k = 0; k < t->tier_count; k++) p->buffer_bytes[k] = bytes;
        return true;
    }
    const char *names[PACKET_MAX_TIERS + 1] = {NULL};
    for (int k = 0; k < t->tier_count; k++) names[k] = t->tiers[k].name;
    if (!yaml_map_check_keys(tree, node, names, d)) return false;
    for (int k = 0; k < t->tier_count; k++) {
        ynode *v = yaml_map_get(tree, node, names[k]);
        if (v && !read_buffer(tree, v, p, &p->buffer_bytes[k], d)) return false;
    }
    return true;
}

bool packet_params_read(yaml_tree *tree, ynode *node, topology *t, diag *d)
{
    static const char *const keys[] = {"mtu", "header", "buffer", "switching", "flow_control", "routing", "speedup",
                                       "architecture", NULL};
    packet_params *p = &t->packet;
    if (!yaml_expect_mapping(tree, node, "'packet' (mtu, header, buffer, switching, flow_control, routing, speedup, architecture)", d) ||
        !yaml_map_check_keys(tree, node, keys, d))
        return false;
    ynode *v;
    if ((v = yaml_map_get(tree, node, "mtu")) && !read_bytes(tree, v, "mtu", 1, &p->mtu_bytes, d)) return false;
    if ((v = yaml_map_get(tree, node, "header")) && !read_bytes(tree, v, "header", 0, &p->header_bytes, d)) return false;
    int switching = p->switching, flow = p->flow_control, routing = p->routing, architecture = p->architecture;
    if (!read_choice(tree, node, "switching", switching_names, 2, &switching, d) ||
        !read_choice(tree, node, "architecture", architecture_names, 2, &architecture, d) ||
        !read_choice(tree, node, "flow_control", flow_control_names, 2, &flow, d) ||
        !read_choice(tree, node, "routing", routing_names, 3, &routing, d))
        return false;
    p->switching = (packet_switching)switching;
    p->flow_control = (packet_flow_control)flow;
    p->routing = (packet_routing)routing;
    p->architecture = (switch_architecture)architecture;
    if ((v = yaml_map_get(tree, node, "speedup")) && !read_speedup(tree, v, &p->speedup, d)) return false;
    if ((v = yaml_map_get(tree, node, "buffer"))) {
        if (p->flow_control == FLOW_CONTROL_NONE)
            return yaml_error(tree, v, d, "'flow_control: none' has unbounded buffers, so 'buffer' would be ignored: remove "
                              "one of them");
        if (!read_buffers(tree, v, t, d)) return false;
    }
    if (p->routing != PACKET_ROUTING_ECMP && (!t->multipath || t->routing != ROUTING_ECMP))
        return yaml_error(tree, yaml_map_get(tree, node, "routing"), d,
                          "packet routing '%s' chooses among parallel equal-cost links, and this %s has none%s: "
                          "use ecmp (or remove 'routing')", routing_names[p->routing], t->kind,
                          t->multipath ? " under 'routing: spread' (one aggregated link per leaf)" : "");
    return true;
}
