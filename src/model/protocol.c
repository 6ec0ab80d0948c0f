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
 *                     protocol adds hwLat[p] − hwLat[LL] per step of the
 *                     collective on a tier of that class: once per step, as
 *                     NCCL's model charges nsteps · hwLat, not once per
 *                     message (a step cut into slices or segments pays it
 *                     once); model_case_costs counts the steps.
 *   bandwidth caps    NCCL's llMaxBws and channels x perChMaxRingLL128Bws
 *                     bound the bus bandwidth of LL and LL128 (tuning.cc's
 *                     "model refinements"); the platform states its row
 *                     (`ll_max_bw`, `ll128_max_bw`), cited in its file.
 *   NVLS (collsim's `inc`) runs Simple only; NCCL charges its NVLink latency
 *   (and its network latency when the tree leaves the NVLink domain) once
 *   per collective, so collsim adds them to the launch.
 * A platform's `calibrated:` groups (collsim calibrate, docs/model.md)
 * replace these figures for the protocols they fit: its launch, its
 * per-message overhead on every tier, its efficiency as the wire ratio.  A
 * group covers the cases of its primitive, tier and algorithm family's flat
 * algorithm alone (calibrated_group_for, once per case); every other case
 * keeps these figures. */
#include "model/protocol.h"

#include <math.h>
#include <stdlib.h>
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

const algorithm *calibrated_algorithm(primitive prim, int family)
{
    static const char *const flat[] = {"ring", "tree", "inc"};
    if (family == FAMILY_RING) return algorithm_find(prim, prim == PRIM_ALLTOALL ? "pairwise" : prim == PRIM_SENDRECV ? "direct" : "ring");
    return family > FAMILY_RING && family <= FAMILY_NVLS ? algorithm_find(prim, flat[family]) : NULL;
}

const calibrated_group *calibrated_group_for(const topology *t, primitive prim, int top_tier, const algorithm *a)
{
    for (int i = 0; a && i < t->calibrated_count; i++) {
        const calibrated_group *g = &t->calibrated[i];
        if ((g->prim < 0 || g->prim == (int)prim) && (g->tier < 0 || g->tier == top_tier) &&
            (g->family < 0 ? a == calibrated_algorithm(prim, FAMILY_RING) : a == calibrated_algorithm(prim, g->family)))
            return g;
    }
    return NULL;
}

void endpoint_costs_set_wire(endpoint_costs *c, int numerator, int denominator)
{
    for (int a = numerator, b = denominator; b;) { /* divide out the gcd: smaller whole-byte factors */
        int r = a % b;
        a = b, b = r;
        if (!b) numerator /= a, denominator /= a;
    }
    c->wire_numerator = numerator;
    c->wire_denominator = denominator;
}

void endpoint_costs_of(const topology *t, const calibrated_group *calibrated, algorithm_family f, protocol_id p,
                       int top_tier, endpoint_costs *out)
{
    memset(out, 0, sizeof *out);
    out->launch_s = t->launch_s;
    out->wire_numerator = out->wire_denominator = 1;
    for (int k = 0; k < t->tier_count; k++) out->overhead_s[k] = t->tiers[k].overhead_s;
    if (p == PROTOCOL_NONE || p == PROTOCOL_AUTO) return;
    const calibrated_protocol *cal = calibrated ? &calibrated->protocols[p - PROTOCOL_SIMPLE] : NULL;
    if (cal && cal->set) {
        out->launch_s += cal->launch_s;
        for (int k = 0; k < t->tier_count; k++) out->overhead_s[k] += cal->overhead_s;
        /* 1/efficiency wire bytes per data byte, to the 6 decimals the table is written with */
        endpoint_costs_set_wire(out, 1000000, (int)fmin(fmax(lround(cal->efficiency * 1e6), 1), 1e9));
        return;
    }
    int col = column(p);
    out->launch_s += base_latency_us[f][col] * 1e-6;
    if (p == PROTOCOL_LL) out->wire_numerator = 2;
    if (p == PROTOCOL_LL128) out->wire_numerator = 16, out->wire_denominator = 15; /* 128 / 120 */
    if (f == FAMILY_NVLS) {
        bool network = false;
        for (int k = 0; k <= top_tier && k < t->tier_count; k++) network |= t->tiers[k].network;
        out->launch_s += (hop_latency_us[HW_NVLINK][f][col] + (network ? hop_latency_us[HW_NET][f][col] : 0)) * 1e-6;
        /* NVLS reaches nvls_efficiency of the NVLink rate (NCCL's nvlsEfficiency): 1/e wire bytes per data byte,
         * to the three decimals the figure has; a tree that leaves the NVLink domain is SHARP's, not NVLS's */
        if (!network && t->nvls_efficiency < 1)
            endpoint_costs_set_wire(out, out->wire_numerator * 1000,
                                    out->wire_denominator * (int)lround(t->nvls_efficiency * 1000));
        return;
    }
    for (int k = 0; k < t->tier_count; k++) {
        int hw = t->tiers[k].network ? HW_NET : HW_NVLINK;
        out->step_s[k] = (hop_latency_us[hw][f][col] - hop_latency_us[hw][f][0]) * 1e-6;
    }
    out->bus_cap_Bps = p == PROTOCOL_LL ? t->ll_max_bw_Bps : p == PROTOCOL_LL128 ? t->ll128_max_bw_Bps : 0;
}

bool protocol_enabled(const topology *t, protocol_id p)
{
    return t->protocols == 0 || (p >= PROTOCOL_SIMPLE && p <= PROTOCOL_LL && (t->protocols >> (p - PROTOCOL_SIMPLE)) & 1u);
}

/* Whether M lies in C's measured range [from, up_to] (0: open). */
static bool in_range(const calibrated_protocol *c, double m)
{
    return m >= c->from_bytes && (c->up_to_bytes == 0 || m <= c->up_to_bytes);
}

/* Whether Q's range lies strictly between size M and C's range. */
static bool between(const calibrated_protocol *q, const calibrated_protocol *c, double m)
{
    if (m < c->from_bytes) return q->from_bytes > m && q->up_to_bytes > 0 && q->up_to_bytes < c->from_bytes;
    return q->from_bytes > c->up_to_bytes && q->up_to_bytes > 0 && q->up_to_bytes < m;
}

bool protocol_available(const calibrated_group *calibrated, protocol_id p, double size_bytes)
{
    if (!calibrated) return true;
    const calibrated_protocol *c = &calibrated->protocols[p - PROTOCOL_SIMPLE];
    if (!c->set) return false;
    if (in_range(c, size_bytes)) return true;
    /* between measured ranges (or beyond them) the nearest protocols on either side compete */
    for (int q = 0; q < PROTOCOL_CHOICES; q++) {
        const calibrated_protocol *o = &calibrated->protocols[q];
        if (o == c || !o->set) continue;
        if (in_range(o, size_bytes) || between(o, c, size_bytes)) return false;
    }
    return true;
}
