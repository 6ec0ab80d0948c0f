/* eta_profile.c — the η a prediction is inflated with (explainer 05 §4):
 *   ideal  η_α = η_β = 1, the α-β model itself;
 *   seed   the seed's calibrated profile —
 *            crossbar star / full mesh / NVLink pod   (1.00, 0.80)  05 §4.1
 *            the same running NVLS-style INC AR       (1.00, 0.52)  05 §4.1
 *              (INC AG / RS / BC / Reduce keep 0.80: no switch ALU on the
 *              critical path, 05 §5.4)
 *            torus and mesh                           (1.20, 0.60)  05 §4.1
 *            Clos / fat-tree leaf tier                (1.00, 0.80)  05 §4.2
 *            upper tiers (spine, core, SuperPOD IB)   (1.20, min(0.80, 1/s))
 *              05 §4.2, 03 §3.2: η_α 1.10–1.30, collsim takes the middle;
 *              s is the platform's oversubscription;
 *   given  the scenario's numbers, for every tier or per tier name. */
#include <string.h>

#include "model/model.h"

static const eta_pair crossbar = {1.00, 0.80}, nvls = {1.00, 0.52}, torus = {1.20, 0.60};

static eta_pair upper_tier(const topology *t)
{
    double s = t->oversubscription >= 1 ? t->oversubscription : 1;
    return (eta_pair){1.20, 1 / s < 0.80 ? 1 / s : 0.80};
}

static eta_pair seed_eta(const model_case *c, int tier)
{
    const topology *t = c->platform;
    if (t->lattice) return torus;
    if (tier > 0) return upper_tier(t);
    bool inc_allreduce = c->prim == PRIM_ALLREDUCE && c->algorithm->family == FAMILY_NVLS;
    return inc_allreduce ? nvls : crossbar;
}

eta_pair model_eta(const eta_profile *profile, const model_case *c, int tier)
{
    if (!profile || profile->mode == ETA_IDEAL) return (eta_pair){1, 1};
    if (profile->mode == ETA_SEED) return seed_eta(c, tier);
    for (int i = 0; i < profile->tier_count; i++)
        if (strcmp(profile->tier_names[i], c->platform->tiers[tier].name) == 0) return profile->tiers[i];
    return profile->tier_count ? (eta_pair){1, 1} : profile->all;
}
