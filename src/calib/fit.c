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
#include "model/protocol.h"
#include "plan/plan.h"
#include "scenario/scenario.h"

enum { P_LAUNCH, P_HOP, P_INVERSE_EFFICIENCY, PARAMS };

/* What a point contributes: t ≈ launch + n_α·hop + y·B. */
typedef struct sample {
    double x[PARAMS];   /* 1, n_α, B = n_β·M/BW */
    double time_s;
} sample;

bool calib_log_scenario(const char *platform_path, int platform_ranks, const calib_log *l, scenario *s, char *why,
                        int why_size)
{
    const algorithm *named = l->algorithm[0] ? calibrated_algorithm(l->prim, algorithm_family_from_name(l->algorithm)) : NULL;
    if (l->algorithm[0] && !named) {
        snprintf(why, (size_t)why_size, "%s names NCCL_ALGO %s, which collsim has no flat %s of", l->path, l->algorithm,
                 primitive_name(l->prim));
        return false;
    }
    const char *base = strrchr(platform_path, '/');
    char text[8192];
    int used = snprintf(text, sizeof text, "platform: %s\ncases:\n  - primitive: %s\n    algorithms: [%s]\n    sizes: [",
                        base ? base + 1 : platform_path, primitive_name(l->prim), named ? named->name : "auto");
    for (int p = 0; p < l->point_count && used < (int)sizeof text; p++)
        used += snprintf(text + used, sizeof text - (size_t)used, "%s%.0fB", p ? ", " : "", l->points[p].size_bytes);
    if (used < (int)sizeof text) used += snprintf(text + used, sizeof text - (size_t)used, "]\n");
    if (l->ranks < platform_ranks && used < (int)sizeof text)
        used += snprintf(text + used, sizeof text - (size_t)used, "    groups: {count: 1, size: %d}\n", l->ranks);
    if (used >= (int)sizeof text) {
        snprintf(why, (size_t)why_size, "%s: too many sizes for one case", l->path);
        return false;
    }
    diag d = {0};
    if (!scenario_load_string(platform_path, text, s, &d)) {
        snprintf(why, (size_t)why_size, "%s", d.message);
        return false;
    }
    return true;
}

/* What runs log L's regime whose largest size is SIZE_BYTES: the algorithm the log names, else the
 * tuner's pick there, on the channels and segments it runs (one choice per regime: a regime is one
 * line t = a + b·M, one algorithm). */
static bool regime_choice(const scenario *s, double size_bytes, plan_member *m, int *segments, char *why, int why_size)
{
    *m = (plan_member){.size_bytes = size_bytes};
    if (!plan_choose(s, 0, 0, size_bytes, MODE_RUN, m)) {
        snprintf(why, (size_t)why_size, "the tuner found no algorithm the group supports at %.0f B", size_bytes);
        return false;
    }
    schedule *built = plan_schedule(s, 0, m->run.algorithm, m->run.channels, 0, size_bytes, true, why, why_size);
    if (!built) return false;
    *segments = built->segments;
    schedule_free(built);
    return true;
}

/* The model's counts for log L at size M as its regime's choice runs it (no protocol: the fit replaces
 * the protocol's costs), its ranks the platform's first (a log of one node's GPUs is the first node's,
 * and its group climbs to the tier those ranks reach, not the platform's top). */
static bool model_counts(const scenario *s, const plan_member *choice, int segments, double size_bytes,
                         calib_residual *r, double *hop_s, int *tier, char *why, int why_size)
{
    model_case c = scenario_model_case(s, 0, choice->run.algorithm, PROTOCOL_NONE, choice->run.channels, size_bytes,
                                       segments);
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
    tuner_choice run[CALIB_MAX_REGIMES]; /* what runs each regime (regime_choice) */
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
                       double platform_launch_s, const int *tier, double efficiency_above, const double *scale,
                       sample *buffer)
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
            double time = logs[i].points[p].time_s * (scale ? scale[i * CALIB_MAX_POINTS + p] : 1);
            buffer[count] = (sample){{1, res->n_alpha, res->fitted_s}, time};
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
        f->family = g->run[r].algorithm->family;
        f->channels = g->run[r].channels;
        f->tuner_protocol = g->run[r].protocol;
        f->library_choice = logs[i].algorithm[0] == '\0';
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

bool calib_fit(const calib_log *logs, int log_count, const char *platform_path, const topology *t, calib_result *out,
               char *why, int why_size)
{
    return calib_fit_scaled(logs, log_count, platform_path, t, NULL, out, why, why_size);
}

bool calib_fit_scaled(const calib_log *logs, int log_count, const char *platform_path, const topology *t,
                      const double *scale, calib_result *out, char *why, int why_size)
{
    memset(out, 0, sizeof *out);
    out->residuals = calloc((size_t)log_count * CALIB_MAX_POINTS, sizeof *out->residuals);
    log_regimes *regimes = calloc((size_t)log_count, sizeof *regimes);
    double *hop = calloc((size_t)log_count, sizeof *hop);
    int *tier = calloc((size_t)log_count, sizeof *tier);
    sample *buffer = calloc((size_t)log_count * CALIB_MAX_POINTS, sizeof *buffer);
    bool ok = out->residuals && regimes && hop && tier && buffer;
    if (!ok) snprintf(why, (size_t)why_size, "out of memory");
    for (int i = 0; i < log_count && ok; i++) {
        scenario s;
        if (!(ok = calib_log_scenario(platform_path, t->ranks, &logs[i], &s, why, why_size))) break;
        s.platform.calibrated_count = 0; /* a fit is against the published figures it replaces */
        log_regimes *g = &regimes[i];
        regimes_of(&logs[i], g);
        for (int r = 0; r < g->count && ok; r++) {
            plan_member choice;
            int segments = 0;
            int largest = g->order[g->first[r + 1] - 1];
            ok = regime_choice(&s, logs[i].points[largest].size_bytes, &choice, &segments, why, why_size);
            if (ok) g->run[r] = choice.run;
            for (int k = g->first[r]; k < g->first[r + 1] && ok; k++) {
                int p = g->order[k];
                calib_residual *res = &out->residuals[i * CALIB_MAX_POINTS + p];
                res->log = i, res->point = p, res->fit = -1;
                ok = model_counts(&s, &choice, segments, logs[i].points[p].size_bytes, res, &hop[i], &tier[i], why,
                                  why_size);
            }
        }
        scenario_free(&s);
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
                       efficiency_above, scale, buffer);
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
    free(regimes), free(hop), free(tier), free(buffer);
    if (!ok) calib_result_free(out);
    return ok;
}

void calib_result_free(calib_result *r)
{
    free(r->residuals);
    r->residuals = NULL;
    r->residual_count = 0;
}
