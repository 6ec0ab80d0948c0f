/* lattice.c — k-D torus (wraparound, explainer 02 §1.2, §3) and k-D mesh (no
 * wraparound, §1.3, §4.2).  One physical link per neighbour pair, latency
 * alpha; a dim of size 2 has a single link between its two ranks (§1.2: "the
 * +1 and -1 neighbours coincide").  Routes are dimension-ordered (dim 0
 * first), each dim along its shorter arc; on an exact tie (offset d/2) the
 * direction alternates with the start coordinate's parity so that load is
 * balanced over both arcs.
 *
 * Virtual channels (packet model, lossless buffers): dimension-ordered
 * routing on a ring of 3 or more ranks closes a cycle of buffers, which can
 * deadlock.  A hop that crosses a dim's wraparound link (the dateline), and
 * every later hop in that dim, fills the buffers of virtual channel 1; other
 * hops use channel 0.  Within a dim a route crosses the dateline at most once
 * (shorter arc), so channel-0 buffers never wait on the wraparound link and
 * channel-1 buffers never wait on channel 0: no cycle (Dally and Seitz's
 * dateline; docs/packet.md).  A mesh has no wraparound and needs none.
 *
 * Minimal adaptive routing (packet model, `routing: adaptive`): wherever two
 * or more dimensions remain, a route forks among them (each along the arc
 * dimension order takes); alternative 0 is dimension order, so the route
 * of no choice is the one above.  A hop's channel is the dateline's for
 * its dimension, counting wraparounds crossed by earlier hops in it. */
#include "platform/kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const lattice_keys[] = {"dims", "ranks", "alpha", "bandwidth", "efficiency", "overhead", "inc", NULL};

enum { DATELINE_SALT = 29 }; /* a flow's hash for its arcs' channels: apart from ECMP's tiers' salts */

typedef struct lattice {
    bool wrap;
    int stride[TOPO_MAX_DIMS];
    int *plus_link; /* [rank * dims + dim]: link to the +1 neighbour (UP = towards +1), or -1 */
} lattice;

static int coordinate(const topology *t, const lattice *g, int rank, int dim)
{
    return rank / g->stride[dim] % t->dims[dim];
}

/* The channel the flow SRC -> DST starts its arc of STEPS hops on, in
 * dimension I of a ring of D, from coordinate FROM: an arc that crosses
 * the dateline starts on channel 0 and takes 1 there (Dally and Seitz).
 * One that does not keeps one channel for the whole arc: 0 under the
 * `dateline` rule, the one its flow's ends hash to under `balanced`, so
 * that both channels carry traffic.  Either way no packet enters the
 * dateline link on channel 0 or leaves it for the hop before it on 1, and
 * a packet keeps its channel along an arc except at the dateline: each
 * channel's ring of dependencies stays open (Dally and Towles, "Principles
 * and Practices of Interconnection Networks", 2004, on balancing the
 * dateline's channels). */
static unsigned char arc_channel(const topology *t, int src, int dst, int i, int from, int steps, bool go_plus)
{
    int d = t->dims[i];
    bool crosses = go_plus ? from + steps >= d : from - steps < 0;
    if (d < 3 || crosses || router_channels(&t->packet) != CHANNELS_BALANCED) return 0;
    return (unsigned char)(ecmp_hash(src, dst, DATELINE_SALT + (unsigned)i) & 1u);
}

static int lattice_route(const topology *t, int src, int dst, route_hop *hops)
{
    const lattice *g = t->kind_data;
    int n = 0, here = src;
    for (int i = 0; i < t->dim_count; i++) {
        int d = t->dims[i], from = coordinate(t, g, here, i), to = coordinate(t, g, dst, i);
        if (from == to) continue;
        int forward = ((to - from) % d + d) % d, backward = d - forward;
        bool go_plus;
        if (!g->wrap) go_plus = to > from;
        else if (forward != backward) go_plus = forward < backward;
        else go_plus = from % 2 == 0;
        int steps = g->wrap ? (go_plus ? forward : backward) : abs(to - from);
        unsigned char vc = g->wrap ? arc_channel(t, src, dst, i, from, steps, go_plus) : 0;
        for (int s = 0; s < steps; s++) {
            int c = coordinate(t, g, here, i);
            int next_c = ((go_plus ? c + 1 : c - 1) % d + d) % d;
            int next = here + (next_c - c) * g->stride[i];
            int owner = go_plus ? here : next; /* the lower end (in + order) owns the link */
            if (d >= 3 && (go_plus ? next_c == 0 : c == 0)) vc = 1; /* the dateline */
            route_push(t, hops, &n, g->plus_link[owner * t->dim_count + i], !go_plus);
            hops[n - 1].vc = vc;
            here = next;
        }
    }
    return n;
}

/* The route SRC -> DST taking C's choice at each hop where dimensions
 * remain to choose from (lattice_route's arcs; its route when C chooses
 * nothing). */
static int lattice_multipath(const topology *t, int src, int dst, route_choices *c, route_hop *hops)
{
    const lattice *g = t->kind_data;
    int steps[TOPO_MAX_DIMS], remaining = 0;
    bool plus[TOPO_MAX_DIMS];
    unsigned char channel[TOPO_MAX_DIMS] = {0};
    for (int i = 0; i < t->dim_count; i++) { /* each dim's arc, as lattice_route takes it */
        int d = t->dims[i], from = coordinate(t, g, src, i), to = coordinate(t, g, dst, i);
        int forward = ((to - from) % d + d) % d, backward = d - forward;
        plus[i] = !g->wrap ? to > from : forward != backward ? forward < backward : from % 2 == 0;
        steps[i] = from == to ? 0 : g->wrap ? (plus[i] ? forward : backward) : abs(to - from);
        if (g->wrap && steps[i] > 0) channel[i] = arc_channel(t, src, dst, i, from, steps[i], plus[i]);
        remaining += steps[i] > 0;
    }
    int n = 0, here = src;
    while (remaining > 0) {
        int open[TOPO_MAX_DIMS], count = 0;
        for (int i = 0; i < t->dim_count; i++)
            if (steps[i] > 0) open[count++] = i;
        int i = open[count > 1 ? route_fork_pick(c, n, here, count, 0) : 0], d = t->dims[i];
        int cc = coordinate(t, g, here, i), next_c = ((plus[i] ? cc + 1 : cc - 1) % d + d) % d;
        int next = here + (next_c - cc) * g->stride[i];
        if (d >= 3 && g->wrap && (plus[i] ? next_c == 0 : cc == 0)) channel[i] = 1; /* the dateline */
        route_push(t, hops, &n, g->plus_link[(plus[i] ? here : next) * t->dim_count + i], !plus[i]);
        hops[n - 1].vc = channel[i];
        here = next;
        remaining -= --steps[i] == 0;
    }
    return n;
}

static bool build_lattice(platform_reader *r, topology *t, bool wrap)
{
    ynode *dims = yaml_map_require(r->tree, r->root, "dims", r->d);
    if (!dims) return false;
    int k = yaml_sequence_length(dims);
    if (k < 1 || k > TOPO_MAX_DIMS)
        return yaml_error(r->tree, dims, r->d, "'dims' must be a list of 1 to %d dim sizes, e.g. [8, 8, 8]", TOPO_MAX_DIMS);
    long product = 1;
    for (int i = 0; i < k; i++) {
        if (!yaml_read_int(r->tree, yaml_sequence_item(r->tree, dims, i), "dims", 1, TOPO_MAX_RANKS, &t->dims[i], r->d))
            return false;
        product *= t->dims[i]; /* at most 2^20 x 2^20: no wrap before the check */
        if (product > TOPO_MAX_RANKS)
            return yaml_error(r->tree, dims, r->d, "dims multiply to more than %d ranks, the largest platform collsim "
                              "builds (docs/reliability.md)", TOPO_MAX_RANKS);
    }
    t->dim_count = k;
    ynode *ranks = yaml_map_get(r->tree, r->root, "ranks");
    if (ranks) {
        int n;
        if (!yaml_read_int(r->tree, ranks, "ranks", 1, TOPO_MAX_RANKS, &n, r->d)) return false;
        if (n != product)
            return yaml_error(r->tree, ranks, r->d, "'ranks' is %d but dims multiply to %ld: make them agree (or drop 'ranks')", n, product);
    }
    if (product < 2) return yaml_error(r->tree, dims, r->d, "dims multiply to 1 rank: a fabric needs at least 2");
    double links = 0;
    for (int i = 0; i < k; i++) {
        int d = t->dims[i];
        links += (double)(product / d) * (wrap ? (d >= 3 ? d : d - 1) : d - 1);
    }
    if (!platform_size_allowed(r, (double)product, 0, links)) return false;
    topology_reserve_links(t, links);
    topo_tier tier = {.name = "link", .hop = "neighbour -> neighbour (1 link)"};
    if (!read_tier(r, r->root, "alpha", false, &tier)) return false;
    snprintf(tier.split, sizeof tier.split, "1 link x %.6g us", tier.alpha_s * 1e6);
    topology_add_tier(t, &tier);
    t->ranks = (int)product;

    /* one block, freed with the topology */
    lattice *g = calloc(1, sizeof *g + sizeof(int) * (size_t)product * (size_t)k);
    t->kind_data = g;
    g->wrap = wrap;
    g->plus_link = (int *)(g + 1);
    int stride = 1;
    for (int i = 0; i < k; i++) {
        g->stride[i] = stride;
        stride *= t->dims[i];
    }
    char name[48];
    for (int rank = 0; rank < t->ranks; rank++)
        for (int i = 0; i < k; i++) {
            int d = t->dims[i], c = coordinate(t, g, rank, i);
            bool has = wrap ? (d >= 3 || (d == 2 && c == 0)) : c + 1 < d;
            int *slot = &g->plus_link[rank * k + i];
            *slot = -1;
            if (!has) continue;
            topology_format_name(name, sizeof name, "r%d_dim%d_plus", rank, i);
            *slot = topology_add_link(t, name, tier.bandwidth_Bps * tier.efficiency, tier.alpha_s, 0);
            topology_set_link_ends(t, *slot, rank, rank + ((c + 1) % d - c) * g->stride[i]);
        }
    t->route = lattice_route;
    t->multipath = lattice_multipath;
    t->lattice = true;
    t->wraparound = wrap;

    int d_max = 0, diameter = 0;
    for (int i = 0; i < k; i++) {
        diameter += wrap ? t->dims[i] / 2 : t->dims[i] - 1; /* explainer 02 App. B.1 */
        if (t->dims[i] > d_max) d_max = t->dims[i];
    }
    t->diameter_links = diameter;
    t->route_hops_max = diameter; /* dimension-ordered, each dim along its shorter arc */
    t->route_vcs = wrap && d_max >= 3 ? 2 : 1; /* the dateline's */
    /* cut across the longest dim: each of the N/d_max lines along it is severed
     * once (mesh), or twice with the wraparound (torus, d_max >= 3) — 02 §3.6 */
    int per_line = wrap && d_max >= 3 ? 2 : 1;
    t->bisection_Bps = (double)(t->ranks / d_max) * per_line * tier.bandwidth_Bps;
    snprintf(t->bisection_cut, sizeof t->bisection_cut, "%d lines of the longest dim (d_max = %d) cut %s",
             t->ranks / d_max, d_max, per_line == 2 ? "twice (direct + wraparound)" : "once");
    return true;
}

bool build_torus(platform_reader *r, topology *t)
{
    return build_lattice(r, t, true);
}

bool build_mesh(platform_reader *r, topology *t)
{
    return build_lattice(r, t, false);
}
