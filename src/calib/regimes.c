/* regimes.c — segmented regression of a measured curve (regimes.h): for
 * each number of regimes K, the split of least total weighted squared
 * relative residual by dynamic programming over the contiguous segments
 * (Bellman's segmented least squares), then the smallest K that fits. */
#include "calib/regimes.h"

#include <math.h>

calib_line calib_fit_line(const double *size_bytes, const double *time_s, int count)
{
    /* residual (a + b·M)/t − 1: regressors u = 1/t and M·u, target 1 */
    double suu = 0, suv = 0, svv = 0, su = 0, sv = 0;
    for (int i = 0; i < count; i++) {
        double u = 1 / time_s[i], v = size_bytes[i] / time_s[i];
        suu += u * u, suv += u * v, svv += v * v, su += u, sv += v;
    }
    calib_line line = {0, 0, 0};
    double det = suu * svv - suv * suv;
    if (count >= 2 && det > 1e-12 * suu * svv) {
        line.a = (su * svv - sv * suv) / det;
        line.b = (sv * suu - su * suv) / det;
    }
    if (!(count >= 2 && det > 1e-12 * suu * svv) || line.a < 0 || line.b < 0) {
        /* the best of the one-parameter lines t = a and t = b·M */
        double a = su / suu, b = sv / svv, ssa = 0, ssb = 0;
        for (int i = 0; i < count; i++) {
            double ra = a / time_s[i] - 1, rb = b * size_bytes[i] / time_s[i] - 1;
            ssa += ra * ra, ssb += rb * rb;
        }
        line.a = ssa <= ssb ? a : 0;
        line.b = ssa <= ssb ? 0 : b;
    }
    for (int i = 0; i < count; i++) {
        double r = (line.a + line.b * size_bytes[i]) / time_s[i] - 1;
        line.sum_squares += r * r;
    }
    return line;
}

int calib_find_regimes(const double *size_bytes, const double *time_s, int count, int *first)
{
    enum { MAX_POINTS = 256 };
    if (count > MAX_POINTS || count < 2 * CALIB_MIN_REGIME_POINTS) {
        first[0] = 0, first[1] = count;
        return 1;
    }
    /* best[k][j]: least residual of points 0..j-1 in k+1 regimes; from[k][j]: where the last one starts */
    static const double none = INFINITY;
    double best[CALIB_MAX_REGIMES][MAX_POINTS + 1];
    int from[CALIB_MAX_REGIMES][MAX_POINTS + 1];
    for (int k = 0; k < CALIB_MAX_REGIMES; k++)
        for (int j = 0; j <= count; j++) best[k][j] = none, from[k][j] = 0;
    for (int j = CALIB_MIN_REGIME_POINTS; j <= count; j++)
        best[0][j] = calib_fit_line(size_bytes, time_s, j).sum_squares;
    for (int k = 1; k < CALIB_MAX_REGIMES; k++)
        for (int j = (k + 1) * CALIB_MIN_REGIME_POINTS; j <= count; j++)
            for (int i = k * CALIB_MIN_REGIME_POINTS; i <= j - CALIB_MIN_REGIME_POINTS; i++) {
                if (best[k - 1][i] == none) continue;
                double s = best[k - 1][i] + calib_fit_line(size_bytes + i, time_s + i, j - i).sum_squares;
                if (s < best[k][j]) best[k][j] = s, from[k][j] = i;
            }
    double rms[CALIB_MAX_REGIMES], least = INFINITY;
    for (int k = 0; k < CALIB_MAX_REGIMES; k++) {
        rms[k] = best[k][count] == none ? INFINITY : sqrt(best[k][count] / count);
        if (rms[k] < least) least = rms[k];
    }
    int k = 0;
    while (k + 1 < CALIB_MAX_REGIMES && !(rms[k] <= 0.01 || rms[k] <= 1.25 * least)) k++;
    first[k + 1] = count;
    for (int r = k, j = count; r >= 0; r--) {
        first[r] = r == 0 ? 0 : from[r][j];
        j = first[r];
    }
    return k + 1;
}
