/* tuner.c — the least predicted time over algorithm x protocol x channels.
 * NVLS-style INC runs Simple only (NCCL enables NVLS for Simple alone); `auto`
 * offers only the protocols the platform's library enables (`protocols`), or
 * on a calibrated platform those its group fitted; ties
 * go to the earlier candidate (algorithms in NCCL's order, Simple before
 * LL128 before LL, fewer channels first). */
#include "model/tuner.h"

#include <stdio.h>
#include <string.h>

#include "algo/algorithm.h"

const char *const *tuner_candidates(primitive prim, int *count)
{
    static const char *const allreduce[] = {"ring", "dbt", "tree", "inc", "hierarchical", "hierarchical_pipelined"};
    static const char *const gather[] = {"ring", "inc", "pat", "hierarchical", "hierarchical_pipelined"};
    static const char *const rooted[] = {"ring", "inc"};
    static const char *const alltoall[] = {"pairwise"};
    static const char *const sendrecv[] = {"direct"};
    switch (prim) {
    case PRIM_ALLREDUCE: *count = 6; return allreduce;
    case PRIM_ALLGATHER:
    case PRIM_REDUCESCATTER: *count = 5; return gather;
    case PRIM_BCAST:
    case PRIM_REDUCE: *count = 2; return rooted;
    case PRIM_ALLTOALL: *count = 1; return alltoall;
    default: *count = 1; return sendrecv;
    }
}

bool tuner_pick(const model_case *base, const char *const *algorithms, int count, const int *channel_options,
                int channel_count, tuner_supports supports, void *ctx, tuner_choice *out)
{
    static const protocol_id protocols[PROTOCOL_CHOICES] = {PROTOCOL_SIMPLE, PROTOCOL_LL128, PROTOCOL_LL};
    bool fixed = base->protocol != PROTOCOL_NONE && base->protocol != PROTOCOL_AUTO;
    bool found = false;
    /* the calibrated protocols offered: the case's own, resolved once */
    const calibrated_group *calibrated = fixed ? NULL : calibrated_group_for(base->platform, base->prim, model_group_tier(base));
    for (int a = 0; a < count; a++) {
        /* an algorithm without channels runs on one, whatever the case offers the others */
        const algorithm *algo = algorithm_find(base->prim, algorithms[a]);
        bool splits = algo && algorithm_takes_channels(algo);
        for (int c = 0; c < (splits ? channel_count : 1); c++) {
            int channels = splits ? channel_options[c] : 1;
            if (!supports(ctx, algorithms[a], channels)) continue;
            for (int p = 0; p < (fixed ? 1 : PROTOCOL_CHOICES); p++) {
                model_case m = *base;
                m.algorithm = algorithms[a];
                m.protocol = fixed ? base->protocol : protocols[p];
                m.channels = channels;
                if (strcmp(m.algorithm, "inc") == 0 && m.protocol != PROTOCOL_SIMPLE) continue;
                /* a calibrated group offers what it fitted (its regimes, whatever the library enables) */
                if (!fixed && (calibrated ? !protocol_available(calibrated, m.protocol, m.size_bytes)
                                          : !protocol_enabled(base->platform, m.protocol)))
                    continue;
                prediction pr;
                char why[256];
                if (!model_predict(&m, &pr, why, sizeof why)) continue;
                if (found && !(pr.time_s < out->predicted_s)) continue;
                found = true;
                snprintf(out->algorithm, sizeof out->algorithm, "%s", algorithms[a]);
                out->protocol = m.protocol;
                out->channels = m.channels;
                out->predicted_s = pr.time_s;
            }
        }
    }
    return found;
}
