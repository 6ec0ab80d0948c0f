/* cfg_rules.c — --cfg settings refused by collsim (cfg_rules.h).  Each rule
 * names a SimGrid 3.32 option (or a family, NAME/...), the values refused,
 * and the reason, which the message quotes. */
#include "net/fluid/cfg_rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    REFUSE_ANY,          /* any value */
    REFUSE_NOT_POSITIVE, /* a number <= 0, or infinite (what is no number SimGrid refuses) */
    REFUSE_NOT_ONE,      /* a number other than 1 */
    REFUSE_NOT_NEGATIVE, /* a number >= 0 */
    REFUSE_ZERO,         /* the number 0 */
    REFUSE_NEGATIVE,     /* a number < 0 */
    REFUSE_CONTAINING,   /* a value naming WORD */
} refusal;

typedef struct cfg_rule {
    const char *name; /* "NAME", or "NAME/" for every option under it */
    refusal refuse;
    const char *word; /* REFUSE_CONTAINING's */
    const char *why;
} cfg_rule;

#define SOLVER_PRECISION_WHY                                                                                           \
    "SimGrid counts a transfer as done once what remains of it is below this precision; at 0 a residue of rounding "  \
    "never is, and the simulation steps forever without moving its clock: give a positive precision (collsim's own "  \
    "are 1e-9 and 1e-15, docs/reliability.md)"

static const cfg_rule rules[] = {
    {"maxmin/precision", REFUSE_NOT_POSITIVE, NULL, SOLVER_PRECISION_WHY},
    {"surf/precision", REFUSE_NOT_POSITIVE, NULL, SOLVER_PRECISION_WHY},
    {"bmf/precision", REFUSE_NOT_POSITIVE, NULL, SOLVER_PRECISION_WHY},
    {"precision/work-amount", REFUSE_NOT_POSITIVE, NULL, SOLVER_PRECISION_WHY},
    {"precision/timing", REFUSE_NOT_POSITIVE, NULL, SOLVER_PRECISION_WHY},
    {"contexts/nthreads", REFUSE_NOT_ONE, NULL,
     "parallel contexts run collsim's actors on several threads, which share each simulation's tallies unguarded and "
     "take their turns in an order that depends on the machine's load; every simulation runs on one thread (--jobs N "
     "runs N simulations at once instead)"},
    {"debug/breakpoint", REFUSE_NOT_NEGATIVE, NULL,
     "it stops the simulation with SIGTRAP at that simulated time, a debugger's option: run the simulation under a "
     "debugger instead"},
    {"simix/breakpoint", REFUSE_NOT_NEGATIVE, NULL,
     "it stops the simulation with SIGTRAP at that simulated time, a debugger's option: run the simulation under a "
     "debugger instead"},
    {"plugin", REFUSE_CONTAINING, "cmonkey",
     "the chaos monkey kills hosts and links during the run, and a collective cannot finish on a fabric that fails: "
     "drop the plugin"},
    {"maxmin/concurrency-limit", REFUSE_ZERO, NULL,
     "a limit of 0 lets no transfer run, and every schedule would deadlock: give -1 (no limit) or a positive count"},
    {"network/latency-factor", REFUSE_NEGATIVE, NULL,
     "a negative factor makes every latency negative, times no fabric has: give a factor of 0 or more"},
    {"tracing", REFUSE_ANY, NULL,
     "SimGrid's tracing is not available in collsim: every simulation runs in a process of its own, whose trace file "
     "would overwrite the others', and SimGrid 3.32's link tracing fails on collsim's full-duplex links; drop the "
     "option"},
    {"tracing/", REFUSE_ANY, NULL,
     "SimGrid's tracing is not available in collsim: every simulation runs in a process of its own, whose trace file "
     "would overwrite the others', and SimGrid 3.32's link tracing fails on collsim's full-duplex links; drop the "
     "option"},
};

/* Whether the option NAME (LENGTH characters) is RULE's. */
static bool rule_names(const cfg_rule *rule, const char *name, size_t length)
{
    size_t n = strlen(rule->name);
    if (rule->name[n - 1] == '/') return length > n && strncmp(name, rule->name, n) == 0;
    return length == n && strncmp(name, rule->name, n) == 0;
}

static bool refused(const cfg_rule *rule, const char *value)
{
    if (rule->refuse == REFUSE_ANY) return true;
    if (rule->refuse == REFUSE_CONTAINING) return strstr(value, rule->word) != NULL;
    char *end;
    double x = strtod(value, &end);
    bool number = end != value && *end == '\0' && !isnan(x);
    switch (rule->refuse) {
    case REFUSE_NOT_POSITIVE: return number && (!(x > 0) || isinf(x));
    case REFUSE_NOT_ONE: return number && x != 1;
    case REFUSE_NOT_NEGATIVE: return number && x >= 0;
    case REFUSE_ZERO: return number && x == 0;
    case REFUSE_NEGATIVE: return number && x < 0;
    default: return false;
    }
}

bool cfg_rules_check(const char *setting, diag *d)
{
    const char *colon = strchr(setting, ':');
    size_t length = colon ? (size_t)(colon - setting) : strlen(setting);
    const char *value = colon ? colon + 1 : "";
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rule_names(&rules[i], setting, length) && refused(&rules[i], value))
            return diag_fail(d, "--cfg=%s: collsim refuses it: %s", setting, rules[i].why);
    return true;
}
