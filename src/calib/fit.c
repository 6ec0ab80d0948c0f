/* fit.c — the calibration fit (fit.h): per log, the model's counts at each
 * measured point and the regimes of its curve; per (collective, regime
 * counted from the largest sizes), one weighted least-squares fit of
 * (launch, hop, 1/efficiency) over the points of every log of that
 * collective whose groups climb to the same tier, under the bounds launch ≥ the platform's, hop ≥ the
 * platform's α + o (the fit adds to them, as NCCL's protocol figures do:
 * model/protocol.c), and efficiency no higher than the regime above's (a
 * protocol for smaller sizes never has more bandwidth: NCCL's LL ≤ LL128 ≤
 * Simple).  Bounded least squares by enumeration: each parameter is free or
 * at its bound, the feasible solution of least residual wins. */
#include "calib/fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

enum { P_LAUNCH, P_HOP, P_INVERSE_EFFICIENCY, PARAMS };

/* What a point contributes: t ≈ launch + n_α·hop + y·B. */
typedef struct sample {
    double x[PARAMS];   /* 1, n_α, B = n_β·M/BW */
    double time_s;
} sample;

static const char *flat_algorithm(primitive p)
{
    return p == PRIM_ALLTOALL ? "pairwise" : p == PRIM_SENDRECV ? "direct" : "ring";
}

/* The model's counts for log L at size M on T (no protocol, one channel, the asymptotic form), its
 * ranks the platform's first (MEMBERS: 0, 1, ...; a log of one node's GPUs is the first node's, and
 * its group climbs to the tier those ranks reach, not the platform's top). */
static bool model_counts(const topology *t, const calib_log *l, const int *members, double size_bytes,
                         calib_residual *r, double *hop_s, int *tier, char *why, int why_size)
{
    model_case c = {.platform = t, .prim = l->prim, .algorithm = algorithm_find(l->prim, flat_algorithm(l->prim)), .ranks = l->ranks,
                    .members = members, .size_bytes = size_bytes, .root = 0, .peer = l->ranks > 1 ? 1 : 0, .form = FORM_ASYMPTOTIC,
                    .protocol = PROTOCOL_NONE, .channels = 1};
    prediction p;
    if (!model_predict(&c, &p, why, why_size)) return false;
    double latency = 0, bandwidth_term = 0, n_alpha = 0;
    for (int k = 0; k < p.term_count; k++) {
        const model_term *m = &p.terms[k];
        latency += m->n_alpha * (m->alpha_s + m->overhead_s);
        bandwidth_term += m->n_beta * size_bytes / m->bandwidth_Bps;
        n_alpha += m->n_alpha;
    }
    r->n_alpha = n_alpha;
    r->n_beta = p.n_beta;
    r->model_bandwidth_Bps = p.bandwidth_Bps;
    r->fitted_s = bandwidth_term; /* B until the fit replaces it */
    *hop_s = n_alpha > 0 ? latency / n_alpha : 0;
    *tier = model_group_tier(&c);
    return true;
}

/* Least squares on relative error with the parameters not in FREE held at VALUE; false when singular. */
static bool solve(const sample *s, int count, unsigned free_mask, double *value)
{
    double a[PARAMS][PARAMS + 1] = {{0}};
    int index[PARAMS] = {0}, n = 0;
    for (int p = 0; p < PARAMS; p++)
        if (free_mask & (1u << p)) index[n++] = p;
    for (int i = 0; i < count; i++) {
        double w = 1 / (s[i].time_s * s[i].time_s), target = s[i].time_s;
        for (int p = 0; p < PARAMS; p++)
            if (!(free_mask & (1u << p))) target -= value[p] * s[i].x[p];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) a[r][c] += w * s[i].x[index[r]] * s[i].x[index[c]];
            a[r][n] += w * s[i].x[index[r]] * target;
        }
    }
    /* equilibrate (unit diagonal): the columns 1, n_α and B = n_β·M/BW differ by many orders */
    double scale[PARAMS];
    for (int r = 0; r < n; r++) {
        if (!(a[r][r] > 0)) return false;
        scale[r] = sqrt(a[r][r]);
    }
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) a[r][c] /= scale[r] * scale[c];
        a[r][n] /= scale[r];
    }
    for (int c = 0; c < n; c++) { /* Gauss-Jordan with partial pivoting */
        int pivot = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r][c]) > fabs(a[pivot][c])) pivot = r;
        if (fabs(a[pivot][c]) <= 1e-10) return false; /* collinear columns (one N: launch and hop) */
        for (int k = 0; k <= n; k++) {
            double tmp = a[c][k];
            a[c][k] = a[pivot][k], a[pivot][k] = tmp;
        }
        for (int r = 0; r < n; r++) {
            if (r == c) continue;
            double f = a[r][c] / a[c][c];
            for (int k = c; k <= n; k++) a[r][k] -= f * a[c][k];
        }
    }
    for (int r = 0; r < n; r++) value[index[r]] = a[r][n] / a[r][r] / scale[r];
    return true;
}

static double sum_squares(const sample *s, int count, const double *value)
{
    double ss = 0;
    for (int i = 0; i < count; i++) {
        double fitted = 0;
        for (int p = 0; p < PARAMS; p++) fitted += value[p] * s[i].x[p];
        double r = fitted / s[i].time_s - 1;
        ss += r * r;
    }
    return ss;
}

/* Bounded fit (LOWER: the bounds).  From one N, launch and hop are one
 * constant: the hop stays at its bound (the platform's α + o) unless the
 * constant is smaller than n_α times it (then launch stays at its bound). */
static void fit_samples(const sample *s, int count, const double *lower, bool several_n, double *best)
{
    double best_ss = INFINITY;
    memcpy(best, lower, PARAMS * sizeof *best);
    for (unsigned mask = 0; mask < (1u << PARAMS); mask++) { /* earlier masks hold the hop at its bound */
        unsigned both = (1u << P_LAUNCH) | (1u << P_HOP);
        if (!several_n && (mask & both) == both) continue;
        double v[PARAMS] = {lower[P_LAUNCH], lower[P_HOP], lower[P_INVERSE_EFFICIENCY]};
        if (!solve(s, count, mask, v)) continue;
        bool feasible = true;
        for (int p = 0; p < PARAMS; p++) feasible &= v[p] >= lower[p] * (1 - 1e-12);
        if (!feasible) continue;
        double ss = sum_squares(s, count, v);
        /* ties (to rounding: residuals of 1e-9 are exact fits) go to the earlier mask */
        if (isinf(best_ss) || ss < best_ss - fmax(best_ss * 1e-9, 1e-18)) {
            best_ss = ss;
            memcpy(best, v, sizeof v);
        }
    }
}

typedef struct log_regimes {
    int order[CALIB_MAX_POINTS];         /* point indices by size */
    int first[CALIB_MAX_REGIMES + 1];
    int count;
} log_regimes;

static int regimes_of(const calib_log *l, log_regimes *out)
{
    double size[CALIB_MAX_POINTS], time[CALIB_MAX_POINTS];
    for (int i = 0; i < l->point_count; i++) { /* insertion sort by size: logs come nearly sorted */
        int k = i;
        for (; k > 0 && l->points[out->order[k - 1]].size_bytes > l->points[i].size_bytes; k--)
            out->order[k] = out->order[k - 1];
        out->order[k] = i;
    }
    for (int i = 0; i < l->point_count; i++) {
        size[i] = l->points[out->order[i]].size_bytes;
        time[i] = l->points[out->order[i]].time_s;
    }
    out->count = calib_find_regimes(size, time, l->point_count, out->first);
    return out->count;
}

double calib_fit_time(const calib_regime_fit *fit, double n_alpha, double bandwidth_term_s)
{
    return fit->launch_s + n_alpha * fit->hop_s + bandwidth_term_s / fit->efficiency;
}

static void append_log(char *logs, size_t size, const char *path)
{
    if (strstr(logs, path)) return;
    size_t used = strlen(logs);
    snprintf(logs + used, size - used, "%s%s", used ? ", " : "", path);
}

/* Fit regime J (counted from the largest sizes) of the logs of PRIM whose groups climb to FIT_TIER. */
static void fit_regime(const calib_log *logs, int log_count, primitive prim, int fit_tier, int j, int regime_count,
                       const log_regimes *regimes, calib_result *out, const double *platform_hop,
                       double platform_launch_s, const int *tier, double efficiency_above, sample *buffer)
{
    calib_regime_fit *f = &out->fits[out->fit_count];
    memset(f, 0, sizeof *f);
    f->prim = prim;
    f->regime = regime_count - 1 - j;
    f->regime_count = regime_count;
    f->from_bytes = INFINITY;
    int count = 0, last_log = -1;
    double n_alpha_seen = -1, hop_least = INFINITY;
    bool several_n = false;
    for (int i = 0; i < log_count; i++) {
        const log_regimes *g = &regimes[i];
        if (logs[i].prim != prim || tier[i] != fit_tier || j >= g->count) continue;
        int r = g->count - 1 - j;
        for (int k = g->first[r]; k < g->first[r + 1]; k++) {
            int p = g->order[k];
            calib_residual *res = &out->residuals[i * CALIB_MAX_POINTS + p];
            buffer[count] = (sample){{1, res->n_alpha, res->fitted_s}, logs[i].points[p].time_s};
            if (n_alpha_seen >= 0 && fabs(res->n_alpha - n_alpha_seen) > 1e-9) several_n = true;
            n_alpha_seen = res->n_alpha;
            hop_least = fmin(hop_least, platform_hop[i]);
            f->from_bytes = fmin(f->from_bytes, logs[i].points[p].size_bytes);
            f->to_bytes = fmax(f->to_bytes, logs[i].points[p].size_bytes);
            res->fit = out->fit_count;
            count++;
        }
        append_log(f->logs, sizeof f->logs, logs[i].path);
        f->tier = tier[i];
        last_log = i;
    }
    if (last_log < 0) return;
    double lower[PARAMS] = {platform_launch_s, hop_least, 1 / efficiency_above};
    double v[PARAMS];
    f->platform_hop_s = hop_least;
    f->bandwidth_Bps = out->residuals[last_log * CALIB_MAX_POINTS].model_bandwidth_Bps;
    fit_samples(buffer, count, lower, several_n, v);
    f->launch_s = v[P_LAUNCH];
    f->hop_s = v[P_HOP];
    f->efficiency = 1 / v[P_INVERSE_EFFICIENCY];
    f->hop_fitted = several_n;
    f->point_count = count;
    double ss = 0;
    for (int i = 0; i < count; i++) {
        double fitted = calib_fit_time(f, buffer[i].x[P_HOP], buffer[i].x[P_INVERSE_EFFICIENCY]);
        double rel = fabs(fitted / buffer[i].time_s - 1);
        ss += rel * rel;
        f->max_rel = fmax(f->max_rel, rel);
    }
    f->rms_rel = sqrt(ss / count);
    out->fit_count++;
}

bool calib_fit(const calib_log *logs, int log_count, const topology *t, calib_result *out, char *why, int why_size)
{
    memset(out, 0, sizeof *out);
    out->residuals = calloc((size_t)log_count * CALIB_MAX_POINTS, sizeof *out->residuals);
    log_regimes *regimes = calloc((size_t)log_count, sizeof *regimes);
    double *hop = calloc((size_t)log_count, sizeof *hop);
    int *tier = calloc((size_t)log_count, sizeof *tier);
    sample *buffer = calloc((size_t)log_count * CALIB_MAX_POINTS, sizeof *buffer);
    int *members = calloc((size_t)t->ranks, sizeof *members);
    bool ok = out->residuals && regimes && hop && tier && buffer && members;
    if (!ok) snprintf(why, (size_t)why_size, "out of memory");
    for (int i = 0; ok && i < t->ranks; i++) members[i] = i;
    for (int i = 0; i < log_count && ok; i++) {
        for (int p = 0; p < logs[i].point_count && ok; p++) {
            calib_residual *r = &out->residuals[i * CALIB_MAX_POINTS + p];
            r->log = i, r->point = p, r->fit = -1;
            ok = model_counts(t, &logs[i], members, logs[i].points[p].size_bytes, r, &hop[i], &tier[i], why,
                              why_size);
        }
        if (ok) regimes_of(&logs[i], &regimes[i]);
    }
    for (int i = 0; i < log_count && ok; i++) {
        bool seen = false;
        for (int k = 0; k < i; k++) seen |= logs[k].prim == logs[i].prim && tier[k] == tier[i];
        if (seen) continue;
        int regime_count = 0;
        for (int k = i; k < log_count; k++)
            if (logs[k].prim == logs[i].prim && tier[k] == tier[i] && regimes[k].count > regime_count)
                regime_count = regimes[k].count;
        double efficiency_above = 1e3;
        for (int j = 0; j < regime_count && out->fit_count < CALIB_MAX_FITS; j++) {
            fit_regime(logs, log_count, logs[i].prim, tier[i], j, regime_count, regimes, out, hop, t->launch_s, tier,
                       efficiency_above, buffer);
            efficiency_above = out->fits[out->fit_count - 1].efficiency;
        }
    }
    /* the fitted time of every point, in place of its bandwidth term */
    for (int i = 0; i < log_count && ok; i++)
        for (int p = 0; p < logs[i].point_count; p++) {
            calib_residual *r = &out->residuals[i * CALIB_MAX_POINTS + p];
            r->fitted_s = r->fit >= 0 ? calib_fit_time(&out->fits[r->fit], r->n_alpha, r->fitted_s) : 0;
        }
    out->residual_count = ok ? log_count * CALIB_MAX_POINTS : 0;
    free(regimes), free(hop), free(tier), free(buffer), free(members);
    if (!ok) calib_result_free(out);
    return ok;
}

void calib_result_free(calib_result *r)
{
    free(r->residuals);
    r->residuals = NULL;
    r->residual_count = 0;
}
