/* fat_tree.c — the Al-Fares k-ary fat-tree (explainer 03 App. B.2): k pods of
 * k/2 edge and k/2 aggregation switches, (k/2)^2 cores in k/2 planes, k/2
 * ranks per edge, every link at BW, s = 1 at every tier.  Built as a
 * three-tier Clos (clos.c) with edge = leaf, aggregation = spine, core =
 * super-spine. */
#include "platform/kinds.h"

#include <stdio.h>

const char *const fat_tree_keys[] = {"k", "alpha_edge", "alpha_aggregation", "alpha_core", "bandwidth",
                                     "alpha_switch", "inc", "efficiency", "overhead", NULL};

bool build_fat_tree(platform_reader *r, topology *t)
{
    int k;
    if (!read_count(r, r->root, "k", 2, 256, &k)) return false; /* 160 and past: the ranks limit */
    if (k % 2) return platform_error_at(r, r->root, "k", "'k' is the switch radix: an even number from 2 to 256, not %d", k);
    clos_shape shape = {.pods = k, .leaves = k / 2, .ranks_per_leaf = k / 2, .spines = k / 2,
                        .super_spines = k / 2 * k / 2, .oversubscription = 1, .oversubscription_super = 1};
    if (!read_tier(r, r->root, "alpha_edge", true, &shape.tiers[0])) return false;
    static const char *const names[] = {"edge", "aggregation", "core"};
    static const char *const keys[] = {"alpha_edge", "alpha_aggregation", "alpha_core"};
    static const char *const hops[] = {"rank -> edge -> rank (2 links)", "rank -> edge -> aggregation -> edge -> rank (4 links)",
                                       "rank -> edge -> aggregation -> core -> ... -> rank (6 links)"};
    for (int i = 0; i < 3; i++) {
        if (i) shape.tiers[i] = shape.tiers[0];
        snprintf(shape.tiers[i].name, sizeof shape.tiers[i].name, "%s", names[i]);
        snprintf(shape.tiers[i].hop, sizeof shape.tiers[i].hop, "%s", hops[i]);
        ynode *alpha = yaml_map_require(r->tree, r->root, keys[i], r->d);
        if (!alpha || !yaml_read_quantity(r->tree, alpha, keys[i], UNIT_TIME, false, &shape.tiers[i].alpha_s, r->d))
            return false;
    }
    return clos_construct(r, t, &shape);
}
