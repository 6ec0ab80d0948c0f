/* fit.h — the calibration fit (docs/calibration.md): for each collective measured and
 * each of its size regimes (calib/regimes.h), the effective launch cost,
 * per-hop latency and bandwidth of collsim's model
 *
 *     t = launch + n_α·hop + n_β·M / (efficiency·BW)
 *
 * for each (collective, tier its groups climb to, regime)
 * (docs/model.md; n_α, n_β, BW: the flat algorithm's prediction on the
 * platform — ring for AR / AG / RS / BC / Reduce, pairwise A2A, direct
 * sendrecv — without protocol, channels or launch; hop = α + o per message)
 * by least squares on relative error, Σ ((t_fit − t)/t)², with every point's
 * residual.  launch and hop are told apart only when the logs of a
 * collective cover several N (n_α differs); from one N their sum is fitted
 * and the hop is the platform's own α + o (the rest is launch).  The
 * residuals are indexed residuals[log · CALIB_MAX_POINTS + point]. */
#ifndef COLLSIM_CALIB_FIT_H
#define COLLSIM_CALIB_FIT_H

#include "calib/log_reader.h"
#include "calib/regimes.h"
#include "platform/topology.h"
#include "model/tuner.h"
#include "scenario/scenario.h"

#define CALIB_MAX_FITS 24

typedef struct calib_regime_fit {
    primitive prim;
    int tier;                /* the platform tier the measured groups' routes climb to */
    int regime, regime_count; /* 0 = the smallest sizes */
    double from_bytes, to_bytes; /* the sizes the regime's points span */
    double launch_s, hop_s;  /* per collective; per message on the critical path (α + o) */
    double efficiency;       /* fitted BW / the model's BW */
    double platform_hop_s;   /* the platform's α + o of that tier */
    double bandwidth_Bps;    /* the model's BW (the tier's, without efficiency) */
    bool hop_fitted;         /* launch and hop fitted apart (several N); else the hop is the platform's */
    double rms_rel, max_rel; /* over its points */
    int family;              /* the algorithm family that ran it (FAMILY_*): the log's, else the tuner's pick */
    int channels;            /* the channels it ran on */
    int tuner_protocol;      /* the protocol the tuner would run there (protocol_id) */
    bool library_choice;     /* the log named no algorithm: the regime is the library's choice */
    int point_count;
    char logs[256];          /* the logs it was fitted from */
} calib_regime_fit;

/* One measured point against its fit. */
typedef struct calib_residual {
    int log, point;          /* indices into the logs and their points */
    int fit;                 /* index into calib_result.fits */
    double n_alpha, n_beta, model_bandwidth_Bps;
    double fitted_s;
} calib_residual;

typedef struct calib_result {
    int fit_count;
    calib_regime_fit fits[CALIB_MAX_FITS];
    int residual_count;
    calib_residual *residuals; /* one per point of every log; free with calib_result_free */
} calib_result;

/* Fit LOGS on platform T.  False with WHY when a log's collective cannot be
 * predicted on T (no flat algorithm for it there). */
bool calib_fit(const calib_log *logs, int log_count, const char *platform_path, const topology *t, calib_result *out,
               char *why, int why_size);
/* The same with each point's time multiplied by SCALE[i * CALIB_MAX_POINTS
 * + p] (NULL: by 1) in the fit; the regimes stay those of the logs' own
 * times. */
bool calib_fit_scaled(const calib_log *logs, int log_count, const char *platform_path, const topology *t,
                      const double *scale, calib_result *out, char *why, int why_size);
void calib_result_free(calib_result *r);

/* The scenario log L's points run in on the platform at PLATFORM_PATH (of
 * PLATFORM_RANKS ranks; its calibration, if any, kept): one case of the
 * log's collective at the log's sizes on its ranks (the platform's first),
 * running the algorithm family the log names (its flat algorithm), else
 * `auto`: the library's own choice as collsim's tuner makes it. */
bool calib_log_scenario(const char *platform_path, int platform_ranks, const calib_log *l, scenario *s,
                        char *why, int why_size);

/* The time the fit gives for (n_α, n_β·M / BW) under FIT. */
double calib_fit_time(const calib_regime_fit *fit, double n_alpha, double bandwidth_term_s);

#endif
