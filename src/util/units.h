/* units.h — quantities with units, as platform and scenario files write them
 * (docs/platforms.md, "Units"): sizes (16MB = 16e6 bytes, 16MiB = 2^24, a plain whole number is
 * bytes), times (0.5us, 0.5µs, 250ns) and bandwidths (900GBps = 900GB/s =
 * 9e11 bytes/s, 400Gbps = 400Gb/s = 5e10 bytes/s).  What collsim prints
 * ("16 MB", "0.5 us", "900 GB/s") reads back.  Conversions go through strtod
 * on the decimal text, so "0.3us" is the double nearest 3e-7.
 *
 * Every value is finite and within a documented range (docs/reliability.md),
 * checked after the unit is applied. */
#ifndef COLLSIM_UNITS_H
#define COLLSIM_UNITS_H

#include <stdbool.h>

typedef enum { UNIT_SIZE, UNIT_TIME, UNIT_BANDWIDTH } unit_kind;

/* Largest size: 1 PiB.  The executor scales byte counts by up to 1024 to
 * keep fractional chunks exact; 2^50 x 2^10 still fits a 64-bit integer. */
#define UNITS_MAX_SIZE_BYTES 1125899906842624.0
/* Largest time (a latency or overhead): 1000 s. */
#define UNITS_MAX_TIME_S 1000.0
/* Bandwidths from 1 B/s to 100 TB/s: scaled by up to 1024 a link stays
 * below the 1e18 B/s of the latency-only switch links (simgrid_xml.c). */
#define UNITS_MIN_BANDWIDTH_BPS 1.0
#define UNITS_MAX_BANDWIDTH_BPS 1e14

/* Parse TEXT as a quantity of KIND.  On success stores the value in SI base
 * units (bytes, seconds, bytes per second) and returns true; otherwise writes
 * a one-line reason (naming what is expected) into WHY and returns false.
 * Zero and negative values are the caller's to refuse. */
bool units_parse(const char *text, unit_kind kind, double *value, char *why, int why_size);

/* Human-readable rendering: "16 MB", "0.5 us", "900 GB/s"; a size that is
 * a whole multiple of 1024 but not of 1000 in binary units ("4 MiB"). */
void units_format(double value, unit_kind kind, char *out, int out_size);

#endif
