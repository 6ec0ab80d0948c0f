/* test_memory.c — the growth helpers (src/util/memory.h) catch what would
 * overflow: a capacity doubled past INT_MAX stops at INT_MAX instead of
 * wrapping to a negative count, a byte count past SIZE_MAX is refused, and
 * grow_array then ends the process as out of memory (exit 3) rather than
 * allocate a wrapped-around, short array. */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "test_support.h"
#include "util/memory.h"

START_TEST(test_capacity_doubles_from_sixteen)
{
    ck_assert_int_eq(grow_capacity(0, 1), 16);
    ck_assert_int_eq(grow_capacity(0, 17), 32);
    ck_assert_int_eq(grow_capacity(16, 17), 32);
    ck_assert_int_eq(grow_capacity(1024, 5000), 8192);
}
END_TEST

START_TEST(test_capacity_past_int_max_stops_there_instead_of_wrapping)
{
    int half = 1 << 30; /* doubled: 2^31, one past INT_MAX */
    ck_assert_int_eq(grow_capacity(half, half + 1), INT_MAX);
    ck_assert_int_eq(grow_capacity(INT_MAX - 1, INT_MAX), INT_MAX);
}
END_TEST

START_TEST(test_byte_counts_past_size_max_are_caught)
{
    size_t bytes = 0;
    ck_assert(array_bytes(1000, 8, &bytes));
    ck_assert_uint_eq(bytes, 8000);
    ck_assert(!array_bytes(SIZE_MAX / 8 + 1, 8, &bytes));
    ck_assert(!array_bytes((size_t)INT_MAX, SIZE_MAX / 2, &bytes));
    ck_assert(array_bytes(0, SIZE_MAX, &bytes));
    ck_assert_uint_eq(bytes, 0);
}
END_TEST

START_TEST(test_a_ring_doubles_in_powers_of_two)
{
    ck_assert_int_eq(grow_ring_capacity(0, 16), 16);
    ck_assert_int_eq(grow_ring_capacity(16, 16), 32);
    ck_assert_int_eq(grow_ring_capacity(1 << 29, 16), 1 << 30);
}
END_TEST

/* 2^30 doubled is 2^31, past INT_MAX: out of memory, not a negative ring. */
START_TEST(test_a_ring_past_two_to_the_thirtieth_is_out_of_memory)
{
    grow_ring_capacity(1 << 30, 16);
}
END_TEST

/* 16 items of SIZE_MAX / 8 bytes: the product wraps around on any machine. */
START_TEST(test_grow_array_whose_bytes_overflow_is_out_of_memory)
{
    int capacity = 0;
    void *p = grow_array(NULL, &capacity, 1, SIZE_MAX / 8);
    free(p); /* not reached: exit 3 */
}
END_TEST

START_TEST(test_grow_array_keeps_what_it_held)
{
    int capacity = 0, *a = NULL;
    for (int i = 0; i < 1000; i++) {
        a = grow_array(a, &capacity, i + 1, sizeof *a);
        a[i] = i;
    }
    ck_assert_int_eq(capacity, 1024);
    for (int i = 0; i < 1000; i++) ck_assert_int_eq(a[i], i);
    free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("growth");
    tcase_add_test(tc, test_capacity_doubles_from_sixteen);
    tcase_add_test(tc, test_capacity_past_int_max_stops_there_instead_of_wrapping);
    tcase_add_test(tc, test_byte_counts_past_size_max_are_caught);
    tcase_add_exit_test(tc, test_grow_array_whose_bytes_overflow_is_out_of_memory, OUT_OF_MEMORY_EXIT);
    tcase_add_test(tc, test_grow_array_keeps_what_it_held);
    tcase_add_test(tc, test_a_ring_doubles_in_powers_of_two);
    tcase_add_exit_test(tc, test_a_ring_past_two_to_the_thirtieth_is_out_of_memory, OUT_OF_MEMORY_EXIT);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
