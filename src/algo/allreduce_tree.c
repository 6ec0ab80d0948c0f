/* allreduce_tree.c — NCCL's multi-node tree all-reduce (docs/model.md, "Real-system terms"; NCCL's
 * "Tree" algorithm): in each node its GPUs form a chain below one head, and
 * the heads form the double binary tree over the nodes (double_tree.h: the
 * second tree chains each node the other way round, so its heads, and their
 * NICs, are other GPUs).  Each tree reduces then broadcasts half the vector
 * in P segments through DBT's pipelined slots (allreduce_dbt.c), so a node's
 * chain feeds the inter-node tree segment by segment: the intra-node and
 * inter-node traffic overlap.  Nodes are the platform's inner domains the
 * group spans (algo_params.domain_ranks, domain_order, as hierarchical
 * takes them); one node (or a platform without nodes: a star, a full mesh)
 * is a pair of chains.  Depth D = (GPUs per node - 1)
 * + floor(log2 nodes); 2D+P-1 slots. */
#include <stdio.h>

#include "algo/double_tree.h"
#include "algo/group_check.h"
#include "algo/pipeline.h"

int node_tree_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    int n = p->ranks, d = p->domain_ranks == 0 ? n : p->domain_ranks; /* no nodes: the group is one */
    if (!group_accepted(p, "tree all-reduce", NULL, why, why_size)) return 0;
    if (d < 1 || n % d != 0) {
        snprintf(why, (size_t)why_size, "tree chains the GPUs of each node: it needs the group spread evenly over the "
                 "platform's nodes (pods, leaves), the same number of ranks in each");
        return 0;
    }
    int depth = double_tree_levels(n / d, d);
    return pipeline_segments(p, 2 * depth, 2 * depth); /* as double_tree_schedule's */
}

schedule *allreduce_tree(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, d = p->domain_ranks == 0 ? n : p->domain_ranks;
    if (!node_tree_segments(PRIM_ALLREDUCE, p, why, why_size)) return NULL;
    double_tree t;
    double_tree_init_chained(&t, n / d, d, p->domain_order);
    schedule *s = double_tree_schedule(&t, p);
    double_tree_free(&t);
    return s;
}
