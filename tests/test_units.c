/* test_units.c — the units of docs/platforms.md: KB/MB/GB powers of ten, KiB/MiB/GiB powers
 * of two, GBps = 1e9 B/s, Gbps = 1e9 bit/s; missing or unknown units refused. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "util/units.h"

static double parse_ok(const char *text, unit_kind kind)
{
    double v = -1;
    char why[256];
    ck_assert_msg(units_parse(text, kind, &v, why, sizeof why), "'%s' refused: %s", text, why);
    return v;
}

START_TEST(test_sizes_follow_si_and_binary_prefixes)
{
    ck_assert_double_eq(parse_ok("16MB", UNIT_SIZE), 16000000.0);
    ck_assert_double_eq(parse_ok("16MiB", UNIT_SIZE), 16777216.0);
    ck_assert_double_eq(parse_ok("1GB", UNIT_SIZE), 1e9);
    ck_assert_double_eq(parse_ok("10KB", UNIT_SIZE), 10000.0);
    ck_assert_double_eq(parse_ok("4096B", UNIT_SIZE), 4096.0);
    ck_assert_double_eq(parse_ok("1GiB", UNIT_SIZE), 1073741824.0);
}
END_TEST

START_TEST(test_times_are_decimal_exact)
{
    ck_assert_double_eq(parse_ok("0.5us", UNIT_TIME), 5e-7);
    ck_assert_double_eq(parse_ok("250ns", UNIT_TIME), 2.5e-7);
    ck_assert_double_eq(parse_ok("0.3us", UNIT_TIME), 3e-7);
    ck_assert_double_eq(parse_ok("8us", UNIT_TIME), 8e-6);
    ck_assert_double_eq(parse_ok("2ms", UNIT_TIME), 2e-3);
}
END_TEST

START_TEST(test_bandwidth_bytes_and_bits)
{
    ck_assert_double_eq(parse_ok("900GBps", UNIT_BANDWIDTH), 9e11);
    ck_assert_double_eq(parse_ok("50GBps", UNIT_BANDWIDTH), 5e10);
    ck_assert_double_eq(parse_ok("400Gbps", UNIT_BANDWIDTH), 5e10);
    ck_assert_double_eq(parse_ok("800Gbps", UNIT_BANDWIDTH), 1e11);
}
END_TEST

START_TEST(test_missing_or_wrong_units_are_refused)
{
    double v;
    char why[256];
    ck_assert(!units_parse("900", UNIT_BANDWIDTH, &v, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "no unit"));
    ck_assert(!units_parse("0.5", UNIT_TIME, &v, why, sizeof why));
    ck_assert(!units_parse("16MB", UNIT_TIME, &v, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "unknown unit"));
    ck_assert(!units_parse("fast", UNIT_BANDWIDTH, &v, why, sizeof why));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("units");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_sizes_follow_si_and_binary_prefixes);
    tcase_add_test(tc, test_times_are_decimal_exact);
    tcase_add_test(tc, test_bandwidth_bytes_and_bits);
    tcase_add_test(tc, test_missing_or_wrong_units_are_refused);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
