/* fuzz_platform.c — libFuzzer harness for the platform reader (docs/reliability.md):
 * any bytes given as a platform file must be refused with a positioned
 * message or built into a topology whose routes stay within their buffer and
 * whose description prints; never a crash, a leak or a hang.  Built and run
 * by scripts/fuzz on the seed corpus tests/fuzz/corpus/platform/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "platform/describe.h"
#include "platform/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    topology t;
    diag d = {0};
    if (platform_load_string("fuzz-platform.yaml", text, &t, &d)) {
        FILE *sink = fopen("/dev/null", "w");
        platform_describe(&t, sink);
        fclose(sink);
        route_hop *hops = route_buffer(&t);
        int nodes = topology_node_count(&t), step = nodes / 64 + 1; /* 64 pairs across ranks and switches */
        for (int a = 0; a < nodes; a += step) topology_route(&t, a, nodes - 1 - a, hops);
        free(hops);
        topology_free(&t);
    } else {
        fuzz_expect_message(&d);
    }
    free(text);
    return 0;
}
