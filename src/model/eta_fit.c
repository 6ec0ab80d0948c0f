/* eta_fit.c — the η fit (docs/model.md, "How η is fitted"; explainer 05 §4.1), generalised to n_α, n_β
 * that change with M: t ≈ x·A + y·B weighted for relative error.
 *
 * Dividing each point by its t turns the weighted problem into an ordinary
 * one: minimise |x·u + y·v − 1|² with u = A/t, v = B/t.  It is solved by a
 * QR factorisation of the two columns (Gram–Schmidt, the second column
 * orthogonalised twice), which keeps the digits the normal equations would
 * lose when α and bandwidth terms differ by orders of magnitude. */
#include "model/eta_fit.h"

#include <math.h>
#include <stdlib.h>

static double dot(const double *a, const double *b, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++) sum += a[i] * b[i];
    return sum;
}

/* v -= (q·v) q; returns q·v */
static double remove_component(double *v, const double *q, int n)
{
    double c = dot(q, v, n);
    for (int i = 0; i < n; i++) v[i] -= c * q[i];
    return c;
}

static bool points_usable(const eta_point *points, int count)
{
    if (count < 2) return false;
    for (int i = 0; i < count; i++) {
        const eta_point *p = &points[i];
        if (!isfinite(p->alpha_term_s) || !isfinite(p->bandwidth_term_s) || !isfinite(p->time_s) || p->time_s <= 0)
            return false;
    }
    return true;
}

/* Least squares x·U + y·V ≈ B over N entries (U, V, B overwritten); false
 * when a column is zero or the two are dependent to working precision. */
static bool solve_two_columns(double *u, double *v, double *b, int n, double *x, double *y)
{
    double r11 = sqrt(dot(u, u, n)), v_norm = sqrt(dot(v, v, n));
    if (r11 == 0 || v_norm == 0) return false;
    for (int i = 0; i < n; i++) u[i] /= r11; /* q1 */
    double r12 = remove_component(v, u, n);
    r12 += remove_component(v, u, n);        /* twice is enough (Kahan–Parlett) */
    double r22 = sqrt(dot(v, v, n));
    if (r22 <= 1e-13 * v_norm) return false;
    for (int i = 0; i < n; i++) v[i] /= r22; /* q2 */
    double c1 = remove_component(b, u, n);
    double c2 = dot(v, b, n);
    *y = c2 / r22;
    *x = (c1 - r12 * *y) / r11;
    return isfinite(*x) && isfinite(*y);
}

bool eta_fit(const eta_point *points, int count, eta_fit_result *out)
{
    if (!points_usable(points, count)) return false;
    double *u = malloc(sizeof(double) * 3 * (size_t)count);
    double *v = u + count, *ones = v + count;
    for (int i = 0; i < count; i++) {
        u[i] = points[i].alpha_term_s / points[i].time_s;
        v[i] = points[i].bandwidth_term_s / points[i].time_s;
        ones[i] = 1;
    }
    double x = 0, y = 0;
    bool solved = solve_two_columns(u, v, ones, count, &x, &y);
    free(u);
    if (!solved || y <= 0) return false;
    double worst = 0;
    for (int i = 0; i < count; i++) {
        const eta_point *p = &points[i];
        double residual = fabs((x * p->alpha_term_s + y * p->bandwidth_term_s - p->time_s) / p->time_s);
        if (residual > worst) worst = residual;
    }
    *out = (eta_fit_result){.eta_alpha = x, .eta_beta = 1 / y, .max_rel_residual = worst};
    return true;
}
