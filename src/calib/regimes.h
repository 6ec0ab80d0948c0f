/* regimes.h — the size regimes of one measured curve: where t(M) changes
 * slope (a protocol or algorithm switch of the library), found from the data
 * by segmented weighted least squares, not assumed. */
#ifndef COLLSIM_CALIB_REGIMES_H
#define COLLSIM_CALIB_REGIMES_H

#define CALIB_MAX_REGIMES 3     /* NCCL's three protocols: LL, LL128, Simple */
#define CALIB_MIN_REGIME_POINTS 3

/* t ≈ a + b·M fitted on relative error: minimises Σ ((a + b·M − t)/t)², a, b ≥ 0. */
typedef struct calib_line {
    double a, b;
    double sum_squares;   /* Σ ((a + b·M − t)/t)² */
} calib_line;

calib_line calib_fit_line(const double *size_bytes, const double *time_s, int count);

/* Split COUNT points (sizes increasing) into K ≤ CALIB_MAX_REGIMES contiguous
 * regimes of at least CALIB_MIN_REGIME_POINTS, each fitted by its own line:
 * the smallest K whose root-mean-square relative residual is within 1 % or
 * within 1.25 × that of the best split (more regimes than the data need
 * would fit noise).  FIRST[r] is the first point of regime r, FIRST[K] =
 * COUNT.  Returns K (1 when there are too few points to split). */
int calib_find_regimes(const double *size_bytes, const double *time_s, int count, int *first);

#endif
