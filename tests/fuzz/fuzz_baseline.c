/* fuzz_baseline.c — libFuzzer harness for the baseline reader of `collsim
 * run --baseline` (report/baseline.c): any bytes given as a baseline must be
 * refused with a message, or read into at most BASELINE_MAX_ROWS results
 * that a comparison then reports, each one, as gone from a run that has no
 * rows.  Never a crash, a leak or a hang.  Built and run by scripts/fuzz on
 * tests/fuzz/corpus/baseline/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "report/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink) sink = fopen("/dev/null", "w");
    char *text = fuzz_text(data, size);
    diag d = {0};
    baseline *b = baseline_parse("fuzz.json", text, size, &d);
    if (b) {
        int rows = baseline_row_count(b);
        report empty = {.model = "cm02"};
        if (rows < 0 || rows > BASELINE_MAX_ROWS || baseline_compare(&empty, b, 1e-9, sink) != rows) abort();
        baseline_close(b);
    } else {
        fuzz_expect_message(&d);
    }
    free(text);
    return 0;
}
