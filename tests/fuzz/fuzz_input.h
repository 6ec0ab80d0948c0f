/* fuzz_input.h — what every harness does with libFuzzer's bytes: a
 * NUL-terminated copy (collsim's readers take text), and the rule that a
 * refusal always says why. */
#ifndef COLLSIM_FUZZ_INPUT_H
#define COLLSIM_FUZZ_INPUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* DATA as text; the caller frees it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* A refusal without a message is a finding. */
static inline void fuzz_expect_message(const diag *d)
{
    if (!d->set || !d->message[0]) abort();
}

#endif
