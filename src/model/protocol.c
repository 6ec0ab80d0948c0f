/* protocol.c — the protocol table (NCCL v2.23.4, src/graph/tuning.cc and
 * src/include/device.h; figures only, see docs/model.md):
 *
 *   wire efficiency   Simple 1; LL128 120/128 (a 128-byte line carries 8
 *                     bytes of flag); LL 1/2 (each 8 bytes of data travel
 *                     with 8 bytes of flag).
 *   base latency      NCCL's baseLat[algorithm][protocol] in µs, charged
 *                     once per collective on top of the platform's launch.
 *   per-hop latency   NCCL's hwLat[NVLink | network][algorithm][protocol];
 *                     LL's is the hardware's own hop (the platform's α), so a
 *                     protocol adds hwLat[p] − hwLat[LL] to each message's
 *                     sender overhead on a tier of that class.
 *   NVLS (collsim's `inc`) runs Simple only; NCCL charges its NVLink latency
 *   (and its network latency when the tree leaves the NVLink domain) once
 *   per collective, so collsim adds them to the launch. */
#include "model/protocol.h"

#include <string.h>

enum { HW_NVLINK, HW_NET };

/* µs; rows ring, tree, NVLS; columns LL, LL128, Simple. */
static const double base_latency_us[3][3] = {{6.6, 14.0, 8.4}, {6.8, 14.0, 8.4}, {0, 0, 0}};
static const double hop_latency_us[2][3][3] = {
    {{0.6, 1.9, 3.4}, {0.6, 1.25, 4.0}, {0, 0, 25}},   /* NVLink */
    {{2.7, 4.0, 14.0}, {5.0, 8.5, 14.0}, {0, 0, 18}}, /* network */
};

static const char *const names[] = {"none", "simple", "ll128", "ll", "auto"};

const char *protocol_name(protocol_id p)
{
    return names[p];
}

bool protocol_from_name(const char *name, protocol_id *p)
{
    for (int i = PROTOCOL_SIMPLE; i <= PROTOCOL_AUTO; i++)
        if (strcmp(name, names[i]) == 0) {
            *p = (protocol_id)i;
            return true;
        }
    return false;
}

/* The column of the tables: LL, LL128, Simple. */
static int column(protocol_id p)
{
    return p == PROTOCOL_LL ? 0 : p == PROTOCOL_LL128 ? 1 : 2;
}

algorithm_family algorithm_family_of(const char *algorithm)
{
    if (strcmp(algorithm, "inc") == 0) return FAMILY_NVLS;
    if (strcmp(algorithm, "dbt") == 0 || strcmp(algorithm, "tree") == 0 || strcmp(algorithm, "binomial") == 0)
        return FAMILY_TREE;
    return FAMILY_RING;
}

void endpoint_costs_of(const topology *t, const char *algorithm, protocol_id p, int top_tier, endpoint_costs *out)
{
    memset(out, 0, sizeof *out);
    out->launch_s = t->launch_s;
    out->wire_numerator = out->wire_denominator = 1;
    for (int k = 0; k < t->tier_count; k++) out->overhead_s[k] = t->tiers[k].overhead_s;
    if (p == PROTOCOL_NONE || p == PROTOCOL_AUTO) return;
    algorithm_family f = algorithm_family_of(algorithm);
    int col = column(p);
    out->launch_s += base_latency_us[f][col] * 1e-6;
    if (p == PROTOCOL_LL) out->wire_numerator = 2;
    if (p == PROTOCOL_LL128) out->wire_numerator = 16, out->wire_denominator = 15; /* 128 / 120 */
    if (f == FAMILY_NVLS) {
        bool network = false;
        for (int k = 0; k <= top_tier && k < t->tier_count; k++) network |= t->tiers[k].network;
        out->launch_s += (hop_latency_us[HW_NVLINK][f][col] + (network ? hop_latency_us[HW_NET][f][col] : 0)) * 1e-6;
        return;
    }
    for (int k = 0; k < t->tier_count; k++) {
        int hw = t->tiers[k].network ? HW_NET : HW_NVLINK;
        out->overhead_s[k] += (hop_latency_us[hw][f][col] - hop_latency_us[hw][f][0]) * 1e-6;
    }
}
