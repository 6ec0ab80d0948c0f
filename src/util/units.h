/* units.h — quantities with units, as platform and scenario files write them
 * (SPEC §3): sizes (16MB = 16e6 bytes, 16MiB = 2^24), times (0.5us, 250ns) and
 * bandwidths (900GBps = 9e11 bytes/s, 400Gbps = 5e10 bytes/s).  Conversions go
 * through strtod on the decimal text, so "0.3us" is the double nearest 3e-7. */
#ifndef COLLSIM_UNITS_H
#define COLLSIM_UNITS_H

#include <stdbool.h>

typedef enum { UNIT_SIZE, UNIT_TIME, UNIT_BANDWIDTH } unit_kind;

/* Parse TEXT as a quantity of KIND.  On success stores the value in SI base
 * units (bytes, seconds, bytes per second) and returns true; otherwise writes
 * a one-line reason (naming what is expected) into WHY and returns false. */
bool units_parse(const char *text, unit_kind kind, double *value, char *why, int why_size);

/* Human-readable rendering: "16 MB", "0.5 us", "900 GB/s". */
void units_format(double value, unit_kind kind, char *out, int out_size);

#endif
