/* platform_writer.h — the calibrated platform: the input platform file as
 * written (comments kept), its tiers' `efficiency` set to 1 (the fit
 * carries it) and a `calibrated:` list of groups, one per (collective,
 * tier) measured, each of the fitted protocols (simple, ll128, ll: one per
 * size regime, from the largest sizes down) with a comment saying from
 * which logs and how well it fits. */
#ifndef COLLSIM_CALIB_PLATFORM_WRITER_H
#define COLLSIM_CALIB_PLATFORM_WRITER_H

#include "calib/fit.h"

typedef struct calib_writer_input {
    const char *platform_path;
    const topology *platform;
    const calib_log *logs;
    int log_count;
    const calib_result *result;
} calib_writer_input;

/* Write to PATH ("-": standard output), replaced whole or not at all. */
bool calib_write_platform(const calib_writer_input *in, const char *path, diag *d);

#endif
