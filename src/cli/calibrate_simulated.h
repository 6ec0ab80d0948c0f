/* calibrate_simulated.h — a calibration checked against the simulation
 * (docs/calibration.md, "What the fit is against"): the fit is on the α-β
 * model's counts, and where what runs shares links (NCCL's tree channels
 * through one GPU port, say) the simulation is slower than the model; the
 * logs' points are simulated on the calibrated platform and the fit
 * repeated on targets scaled by measured / simulated, until the simulation
 * reproduces the log. */
#ifndef COLLSIM_CALIBRATE_SIMULATED_H
#define COLLSIM_CALIBRATE_SIMULATED_H

#include <stdbool.h>

#include "calib/fit.h"
#include "calib/log_reader.h"
#include "calib/platform_writer.h"
#include "util/diag.h"

/* The simulated time of every point of the LOG_COUNT LOGS on the platform
 * at PLATFORM_PATH (calibrated, of PLATFORM_RANKS ranks), each log run as it was produced (the
 * algorithm it names, else `auto`) on its ranks: SIMULATED[i *
 * CALIB_MAX_POINTS + p].  False with D set when a scenario does not load or
 * a simulation fails. */
bool calib_simulate_logs(const char *platform_path, int platform_ranks, const calib_log *logs, int log_count,
                         double *simulated, diag *d);

/* IN's fit (IN->result, replaced: RESULT) made good against the simulation:
 * the calibrated platform's simulated time of each point becomes its
 * residual's fitted_s, and where it differs from the fitted model the logs'
 * times are scaled by measured / simulated and fitted again, a few times at
 * most.  SLOWER[i]: how much slower than the first fit's model log i's
 * points simulated at worst (0 or about it: what runs matches the model).
 * False with D set when a simulation fails (RESULT then freed or still IN's,
 * as calib_fit leaves it). */
bool calib_fit_simulated(const calib_writer_input *in, calib_result *result, double *slower, diag *d);

#endif
