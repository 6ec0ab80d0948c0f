/* fuzz_scenario.c — libFuzzer harness for the scenario reader (docs/reliability.md): any
 * bytes given as a scenario are refused with a message, or read; a scenario
 * read on small platforms is then predicted and verified in full.  Two
 * oracles beyond "no crash, leak or hang": every schedule collsim accepts
 * computes its collective (verification never fails), and the JSON it would
 * write holds only finite numbers.  Platform paths resolve from scenarios/
 * of the source tree (COLLSIM_SOURCE_DIR), so seeds may name shipped
 * platforms.  Built and run by scripts/fuzz on tests/fuzz/corpus/scenario/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_cases.h"
#include "fuzz_input.h"
#include "analysis/eta_fits.h"
#include "report/report.h"
#include "scenario/scenario.h"

#ifndef COLLSIM_SOURCE_DIR
#define COLLSIM_SOURCE_DIR "."
#endif

/* Scenarios small enough to predict and verify hundreds of times a second:
 * their schedules, by the bound collsim checks before building them
 * (algorithm_schedule_size, at every size), hold this many items at most. */
#define FUZZ_MAX_ITEMS 20000.0

static bool small_enough(const scenario *s)
{
    double items = 0;
    for (int c = 0; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        const topology *t = scenario_platform(s, k);
        for (int a = 0; a < k->algorithm_count; a++) {
            const algorithm *algo = algorithm_find(k->prim, k->algorithms[a]);
            if (!algo) return false; /* `auto`: the tuner's pick is not known here, nor its size */
            algo_params p = {.ranks = k->groups.size, .segments = k->segments, .dims = {k->groups.size}, .dim_count = 1,
                             .alpha_s = algorithm_inc_capabilities(algo) ? t->tiers[0].alpha_switch_s : t->tiers[0].alpha_s,
                             .bandwidth_Bps = t->tiers[0].bandwidth_Bps, .tiers = t->tier_count};
            for (int m = 0; m < k->size_count; m++) {
                p.size_bytes = k->sizes[m];
                items += algorithm_schedule_size(algo, &p) * k->groups.count;
            }
        }
    }
    return items <= FUZZ_MAX_ITEMS;
}

/* A non-finite number as a JSON value (what printf writes for them). */
static bool has_non_finite_value(const char *json)
{
    for (const char *p = json; (p = strpbrk(p, "in")) != NULL; p++) {
        if (strncmp(p, "inf", 3) != 0 && strncmp(p, "nan", 3) != 0) continue;
        const char *before = p;
        while (before > json && (before[-1] == '-' || before[-1] == ' ')) before--;
        if (before > json && strchr(":,[", before[-1]) && strchr(",}] \n", p[3])) return true;
    }
    return false;
}

/* Predict S; the report's JSON must hold only finite numbers. */
static void predict(const scenario *s)
{
    report r = {.scenario = s->name, .platform_name = s->platform.name, .platform_kind = s->platform.kind,
                .model = "analytic", .platform_ranks = s->platform.ranks, .eta = "ideal"};
    run_settings settings = {.mode = MODE_PREDICT, .jobs = 1};
    if (run_cases(s, &settings, &r) == 0) {
        analysis_fit_eta(&r);
        char *json = NULL;
        size_t length = 0;
        FILE *out = open_memstream(&json, &length);
        report_print(&r, FORMAT_JSON, out);
        fclose(out);
        if (has_non_finite_value(json)) abort();
        free(json);
    }
    report_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    scenario s;
    diag d = {0};
    if (scenario_load_string(COLLSIM_SOURCE_DIR "/scenarios/fuzz-scenario.yaml", text, &s, &d)) {
        if (small_enough(&s)) {
            predict(&s);
            report r = {.scenario = s.name};
            run_settings settings = {.mode = MODE_VERIFY, .verify = true, .quiet = true, .jobs = 1};
            if (run_cases(&s, &settings, &r) == 1) abort(); /* an accepted schedule that does not compute its collective */
            report_free(&r);
        }
        scenario_free(&s);
    } else {
        fuzz_expect_message(&d);
    }
    free(text);
    return 0;
}
