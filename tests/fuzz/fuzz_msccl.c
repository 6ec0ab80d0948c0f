/* fuzz_msccl.c — libFuzzer harness for the MSCCL algorithm reader
 * (docs/schedules.md): any bytes given as an MSCCL file must be refused with
 * a positioned message, or read into a program whose schedule is refused
 * with a message or built, verified and freed; never a crash, a leak or a
 * hang.  Built and run by scripts/fuzz on the seed corpus
 * tests/fuzz/corpus/msccl/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "algo/msccl_program.h"
#include "fuzz_input.h"
#include "sched/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    msccl_program p;
    diag d = {0};
    if (!msccl_program_parse("fuzz.xml", (const char *)data, (long)size, &p, &d)) {
        fuzz_expect_message(&d);
        return 0;
    }
    schedule *s = p.ngpus <= 64 ? msccl_schedule(&p, p.prim, p.ngpus, 0, &d) : NULL;
    if (s) {
        char why[512];
        if (schedule_verifiable(s, why, sizeof why)) schedule_verify(s, why, sizeof why);
        schedule_free(s);
    } else if (p.ngpus <= 64) {
        fuzz_expect_message(&d);
    }
    msccl_program_free(&p);
    return 0;
}
