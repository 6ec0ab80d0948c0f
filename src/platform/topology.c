/* topology.c — storage of nodes, links and tiers, and route queries. */
#include "platform/topology.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"

const char *const topology_protocol_names[TOPO_PROTOCOLS] = {"simple", "ll128", "ll"};

void topology_init(topology *t, const char *kind)
{
    memset(t, 0, sizeof *t);
    snprintf(t->kind, sizeof t->kind, "%s", kind);
    t->nvls_efficiency = 1;
    packet_params_default(&t->packet);
}

void topology_free(topology *t)
{
    free(t->switches);
    free(t->links);
    free(t->link_names);
    free(t->kind_data);
    memset(t, 0, sizeof *t);
}

int topology_add_link(topology *t, const char *name, double bandwidth_Bps, double latency_s, int tier)
{
    t->links = grow_array(t->links, &t->link_capacity, t->link_count + 1, sizeof *t->links);
    topo_link *l = &t->links[t->link_count];
    memset(l, 0, sizeof *l);
    if (!t->unnamed_links) {
        int length = (int)strlen(name) + 1;
        t->link_names = grow_array(t->link_names, &t->names_capacity, t->names_size + length, 1);
        memcpy(t->link_names + t->names_size, name, (size_t)length);
        l->name_at = t->names_size;
        t->names_size += length;
    }
    l->bandwidth_Bps = bandwidth_Bps;
    l->latency_s = latency_s;
    l->tier = tier;
    l->ends[0] = l->ends[1] = -1;
    return t->link_count++;
}

void topology_reserve_links(topology *t, double links)
{
    if (links <= t->link_capacity || links > TOPO_MAX_LINKS) return;
    t->links = grow_array(t->links, &t->link_capacity, (int)links, sizeof *t->links);
    if (!t->unnamed_links) /* "r1048575_dim2_plus" */
        t->link_names = grow_array(t->link_names, &t->names_capacity, (int)links * 20, 1);
}

void topology_format_name(char *out, size_t size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    size_t n = 0;
    for (const char *f = format; *f && n + 1 < size; f++) {
        if (f[0] != '%' || (f[1] != 'd' && f[1] != 's')) {
            out[n++] = *f;
            continue;
        }
        char digits[12];
        const char *text = digits;
        if (*++f == 's') text = va_arg(ap, const char *);
        else { /* an int, written backwards then turned */
            int value = va_arg(ap, int), k = 0;
            unsigned magnitude = value < 0 ? 0u - (unsigned)value : (unsigned)value;
            do digits[k++] = (char)('0' + magnitude % 10); while ((magnitude /= 10) > 0);
            if (value < 0) digits[k++] = '-';
            for (int i = 0; i < k / 2; i++) {
                char c = digits[i];
                digits[i] = digits[k - 1 - i];
                digits[k - 1 - i] = c;
            }
            digits[k] = '\0';
        }
        while (*text && n + 1 < size) out[n++] = *text++;
    }
    out[n] = '\0';
    va_end(ap);
}

const char *topology_link_name(const topology *t, int link)
{
    if (t->unnamed_links) { /* a caller's mistake, not the input's */
        fprintf(stderr, "collsim: internal error: link %d of '%s' was built without its name\n", link, t->name);
        abort();
    }
    return t->link_names + t->links[link].name_at;
}

int topology_add_latency_link(topology *t, const char *name, double latency_s, int tier)
{
    int index = topology_add_link(t, name, 0, latency_s, tier);
    t->links[index].latency_only = true;
    return index;
}

int topology_add_switch(topology *t, const char *name, int tier, unsigned inc)
{
    t->switches = grow_array(t->switches, &t->switch_capacity, t->switch_count + 1, sizeof *t->switches);
    topo_switch *s = &t->switches[t->switch_count];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->tier = tier;
    s->inc = inc;
    s->xbar_link = -1;
    s->port_link = -1;
    return t->switch_count++;
}

int topology_add_tier(topology *t, const topo_tier *tier)
{
    t->tiers[t->tier_count] = *tier;
    return t->tier_count++;
}

void topology_set_link_ends(topology *t, int link, int from, int to)
{
    t->links[link].ends[0] = from;
    t->links[link].ends[1] = to;
}

int topology_node_count(const topology *t)
{
    return t->ranks + t->switch_count;
}

void topology_node_name(const topology *t, int node, char *out, int out_size)
{
    if (node < t->ranks) snprintf(out, out_size, "r%d", node);
    else snprintf(out, out_size, "%s", t->switches[node - t->ranks].name);
}

void topology_link_end_name(const topology *t, int link, bool down, int end, char *out, int out_size)
{
    const topo_link *l = &t->links[link];
    int side = down ? 1 - end : end; /* 0: the lower end (UP leaves it), 1: the upper */
    if (l->ends[side] >= 0) topology_node_name(t, l->ends[side], out, out_size);
    else snprintf(out, (size_t)out_size, "%s tier", t->tiers[side == 1 || l->tier == 0 ? l->tier : l->tier - 1].name);
}

int topology_route(const topology *t, int src, int dst, route_hop *hops)
{
    if (src == dst) return 0;
    return t->route(t, src, dst, hops);
}

route_hop *route_buffer(const topology *t)
{
    return malloc(sizeof(route_hop) * (size_t)(t->route_hops_max > 0 ? t->route_hops_max : 1));
}

void route_push(const topology *t, route_hop *hops, int *count, int link, bool down)
{
    if (link < 0) return;
    if (t->links[link].latency_only && t->links[link].latency_s == 0) return;
    if (*count >= t->route_hops_max) {
        fprintf(stderr, "collsim: internal error: a route of platform '%s' is longer than its %d hops\n", t->name,
                t->route_hops_max);
        abort();
    }
    hops[*count] = (route_hop){.link = link, .down = down};
    (*count)++;
}

void route_choices_init(route_choices *c)
{
    for (int k = 0; k < ROUTE_MAX_FORKS; k++) c->choice[k] = -1;
    c->fork_count = 0;
}

int topology_route_choices(const topology *t, int src, int dst, route_choices *c, route_hop *hops)
{
    c->fork_count = 0;
    if (src == dst) return 0;
    return t->multipath ? t->multipath(t, src, dst, c, hops) : t->route(t, src, dst, hops);
}

int route_fork_pick(route_choices *c, int hop, int node, int count, unsigned hashed)
{
    int pick = (int)(hashed % (unsigned)count);
    if (!c || count < 2 || c->fork_count == ROUTE_MAX_FORKS) return pick;
    int k = c->fork_count++;
    if (c->choice[k] >= 0) pick = c->choice[k] % count;
    c->forks[k] = (route_fork){hop, count, node, pick};
    return pick;
}

int route_switch_leg(const topology *t, route_hop *hops, int link, int port_link, bool downward)
{
    int n = 0;
    if (downward) {
        route_push(t, hops, &n, port_link, false);
        route_push(t, hops, &n, link, true);
    } else {
        route_push(t, hops, &n, link, false);
        route_push(t, hops, &n, port_link, false);
    }
    return n;
}

int route_top_tier(const topology *t, const route_hop *hops, int count)
{
    int tier = 0;
    for (int i = 0; i < count; i++)
        if (t->links[hops[i].link].tier > tier) tier = t->links[hops[i].link].tier;
    return tier;
}

int topology_group_domains(const topology *t, const int *members, int n, int *order)
{
    int size = t->domain_ranks;
    if (size < 1 || n < 1) return 0;
    int domains = (t->ranks + size - 1) / size, touched = 0, share = 0;
    int *count = calloc((size_t)domains, sizeof(int)), *rank_of_slot = calloc((size_t)domains, sizeof(int));
    int *first_seen = malloc(sizeof(int) * (size_t)domains);
    for (int i = 0; i < n; i++) {
        int domain = (members ? members[i] : i) / size;
        if (count[domain]++ == 0) first_seen[touched++] = domain;
    }
    share = count[first_seen[0]];
    for (int k = 1; k < touched; k++)
        if (count[first_seen[k]] != share) share = -1;
    if (share > 0 && order) {
        for (int k = 0; k < touched; k++) rank_of_slot[first_seen[k]] = k * share;
        for (int i = 0; i < n; i++) order[rank_of_slot[(members ? members[i] : i) / size]++] = i;
    }
    free(count);
    free(rank_of_slot);
    free(first_seen);
    return share;
}

double route_latency(const topology *t, const route_hop *hops, int count)
{
    double sum = 0;
    for (int i = 0; i < count; i++) sum += t->links[hops[i].link].latency_s;
    return sum;
}

int route_physical_links(const topology *t, const route_hop *hops, int count)
{
    int n = 0;
    for (int i = 0; i < count; i++) n += !t->links[hops[i].link].latency_only;
    return n;
}

double route_bandwidth(const topology *t, const route_hop *hops, int count)
{
    double bw = 0;
    for (int i = 0; i < count; i++) {
        const topo_link *l = &t->links[hops[i].link];
        if (l->latency_only) continue;
        if (bw == 0 || l->bandwidth_Bps < bw) bw = l->bandwidth_Bps;
    }
    return bw;
}

unsigned ecmp_hash(int src, int dst, unsigned salt)
{
    /* splitmix64 finalizer over the flow's endpoints */
    unsigned long long x = ((unsigned long long)(unsigned)src << 32) ^ (unsigned)dst ^ ((unsigned long long)salt << 17);
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (unsigned)(x >> 16);
}
