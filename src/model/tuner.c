/* tuner.c — the least predicted time over algorithm x protocol x channels,
 * each costed as the executor runs it: at the segments its schedule runs,
 * on its channels, under the protocol's costs (model_predict charges the
 * same endpoint costs as the executor, the tiers at their links' rate).
 * NVLS-style INC runs Simple only (NCCL enables NVLS for Simple alone); `auto`
 * offers only the protocols the platform's library enables (`protocols`), or
 * for a candidate a calibrated group covers, the protocols it fitted, on the
 * channels it was fitted at; where a log of the library's own choice was
 * measured, only what the library chose there competes; ties
 * go to the earlier candidate (algorithms in NCCL's order, Simple before
 * LL128 before LL, fewer channels first). */
#include "model/tuner.h"

#include <math.h>
#include <stddef.h>


#include "algo/algorithm.h"

int tuner_candidates(primitive prim, collective_library library, const algorithm *out[TUNER_MAX_CANDIDATES])
{
    /* [library][family of primitives]: all-reduce; all-gather and reduce-scatter; broadcast and reduce */
    static const char *const repertoire[3][3][8] = {
        [LIBRARY_NONE] = {{"ring", "dbt", "tree", "inc", "hierarchical", "hierarchical_pipelined", NULL},
                          {"ring", "inc", "pat", "hierarchical", "hierarchical_pipelined", NULL},
                          {"ring", "inc", NULL}},
        [LIBRARY_NCCL] = {{"ring", "tree", "inc", NULL}, {"ring", "inc", NULL}, {"ring", NULL}},
        [LIBRARY_RCCL] = {{"ring", "tree", NULL}, {"ring", NULL}, {"ring", NULL}},
    };
    static const char *const alltoall[] = {"pairwise", NULL};
    static const char *const direct[] = {"direct", NULL};
    const char *const *names = prim == PRIM_ALLREDUCE                                    ? repertoire[library][0]
                               : prim == PRIM_ALLGATHER || prim == PRIM_REDUCESCATTER ? repertoire[library][1]
                               : prim == PRIM_BCAST || prim == PRIM_REDUCE            ? repertoire[library][2]
                               : prim == PRIM_ALLTOALL                                 ? alltoall
                                                                                       : direct;
    int count = 0;
    for (int i = 0; names[i] && count < TUNER_MAX_CANDIDATES; i++)
        if ((out[count] = algorithm_find(prim, names[i]))) count++;
    return count;
}

/* Whether a library-chosen calibrated group of BASE's primitive and tier measured BASE's size (between
 * the smallest and the largest size of its protocols): there the library's choice is known. */
static bool library_choice_measured(const model_case *base, int tier)
{
    const topology *t = base->platform;
    for (int i = 0; i < t->calibrated_count; i++) {
        const calibrated_group *g = &t->calibrated[i];
        if (!g->library_choice || (g->prim >= 0 && g->prim != (int)base->prim) || (g->tier >= 0 && g->tier != tier))
            continue;
        double from = INFINITY, up_to = 0;
        for (int p = 0; p < PROTOCOL_CHOICES; p++) {
            const calibrated_protocol *c = &g->protocols[p];
            if (!c->set) continue;
            from = fmin(from, c->from_bytes);
            up_to = c->up_to_bytes == 0 || up_to == INFINITY ? INFINITY : fmax(up_to, c->up_to_bytes);
        }
        if (base->size_bytes >= from && base->size_bytes <= up_to) return true;
    }
    return false;
}

bool tuner_pick(const model_case *base, const algorithm *const *algorithms, int count, const int *channel_options,
                int channel_count, tuner_supports supports, void *ctx, tuner_choice *out)
{
    static const protocol_id protocols[PROTOCOL_CHOICES] = {PROTOCOL_SIMPLE, PROTOCOL_LL128, PROTOCOL_LL};
    bool fixed = base->protocol != PROTOCOL_NONE && base->protocol != PROTOCOL_AUTO;
    bool found = false;
    int tier = model_group_tier(base);
    /* choosing among algorithms where the library's choice was measured: only what it chose competes */
    bool known_choice = !fixed && count > 1 && library_choice_measured(base, tier);
    for (int a = 0; a < count; a++) {
        /* the calibrated group that covers the candidate: its protocols in their sizes, on its channels */
        const calibrated_group *calibrated = calibrated_group_for(base->platform, base->prim, tier, algorithms[a]);
        if (known_choice && !(calibrated && calibrated->library_choice)) continue; /* the library chose otherwise */
        /* an algorithm without channels runs on one, whatever the case offers the others */
        bool splits = algorithm_takes_channels(algorithms[a]);
        int fitted[PROTOCOL_CHOICES], fitted_count = 0; /* the channels its protocols were fitted on */
        for (int p = 0; calibrated && splits && p < PROTOCOL_CHOICES; p++) {
            int k = calibrated->protocols[p].set ? calibrated->protocols[p].channels : 0, seen = 0;
            for (int i = 0; i < fitted_count; i++) seen |= fitted[i] == k;
            if (k > 0 && !seen) fitted[fitted_count++] = k;
        }
        const int *options = fitted_count ? fitted : channel_options;
        int option_count = fitted_count ? fitted_count : channel_count;
        for (int c = 0; c < (splits ? option_count : 1); c++) {
            int channels = splits ? options[c] : 1;
            model_case probe = *base;
            probe.algorithm = algorithms[a];
            schedule *sched = NULL;
            int segments = supports(ctx, algorithms[a], channels, model_needs_schedule(&probe) ? &sched : NULL);
            if (segments < 1) continue;
            for (int p = 0; p < (fixed ? 1 : PROTOCOL_CHOICES); p++) {
                model_case m = *base;
                m.algorithm = algorithms[a];
                m.protocol = fixed ? base->protocol : protocols[p];
                m.channels = channels;
                m.segments = segments;
                m.sched = sched;
                if ((m.algorithm->traits & TRAIT_SIMPLE_ONLY) && m.protocol != PROTOCOL_SIMPLE) continue;
                const calibrated_protocol *entry = calibrated ? &calibrated->protocols[m.protocol - PROTOCOL_SIMPLE] : NULL;
                if (fitted_count && entry->set && entry->channels > 0 && entry->channels != channels) continue;
                /* a calibrated group offers what it fitted (its regimes, whatever the library enables) */
                if (!fixed && (calibrated ? !protocol_available(calibrated, m.protocol, m.size_bytes)
                                          : !protocol_enabled(base->platform, m.protocol)))
                    continue;
                prediction pr;
                char why[256];
                if (!model_predict(&m, &pr, why, sizeof why)) continue;
                if (found && !(pr.time_s < out->predicted_s)) continue;
                found = true;
                out->algorithm = algorithms[a];
                out->protocol = m.protocol;
                out->channels = m.channels;
                out->predicted_s = pr.time_s;
            }
            schedule_free(sched);
        }
    }
    return found;
}
