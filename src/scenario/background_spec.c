/* background_spec.c — `background: {ranks, pattern, to, load, tier, message,
 * arrivals, seed, warmup}` of a case. */
#include "scenario/background_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/groups.h"
#include "util/units.h"

#define DEFAULT_MESSAGE_BYTES 65536.0 /* 64 KiB: 16 packets of the default MTU */

/* `ranks:` as `groups:` takes it (a list, several lists, a layout, `all`), flattened. */
static bool read_ranks(yaml_tree *tree, ynode *node, const topology *t, group_set *ranks, diag *d)
{
    ynode *v = yaml_map_require(tree, node, "ranks", d);
    return v && groups_read(tree, v, t->ranks, ranks, d);
}

static bool read_pattern(yaml_tree *tree, ynode *node, background_spec *spec, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "pattern");
    const char *name = "uniform";
    if (v && !yaml_read_string(tree, v, "pattern", &name, d)) return false;
    if (strcmp(name, "uniform") == 0) spec->pattern = BACKGROUND_UNIFORM;
    else if (strcmp(name, "permutation") == 0) spec->pattern = BACKGROUND_PERMUTATION;
    else if (strcmp(name, "incast") == 0) spec->pattern = BACKGROUND_INCAST;
    else return yaml_error(tree, v, d, "'pattern' takes uniform, permutation or incast, not '%s'", name);
    return true;
}

/* `to:` of an incast: a platform rank that is not among the senders. */
static bool read_destination(yaml_tree *tree, ynode *node, const topology *t, background_spec *spec, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "to");
    if (spec->pattern != BACKGROUND_INCAST) {
        if (v) return yaml_error(tree, v, d, "'to' is an incast's destination: remove it, or say 'pattern: incast'");
        return true;
    }
    if (!v) return yaml_error(tree, node, d, "an incast needs 'to': the rank every message goes to, e.g. to: 0");
    const char *digits = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
    char *end = NULL;
    long to = strtol(digits, &end, 10);
    if (end == digits || *end != '\0' || to < 0 || to >= t->ranks)
        return yaml_error(tree, v, d, "'to' must be a rank of the platform, 0 to %d", t->ranks - 1);
    for (int i = 0; i < spec->rank_count; i++)
        if (spec->ranks[i] == to)
            return yaml_error(tree, v, d, "'to' %ld is among 'ranks': the incast's destination does not send; leave it out", to);
    spec->to = (int)to;
    return true;
}

/* `tier:` a tier of the platform, by name; -1 when absent. */
static bool read_tier(yaml_tree *tree, ynode *node, const topology *t, background_spec *spec, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "tier");
    spec->tier = -1;
    if (!v) return true;
    const char *name;
    if (!yaml_read_string(tree, v, "tier", &name, d)) return false;
    for (int k = 0; k < t->tier_count; k++)
        if (strcmp(t->tiers[k].name, name) == 0) spec->tier = k;
    if (spec->tier >= 0) return true;
    char known[160] = "";
    for (int k = 0, used = 0; k < t->tier_count; k++)
        used += snprintf(known + used, sizeof known - (size_t)used, "%s%s", k ? ", " : "", t->tiers[k].name);
    return yaml_error(tree, v, d, "'%s' is not a tier of '%s': expected %s", name, t->name, known);
}

static bool read_arrivals(yaml_tree *tree, ynode *node, background_spec *spec, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "arrivals");
    const char *name = "poisson";
    if (v && !yaml_read_string(tree, v, "arrivals", &name, d)) return false;
    if (strcmp(name, "periodic") == 0) spec->periodic = true;
    else if (strcmp(name, "poisson") != 0)
        return yaml_error(tree, v, d, "'arrivals' takes poisson (random, exponential gaps) or periodic, not '%s'", name);
    return true;
}

static bool read_seed(yaml_tree *tree, ynode *node, background_spec *spec, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "seed");
    spec->seed = 1;
    if (!v) return true;
    const char *digits = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
    char *end = NULL;
    spec->seed = strtoull(digits, &end, 10);
    if (end == digits || *end != '\0' || digits[0] == '-')
        return yaml_error(tree, v, d, "'seed' must be a whole number, e.g. seed: 7");
    return true;
}

/* The numbers: load (required), message, warmup. */
static bool read_amounts(yaml_tree *tree, ynode *node, background_spec *spec, diag *d)
{
    ynode *load = yaml_map_require(tree, node, "load", d);
    if (!load || !yaml_read_positive_number(tree, load, "load", &spec->load, d)) return false;
    ynode *message = yaml_map_get(tree, node, "message");
    spec->message_bytes = DEFAULT_MESSAGE_BYTES;
    if (message && !yaml_read_quantity(tree, message, "message", UNIT_SIZE, false, &spec->message_bytes, d)) return false;
    ynode *warmup = yaml_map_get(tree, node, "warmup");
    spec->warmup_s = -1;
    return !warmup || yaml_read_quantity(tree, warmup, "warmup", UNIT_TIME, true, &spec->warmup_s, d);
}

static const char *pattern_name(background_pattern p)
{
    return p == BACKGROUND_UNIFORM ? "uniform" : p == BACKGROUND_PERMUTATION ? "permutation" : "incast";
}

bool background_read(yaml_tree *tree, ynode *node, const topology *t, background *out, char *text, size_t text_size,
                     diag *d)
{
    static const char *const keys[] = {"ranks", "pattern", "to", "load", "tier", "message", "arrivals", "seed",
                                       "warmup", "virtual_lane", NULL};
    if (!yaml_expect_mapping(tree, node, "'background' {ranks: [...], load: 0.8, ...}", d) ||
        !yaml_map_check_keys(tree, node, keys, d))
        return false;
    group_set ranks = {0};
    background_spec spec = {0};
    bool ok = read_ranks(tree, node, t, &ranks, d) && read_pattern(tree, node, &spec, d);
    if (ok) {
        spec.ranks = ranks.members;
        spec.rank_count = ranks.count * ranks.size;
        int least = spec.pattern == BACKGROUND_INCAST ? 1 : 2;
        if (spec.rank_count < least)
            ok = yaml_error(tree, yaml_map_get(tree, node, "ranks"), d, "a %s background needs at least %d sending ranks",
                            pattern_name(spec.pattern), least);
    }
    ok = ok && read_destination(tree, node, t, &spec, d) && read_tier(tree, node, t, &spec, d) &&
         read_arrivals(tree, node, &spec, d) && read_seed(tree, node, &spec, d) && read_amounts(tree, node, &spec, d);
    ynode *lane = yaml_map_get(tree, node, "virtual_lane");
    ok = ok && (!lane || packet_read_virtual_lane(tree, lane, t, &spec.virtual_lane, d));
    char why[256];
    if (ok && !background_build(out, t, &spec, why, sizeof why)) ok = yaml_error(tree, node, d, "%s: choose another tier", why);
    if (ok) {
        char size[32];
        units_format(spec.message_bytes, UNIT_SIZE, size, sizeof size);
        int used = spec.pattern == BACKGROUND_INCAST
                       ? snprintf(text, text_size, "incast to %d from %d ranks", spec.to, spec.rank_count)
                       : snprintf(text, text_size, "%s over %d ranks", pattern_name(spec.pattern), spec.rank_count);
        used += snprintf(text + used, text_size - (size_t)used, ", %s %s, load %.6g%s%s", size,
                         spec.periodic ? "periodic" : "poisson", spec.load, spec.tier >= 0 ? " of " : "",
                         spec.tier >= 0 ? t->tiers[spec.tier].name : "");
        if (spec.virtual_lane > 0 && used < (int)text_size)
            snprintf(text + used, text_size - (size_t)used, ", lane %d", spec.virtual_lane);
    }
    groups_free(&ranks);
    return ok;
}
