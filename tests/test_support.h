/* test_support.h — loading shipped or inline platforms and simulating flows
 * from Check tests. */
#ifndef COLLSIM_TEST_SUPPORT_H
#define COLLSIM_TEST_SUPPORT_H

#include <check.h>

#include "net/simgrid_run.h"
#include "sched/schedule.h"
#include "platform/platform.h"

/* Load platforms/NAME.yaml from the source tree; fails the test on error. */
void load_shipped(const char *name, topology *t);
/* Load a platform from YAML text; fails the test on error. */
void load_text(const char *yaml, topology *t);
/* Simulated arrival time of one message SRC -> DST of SIZE bytes under CM02. */
double simulate_one(const topology *t, int src, int dst, double size_bytes);
/* Simulate COUNT concurrent flows; fails the test if the simulation fails. */
void simulate_flows(const topology *t, const flow *flows, int count, double *finish_s);
/* Simulate S on T (schedule actor a on rank a) for SIZE_BYTES and fail the
 * test unless the time is within 1e-9 of EXPECTED_S; WHAT names the case. */
void expect_time(const topology *t, schedule *s, double size_bytes, double expected_s, const char *what);
/* Run every test of S (forking per test) and return the process exit status. */
int run_suite(Suite *s);
/* |a/b - 1| */
double relative_error(double a, double b);

#endif
