/* units.c — parsing and printing of sizes, times and bandwidths. */
#include "util/units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *suffix;
    const char *exponent; /* appended to the mantissa text: exact decimal scaling */
    double factor;        /* applied after parsing (binary prefixes, bits) */
} unit_entry;

static const unit_entry size_units[] = {
    {"B", "", 1}, {"KB", "e3", 1}, {"MB", "e6", 1}, {"GB", "e9", 1}, {"TB", "e12", 1},
    {"KiB", "", 1024.0}, {"MiB", "", 1048576.0}, {"GiB", "", 1073741824.0},
    {"TiB", "", 1099511627776.0}, {NULL, NULL, 0}};

static const unit_entry time_units[] = {
    {"s", "", 1}, {"ms", "e-3", 1}, {"us", "e-6", 1}, {"ns", "e-9", 1}, {"ps", "e-12", 1},
    {NULL, NULL, 0}};

static const unit_entry bandwidth_units[] = {
    {"Bps", "", 1}, {"KBps", "e3", 1}, {"MBps", "e6", 1}, {"GBps", "e9", 1}, {"TBps", "e12", 1},
    {"KiBps", "", 1024.0}, {"MiBps", "", 1048576.0}, {"GiBps", "", 1073741824.0},
    {"bps", "", 0.125}, {"Kbps", "e3", 0.125}, {"Mbps", "e6", 0.125}, {"Gbps", "e9", 0.125},
    {"Tbps", "e12", 0.125}, {NULL, NULL, 0}};

static const unit_entry *table_for(unit_kind kind)
{
    switch (kind) {
    case UNIT_SIZE: return size_units;
    case UNIT_TIME: return time_units;
    default: return bandwidth_units;
    }
}

static const char *expected_for(unit_kind kind)
{
    switch (kind) {
    case UNIT_SIZE: return "a size with a unit, e.g. 16MB, 1GiB, 4096B (or a whole number of bytes)";
    case UNIT_TIME: return "a time with a unit, e.g. 0.5us, 0.5µs, 250ns, 2ms";
    default: return "a bandwidth with a unit, e.g. 900GBps, 900GB/s, 400Gbps, 400Gb/s";
    }
}

/* The unit as the tables spell it: µs (micro sign or Greek mu) is us, and a
 * bandwidth's "/s" is "ps" (GB/s = GBps). */
static void canonical_suffix(const char *text, size_t length, unit_kind kind, char *out, size_t size)
{
    if (length >= size) length = size - 1;
    memcpy(out, text, length);
    out[length] = '\0';
    if (kind == UNIT_TIME && (strcmp(out, "\xc2\xb5s") == 0 || strcmp(out, "\xce\xbcs") == 0)) strcpy(out, "us");
    if (kind == UNIT_BANDWIDTH && length >= 3 && strcmp(out + length - 2, "/s") == 0) memcpy(out + length - 2, "ps", 2);
}

/* Finite, and within the documented range of KIND (units.h). */
static bool in_range(const char *text, unit_kind kind, double v, char *why, int why_size)
{
    const char *what = kind == UNIT_SIZE ? "size" : kind == UNIT_TIME ? "time" : "bandwidth";
    if (!isfinite(v)) {
        snprintf(why, (size_t)why_size, "'%s' is not a finite %s", text, what);
        return false;
    }
    double magnitude = fabs(v);
    const char *limit = NULL;
    if (kind == UNIT_SIZE && magnitude > UNITS_MAX_SIZE_BYTES) limit = "larger than 1PiB, the largest size collsim takes";
    if (kind == UNIT_TIME && magnitude > UNITS_MAX_TIME_S) limit = "longer than 1000s, the longest time collsim takes";
    if (kind == UNIT_BANDWIDTH && magnitude > UNITS_MAX_BANDWIDTH_BPS)
        limit = "faster than 100TBps, the largest bandwidth collsim takes";
    if (kind == UNIT_BANDWIDTH && magnitude > 0 && magnitude < UNITS_MIN_BANDWIDTH_BPS)
        limit = "slower than 1Bps, the smallest bandwidth collsim takes";
    if (!limit) return true;
    snprintf(why, (size_t)why_size, "'%s' is %s", text, limit);
    return false;
}

/* A plain number as a size: a whole count of bytes. */
static bool plain_bytes(const char *text, const char *number, size_t length, double *value, char *why, int why_size)
{
    for (size_t i = 0; i < length; i++)
        if (!isdigit((unsigned char)number[i]) && !(i == 0 && (number[i] == '+' || number[i] == '-'))) {
            snprintf(why, (size_t)why_size, "'%s' has no unit, and a plain number is a count of bytes, which must be "
                     "whole: expected %s", text, expected_for(UNIT_SIZE));
            return false;
        }
    char buffer[72];
    snprintf(buffer, sizeof buffer, "%.*s", (int)length, number);
    *value = strtod(buffer, NULL);
    return in_range(text, UNIT_SIZE, *value, why, why_size);
}

bool units_parse(const char *text, unit_kind kind, double *value, char *why, int why_size)
{
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    const char *number_start = p;
    if (*p == '+' || *p == '-') p++;
    while (isdigit((unsigned char)*p) || *p == '.') p++;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-') q++;
        if (isdigit((unsigned char)*q)) {
            p = q;
            while (isdigit((unsigned char)*p)) p++;
        }
    }
    size_t number_len = (size_t)(p - number_start);
    if (number_len == 0 || number_len > 64) {
        snprintf(why, (size_t)why_size, "'%s' is not %s", text, expected_for(kind));
        return false;
    }
    while (isspace((unsigned char)*p)) p++;
    size_t suffix_len = strlen(p);
    while (suffix_len > 0 && isspace((unsigned char)p[suffix_len - 1])) suffix_len--;
    if (suffix_len == 0 && kind == UNIT_SIZE) return plain_bytes(text, number_start, number_len, value, why, why_size);
    if (suffix_len == 0) {
        snprintf(why, (size_t)why_size, "'%s' has no unit: expected %s", text, expected_for(kind));
        return false;
    }
    char suffix[16];
    canonical_suffix(p, suffix_len, kind, suffix, sizeof suffix);

    for (const unit_entry *u = table_for(kind); u->suffix; u++) {
        if (strcmp(u->suffix, suffix) != 0) continue;
        char buffer[96];
        /* mantissa with its own exponent cannot take a second one: scale instead */
        bool has_exponent = memchr(number_start, 'e', number_len) || memchr(number_start, 'E', number_len);
        if (has_exponent)
            snprintf(buffer, sizeof buffer, "%.*s", (int)number_len, number_start);
        else
            snprintf(buffer, sizeof buffer, "%.*s%s", (int)number_len, number_start, u->exponent);
        char *end = NULL;
        double v = strtod(buffer, &end);
        if (!end || *end != '\0') {
            snprintf(why, (size_t)why_size, "'%s' is not %s", text, expected_for(kind));
            return false;
        }
        if (has_exponent && u->exponent[0]) {
            char scale[16];
            snprintf(scale, sizeof scale, "1%s", u->exponent);
            v *= strtod(scale, NULL);
        }
        *value = v * u->factor;
        return in_range(text, kind, *value, why, why_size);
    }
    snprintf(why, (size_t)why_size, "'%s' has an unknown unit '%.*s': expected %s", text, (int)suffix_len, p,
             expected_for(kind));
    return false;
}

void units_format(double value, unit_kind kind, char *out, int out_size)
{
    static const char *size_names[] = {"B", "KB", "MB", "GB", "TB"};
    static const char *bw_names[] = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};
    if (kind == UNIT_TIME) {
        if (value == 0) snprintf(out, out_size, "0 s");
        else if (fabs(value) < 1e-6) snprintf(out, out_size, "%.4g ns", value * 1e9);
        else if (fabs(value) < 1e-3) snprintf(out, out_size, "%.4g us", value * 1e6);
        else if (fabs(value) < 1) snprintf(out, out_size, "%.4g ms", value * 1e3);
        else snprintf(out, out_size, "%.4g s", value);
        return;
    }
    static const char *binary_names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    const char **names = kind == UNIT_SIZE ? size_names : bw_names;
    /* a size written in binary units (a whole multiple of 1024 that is not one of 1000) reads back in them */
    double step = 1000.0;
    if (kind == UNIT_SIZE && fabs(value) >= 1024 && fmod(value, 1024) == 0 && fmod(value, 1000) != 0) {
        names = binary_names;
        step = 1024.0;
    }
    int i = 0;
    while (i < 4 && fabs(value) >= step) {
        value /= step;
        i++;
    }
    snprintf(out, out_size, "%.4g %s", value, names[i]);
}
