/* coupling.c — the largest set of concurrent parts that SimGrid's max-min
 * solver couples through shared links (coupling.h): a union-find over parts,
 * joined whenever a part's route crosses a link direction another part's
 * route crossed first. */
#include "exec/coupling.h"

#include <stdlib.h>

static int find(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static int compare_pairs(const void *a, const void *b)
{
    const node_pair *x = a, *y = b;
    if (x->src != y->src) return (x->src > y->src) - (x->src < y->src);
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Part P's distinct (sender node, receiver node) pairs, sorted; their count. */
static int part_pairs(const exec_part *p, node_pair **out)
{
    node_pair *pairs = malloc(sizeof *pairs * (size_t)(exec_pair_capacity(p->s) + 1));
    long n = exec_part_pairs(p->s, p->actor_nodes, pairs); /* distinct by actor: actors may share a node */
    qsort(pairs, (size_t)n, sizeof *pairs, compare_pairs);
    long distinct = 0;
    for (long i = 0; i < n; i++)
        if (distinct == 0 || compare_pairs(&pairs[distinct - 1], &pairs[i]) != 0) pairs[distinct++] = pairs[i];
    *out = pairs;
    return (int)distinct;
}

coupling exec_coupling(const topology *t, const exec_part *parts, int count)
{
    int *parent = malloc(sizeof(int) * (size_t)count);
    long *flows = calloc((size_t)count, sizeof(long));
    int *first_user = malloc(sizeof(int) * 2 * (size_t)(t->link_count + 1)); /* per link direction */
    for (int l = 0; l < 2 * t->link_count; l++) first_user[l] = -1;
    route_hop *hops = route_buffer(t);
    for (int k = 0; k < count; k++) {
        parent[k] = k;
        node_pair *pairs;
        int distinct = part_pairs(&parts[k], &pairs);
        flows[k] = distinct;
        for (int i = 0; i < distinct; i++) {
            int hop_count = topology_route(t, pairs[i].src, pairs[i].dst, hops);
            for (int h = 0; h < hop_count; h++) {
                int *user = &first_user[2 * hops[h].link + hops[h].down];
                if (*user < 0) *user = k;
                else parent[find(parent, k)] = find(parent, *user);
            }
        }
        free(pairs);
    }
    int *members = calloc((size_t)count, sizeof(int));
    long *set_flows = calloc((size_t)count, sizeof(long));
    coupling largest = {0, 0};
    for (int k = 0; k < count; k++) {
        int root = find(parent, k);
        members[root]++;
        set_flows[root] += flows[k];
    }
    for (int k = 0; k < count; k++)
        if (members[k] > 0 && set_flows[k] > largest.flows) largest = (coupling){members[k], set_flows[k]};
    free(members);
    free(set_flows);
    free(hops);
    free(first_user);
    free(flows);
    free(parent);
    return largest;
}
