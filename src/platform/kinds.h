/* kinds.h — the builders of each platform kind, one file each
 * (star.c, lattice.c, full_mesh.c, clos.c, fat_tree.c, superpod.c). */
#ifndef COLLSIM_KINDS_H
#define COLLSIM_KINDS_H

#include "platform/platform.h"

extern const char *const star_keys[];
extern const char *const lattice_keys[];
extern const char *const full_mesh_keys[];
extern const char *const clos_keys[];
extern const char *const fat_tree_keys[];
extern const char *const superpod_keys[];
extern const char *const rail_cluster_keys[];

bool build_star(platform_reader *r, topology *t);
bool build_torus(platform_reader *r, topology *t);
bool build_mesh(platform_reader *r, topology *t);
bool build_full_mesh(platform_reader *r, topology *t);
bool build_clos(platform_reader *r, topology *t);
bool build_fat_tree(platform_reader *r, topology *t);
bool build_superpod(platform_reader *r, topology *t);
bool build_rail_cluster(platform_reader *r, topology *t);

/* A full mesh over RANKS consecutive ranks from FIRST_RANK (full_mesh.c):
 * a link per pair at TIER's alpha and efficiency x BW, on tier 0; returns
 * the first link.  A hop FROM -> TO (local indices 0..RANKS-1) of the mesh
 * whose links start at FIRST_LINK goes over their pair's link. */
int full_mesh_add_links(topology *t, int first_rank, int ranks, const topo_tier *tier);
void full_mesh_push_hop(const topology *t, int first_link, int ranks, int from, int to, route_hop *hops, int *count);


/* Shared by clos.c and fat_tree.c: a leaf-spine Clos with an optional
 * super-spine tier whose spines connect plane-wise (spine j of every pod to
 * super-spine plane j, explainer 03 App. B.2). */
typedef struct clos_shape {
    int pods, leaves, ranks_per_leaf, spines, super_spines; /* leaves, spines per pod; super_spines 0 = two tiers */
    double oversubscription, oversubscription_super;
    topo_tier tiers[3]; /* leaf, spine, super-spine: names, alpha, BW, inc */
} clos_shape;

bool clos_construct(platform_reader *r, topology *t, const clos_shape *shape);
#endif
