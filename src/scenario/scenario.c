/* scenario.c — reading scenario files: platform, cases, sizes (list or sweep). */
#include "scenario/scenario.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "platform/platform.h"
#include "util/data_path.h"
#include "scenario/background_spec.h"
#include "scenario/imported.h"
#include "yaml/yaml_tree.h"

static bool read_sizes(yaml_tree *tree, ynode *node, scenario_case *c, diag *d)
{
    int n = yaml_sequence_length(node);
    if (n >= 0) {
        if (n == 0 || n > SCENARIO_MAX_SIZES)
            return yaml_error(tree, node, d, "'sizes' must list 1 to %d sizes, e.g. [1MB, 16MB]", SCENARIO_MAX_SIZES);
        for (int i = 0; i < n; i++)
            if (!yaml_read_quantity(tree, yaml_sequence_item(tree, node, i), "sizes", UNIT_SIZE, false, &c->sizes[i], d))
                return false;
        c->size_count = n;
        return true;
    }
    if (node->type != YAML_MAPPING_NODE)
        return yaml_error(tree, node, d, "'sizes' must be a list [1MB, 16MB] or a sweep {from: 1KB, to: 1GB, factor: 4}");
    static const char *const keys[] = {"from", "to", "factor", NULL};
    if (!yaml_map_check_keys(tree, node, keys, d)) return false;
    for (int i = 0; keys[i]; i++)
        if (!yaml_map_get(tree, node, keys[i]))
            return yaml_error(tree, node, d, "a sweep needs 'from', 'to' and 'factor': add '%s', e.g. "
                              "{from: 1KB, to: 1GB, factor: 4}", keys[i]);
    double from, to, factor;
    ynode *f = yaml_map_get(tree, node, "from"), *t = yaml_map_get(tree, node, "to"), *k = yaml_map_get(tree, node, "factor");
    if (!yaml_read_quantity(tree, f, "from", UNIT_SIZE, false, &from, d) ||
        !yaml_read_quantity(tree, t, "to", UNIT_SIZE, false, &to, d) || !yaml_read_positive_number(tree, k, "factor", &factor, d))
        return false;
    if (factor <= 1) return yaml_error(tree, k, d, "'factor' must be greater than 1, e.g. 2 or 4");
    if (to < from) return yaml_error(tree, t, d, "'to' is below 'from': a sweep grows from 'from' up to 'to', swap them");
    c->size_count = 0;
    for (double m = from; m <= to * (1 + 1e-12); m *= factor) {
        if (c->size_count == SCENARIO_MAX_SIZES)
            return yaml_error(tree, node, d, "the sweep has more than %d sizes: raise 'factor' or narrow the range", SCENARIO_MAX_SIZES);
        c->sizes[c->size_count++] = m;
    }
    /* like nccl-tests' -e, the sweep stops at the last size not past 'to': the run says so (plan.c) */
    if (c->sizes[c->size_count - 1] < to * (1 - 1e-12)) {
        c->sweep_to_bytes = to;
        c->sizes_line = (int)node->start_mark.line + 1;
        c->sizes_column = (int)node->start_mark.column + 1;
    }
    return true;
}

/* `inner:` / `outer:` of a hierarchical case: an algorithm name known for
 * some primitive (which primitive each tier runs depends on the case). */
static bool read_tier_algorithm(yaml_tree *tree, ynode *node, const char *key, char *out, diag *d)
{
    ynode *v = yaml_map_get(tree, node, key);
    const char *name;
    if (!v) return true;
    if (!yaml_read_string(tree, v, key, &name, d)) return false;
    int count;
    const algorithm *table = algorithm_table(&count);
    for (int i = 0; i < count; i++)
        if (strcmp(table[i].name, name) == 0) {
            snprintf(out, 32, "%s", name);
            return true;
        }
    return yaml_error(tree, v, d, "'%s' names no algorithm ('%s'): `collsim list algorithms` lists them", key, name);
}

/* The algorithms of PRIM, "ring, dbt, ..." into OUT. */
static void algorithm_names(primitive prim, char *out, size_t size)
{
    int count, used = 0;
    const algorithm *table = algorithm_table(&count);
    out[0] = '\0';
    for (int i = 0; i < count; i++)
        if (table[i].prim == prim && used < (int)size)
            used += snprintf(out + used, size - (size_t)used, "%s%s", used ? ", " : "", table[i].name);
}

/* `root:` / `peer:`: a rank number, 0 or more (left unchanged when absent). */
static bool read_rank(yaml_tree *tree, ynode *node, const char *key, int *out, diag *d)
{
    ynode *v = yaml_map_get(tree, node, key);
    if (!v) return true;
    const char *digits = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
    char *end = NULL;
    long r = strtol(digits, &end, 10);
    if (end == digits || *end != '\0' || r < 0 || r > 1000000000L)
        return yaml_error(tree, v, d, "'%s' must be a rank number, 0 or more", key);
    *out = (int)r;
    return true;
}

/* One η pair {eta_alpha, eta_beta} (05 §4: η_α ≥ 1, 0 < η_β ≤ 1). */
static bool read_eta_pair(yaml_tree *tree, ynode *node, eta_pair *out, diag *d)
{
    static const char *const keys[] = {"eta_alpha", "eta_beta", NULL};
    if (!yaml_expect_mapping(tree, node, "an eta pair {eta_alpha: 1.2, eta_beta: 0.6}", d) ||
        !yaml_map_check_keys(tree, node, keys, d))
        return false;
    *out = (eta_pair){1, 1};
    ynode *a = yaml_map_get(tree, node, "eta_alpha"), *b = yaml_map_get(tree, node, "eta_beta");
    if (a && !yaml_read_positive_number(tree, a, "eta_alpha", &out->alpha, d)) return false;
    if (b && !yaml_read_positive_number(tree, b, "eta_beta", &out->beta, d)) return false;
    if (out->alpha < 1) return yaml_error(tree, a, d, "'eta_alpha' inflates α: it must be 1 or more (explainer 05 §4)");
    if (out->beta > 1) return yaml_error(tree, b, d, "'eta_beta' deflates BW: it must be in (0, 1] (explainer 05 §4)");
    return true;
}

/* `eta: ideal | seed | {eta_alpha: .., eta_beta: ..} | {TIER: {eta_alpha: .., eta_beta: ..}, ...}`. */
static bool read_eta(yaml_tree *tree, ynode *node, const topology *platform, eta_profile *out, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "eta");
    if (!v) return true;
    memset(out, 0, sizeof *out);
    if (v->type == YAML_SCALAR_NODE) {
        const char *text = (const char *)v->data.scalar.value;
        if (strcmp(text, "ideal") == 0) out->mode = ETA_IDEAL;
        else if (strcmp(text, "seed") == 0) out->mode = ETA_SEED;
        else return yaml_error(tree, v, d, "'eta' takes ideal, seed, {eta_alpha: 1.2, eta_beta: 0.6} or per-tier pairs");
        return true;
    }
    out->mode = ETA_GIVEN;
    if (yaml_map_get(tree, v, "eta_alpha") || yaml_map_get(tree, v, "eta_beta")) return read_eta_pair(tree, v, &out->all, d);
    if (!yaml_expect_mapping(tree, v, "'eta' (ideal, seed, or eta pairs)", d)) return false;
    const char *names[TOPO_MAX_TIERS + 1] = {NULL};
    for (int i = 0; i < platform->tier_count; i++) names[i] = platform->tiers[i].name;
    if (!yaml_map_check_keys(tree, v, names, d)) return false;
    for (int i = 0; i < platform->tier_count; i++) {
        ynode *pair = yaml_map_get(tree, v, names[i]);
        if (!pair) continue;
        snprintf(out->tier_names[out->tier_count], sizeof out->tier_names[0], "%s", names[i]);
        if (!read_eta_pair(tree, pair, &out->tiers[out->tier_count++], d)) return false;
    }
    return true;
}

static bool read_form(yaml_tree *tree, ynode *node, model_form *out, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "form");
    const char *text;
    if (!v) return true;
    if (!yaml_read_string(tree, v, "form", &text, d)) return false;
    if (strcmp(text, "exact") == 0) *out = FORM_EXACT;
    else if (strcmp(text, "asymptotic") == 0) *out = FORM_ASYMPTOTIC;
    else if (strcmp(text, "seed") == 0) *out = FORM_SEED;
    else return yaml_error(tree, v, d, "'form' takes exact (finite-P formulas, 01 App. C.3), asymptotic (L·α + M/BW) or "
                           "seed (exact without the real-system relay, channel and endpoint terms)");
    return true;
}

/* `protocol: simple | ll128 | ll | auto` (NCCL's protocols, model/protocol.h). */
static bool read_protocol(yaml_tree *tree, ynode *node, scenario_case *c, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "protocol");
    const char *text;
    if (!v) return true;
    if (!yaml_read_string(tree, v, "protocol", &text, d)) return false;
    if (!protocol_from_name(text, &c->protocol))
        return yaml_error(tree, v, d, "'protocol' takes simple, ll128, ll or auto (NCCL's protocols; auto: the least "
                          "predicted time per size), not '%s'", text);
    if (c->protocol != PROTOCOL_LL && c->protocol != PROTOCOL_LL128) return true;
    /* NCCL runs NVLS with Simple only (its tuning table has no LL / LL128 NVLS figures) */
    unsigned traits = algorithm_name_traits(c->inner) | algorithm_name_traits(c->outer);
    for (int a = 0; a < c->algorithm_count; a++) traits |= algorithm_name_traits(c->algorithms[a]);
    if (traits & TRAIT_SIMPLE_ONLY)
        return yaml_error(tree, v, d, "'protocol' %s: inc (NVLS, SHARP) runs with simple only, as in NCCL; use simple or "
                          "auto, or list algorithms without inc", text);
    return true;
}

/* `channels: K | auto`: K concurrent sub-collectives of M/K (ring, dbt, inc). */
static bool read_channels(yaml_tree *tree, ynode *node, scenario_case *c, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "channels");
    if (!v) return true;
    const char *text = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
    bool automatic = strcmp(text, "auto") == 0;
    char *end;
    long k = automatic ? CHANNELS_AUTO : strtol(text, &end, 10);
    if (!automatic && (v->type != YAML_SCALAR_NODE || end == text || *end || k < 1 || k > SCHED_MAX_CHANNELS))
        return yaml_error(tree, v, d, "'channels' takes 1 to %d (NCCL's MAXCHANNELS) or auto, not '%s'", SCHED_MAX_CHANNELS,
                          v->type == YAML_SCALAR_NODE ? text : "a list or mapping");
    for (int a = 0; a < c->algorithm_count; a++) { /* `auto` among them: the tuner's candidates take their own */
        const algorithm *algo = algorithm_find(c->prim, c->algorithms[a]);
        if ((automatic || k > 1) && algo && !algorithm_takes_channels(algo))
            return yaml_error(tree, v, d, "'channels' splits ring, dbt, tree and inc schedules; %s %s has none: remove it or "
                              "list only those algorithms", primitive_name(c->prim), algo->name);
    }
    c->channels = (int)k;
    return true;
}

/* `network: cm02 | lv08 | packet` (docs/packet.md): the model `collsim run` uses
 * unless --model says otherwise. */
static bool read_network(yaml_tree *tree, ynode *node, network_model *out, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "network");
    const char *text;
    if (!v) return true;
    if (!yaml_read_string(tree, v, "network", &text, d)) return false;
    if (strcmp(text, "cm02") == 0) *out = NETWORK_CM02;
    else if (strcmp(text, "lv08") == 0) *out = NETWORK_LV08;
    else if (strcmp(text, "packet") == 0) *out = NETWORK_PACKET;
    else return yaml_error(tree, v, d, "'network' takes cm02 (SimGrid's fluid model, the default), lv08 or packet "
                           "(collsim's packet model), not '%s'", text);
    return true;
}

network_model scenario_network(const scenario *s, network_model requested)
{
    if (requested != NETWORK_DEFAULT) return requested;
    return s->network != NETWORK_DEFAULT ? s->network : NETWORK_CM02;
}

/* A platform file named at NODE: relative to the scenario's folder, else
 * along COLLSIM_PATH and the installed platforms (util/data_path.h). */
static bool load_platform_file(yaml_tree *tree, ynode *node, const scenario *s, topology *out, diag *d)
{
    const char *text;
    if (!yaml_read_string(tree, node, "platform", &text, d)) return false;
    char dir_buffer[512], file[1024];
    snprintf(dir_buffer, sizeof dir_buffer, "%s", s->path);
    bool found = data_path_find(text, dirname(dir_buffer), "platforms", file, sizeof file);
    if (platform_load_as(file, s->link_naming, out, d)) return true;
    if (d->line > 0) return false; /* a mistake inside the platform file: its own position */
    char reason[sizeof d->message];
    snprintf(reason, sizeof reason, "%s", d->message);
    return yaml_error(tree, node, d, "platform file %s: %s%s", file, reason,
                      found ? "" : " (the path is relative to the scenario's folder; COLLSIM_PATH and the installed "
                                   "platforms were searched too: docs/platforms.md)");
}

/* A platform: a file or inline; all of a scenario's platforms together
 * within TOPO_MAX_LINKS links. */
static bool load_platform(yaml_tree *tree, ynode *node, scenario *s, topology *out, diag *d)
{
    bool ok = node->type == YAML_MAPPING_NODE ? platform_build(tree, node, s->link_naming, out, d)
                                              : load_platform_file(tree, node, s, out, d);
    if (!ok) return false;
    s->links_total += (long)out->link_count + out->switch_count + out->ranks;
    if (s->links_total <= TOPO_MAX_LINKS) return true;
    topology_free(out);
    return yaml_error(tree, node, d, "the scenario's platforms have more than %d links, switches and ranks together, the "
                      "most collsim holds (docs/reliability.md): compare fewer or smaller platforms", TOPO_MAX_LINKS);
}

/* `platform:` of a case: another fabric for this case (compared side by side with the others). */
static bool read_case_platform(yaml_tree *tree, ynode *node, scenario *s, scenario_case *c, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "platform");
    if (!v) return true;
    s->case_platforms = realloc(s->case_platforms, sizeof(topology) * (size_t)(s->case_platform_count + 1));
    if (!load_platform(tree, v, s, &s->case_platforms[s->case_platform_count], d)) return false;
    c->platform = ++s->case_platform_count;
    return true;
}

const scenario_case *scenario_background_case(const scenario *s, const scenario_case *c)
{
    for (int k = c->together_first; k < c->together_first + c->together_count && k < s->case_count; k++)
        if (s->cases[k].background.source_count) return &s->cases[k];
    return NULL;
}

const topology *scenario_platform(const scenario *s, const scenario_case *c)
{
    return c->platform > 0 ? &s->case_platforms[c->platform - 1] : &s->platform;
}

model_case scenario_model_case(const scenario *s, int c, const algorithm *a, protocol_id protocol, int channels,
                               double size_bytes, int segments)
{
    const scenario_case *k = &s->cases[c];
    const topology *t = scenario_platform(s, k);
    return (model_case){.platform = t, .prim = k->prim, .algorithm = a, .ranks = k->groups.size,
                        .protocol = protocol, .channels = channels,
                        .members = k->groups.whole ? NULL : k->groups.members,
                        .size_bytes = size_bytes, .segments = segments, .root = k->root, .peer = k->peer, .seed = k->seed,
                        .inner = k->inner[0] ? k->inner : NULL, .outer = k->outer[0] ? k->outer : NULL,
                        .form = k->form, .c_real = k->c_real, .eta = &k->eta};
}

/* `groups:`, then what depends on the group size: root, peer, skew. */
static bool read_groups(yaml_tree *tree, ynode *node, const scenario *s, scenario_case *c, diag *d)
{
    const topology *t = scenario_platform(s, c);
    ynode *groups = yaml_map_get(tree, node, "groups");
    ynode *where = groups ? groups : node;
    c->groups_line = (int)where->start_mark.line + 1;
    c->groups_column = (int)where->start_mark.column + 1;
    if (groups) {
        if (!groups_read(tree, groups, t->ranks, &c->groups, d)) return false;
    } else groups_all(t->ranks, &c->groups);
    c->peer = 1;
    if (!read_rank(tree, node, "root", &c->root, d) || !read_rank(tree, node, "peer", &c->peer, d)) return false;
    const char *const which[] = {"root", "peer"};
    const int value[] = {c->root, c->peer};
    for (int i = 0; i < 2; i++)
        if (value[i] >= c->groups.size && (i == 0 || c->prim == PRIM_SENDRECV))
            return yaml_error(tree, yaml_map_get(tree, node, which[i]) ? yaml_map_get(tree, node, which[i]) : where, d,
                              "'%s' %d is outside a group of %d ranks: give a rank within the group, 0 to %d", which[i],
                              value[i], c->groups.size, c->groups.size - 1);
    ynode *skew = yaml_map_get(tree, node, "skew");
    if (!skew) return true;
    if (c->prim != PRIM_ALLTOALL)
        return yaml_error(tree, skew, d, "'skew' shapes all-to-all traffic; %s has none: remove it", primitive_name(c->prim));
    return skew_read(tree, skew, c->groups.size, &c->skew, d);
}

/* `seed:` of a permutation: a whole number, 1 by default. */
static bool read_seed(yaml_tree *tree, ynode *node, scenario_case *c, diag *d)
{
    c->seed = 1;
    ynode *v = yaml_map_get(tree, node, "seed");
    if (!v) return true;
    if (c->prim != PRIM_PERMUTATION)
        return yaml_error(tree, v, d, "'seed' draws a permutation's destinations; %s has none: remove it",
                          primitive_name(c->prim));
    const char *digits = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
    char *end = NULL;
    c->seed = strtoull(digits, &end, 10);
    if (end == digits || *end != '\0' || digits[0] == '-')
        return yaml_error(tree, v, d, "'seed' must be a whole number, e.g. seed: 7");
    return true;
}

/* A case of `traffic:` (docs/scenarios.md, "Traffic"): flows or synthetic packets, on its platform. */
static bool read_traffic_case(yaml_tree *tree, ynode *node, scenario *s, scenario_case *c, diag *d)
{
    static const char *const keys[] = {"traffic", "platform", NULL};
    if (!yaml_map_check_keys(tree, node, keys, d) || !read_case_platform(tree, node, s, c, d)) return false;
    c->prim = PRIM_TRAFFIC;
    groups_all(scenario_platform(s, c)->ranks, &c->groups);
    c->groups_line = c->line;
    c->groups_column = 1;
    c->eta = s->eta;
    return traffic_read(tree, yaml_map_get(tree, node, "traffic"), s->path, scenario_platform(s, c), &c->traffic, d);
}

/* `virtual_lane:` of case C on T (packet_params.h). */
static bool read_virtual_lane(yaml_tree *tree, ynode *node, const topology *t, scenario_case *c, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "virtual_lane");
    if (!v) return true;
    c->virtual_lane_line = (int)v->start_mark.line + 1;
    c->virtual_lane_column = (int)v->start_mark.column + 1;
    return packet_read_virtual_lane(tree, v, t, &c->virtual_lane, d);
}

static bool read_case(yaml_tree *tree, ynode *node, scenario *s, scenario_case *c, diag *d)
{
    static const char *const keys[] = {"primitive", "algorithms", "sizes", "groups", "segments", "root", "peer",
                                       "inner", "outer", "eta", "form", "platform", "c_real", "skew", "seed",
                                       "protocol", "channels", "background", "virtual_lane", NULL};
    if (!yaml_expect_mapping(tree, node, "a case", d)) return false;
    memset(c, 0, sizeof *c);
    c->line = (int)node->start_mark.line + 1;
    ynode *traffic_node = yaml_map_get(tree, node, "traffic");
    if (traffic_node && yaml_map_get(tree, node, "primitive"))
        return yaml_error(tree, traffic_node, d, "a case is a collective ('primitive:') or traffic ('traffic:'), not both: "
                          "put the traffic in a case of its own, in a 'concurrent:' block with other traffic");
    if (traffic_node) return read_traffic_case(tree, node, s, c, d);
    if (!yaml_map_check_keys(tree, node, keys, d)) return false;
    if (!read_case_platform(tree, node, s, c, d)) return false;
    ynode *prim = yaml_map_require(tree, node, "primitive", d);
    const char *name;
    if (!prim || !yaml_read_string(tree, prim, "primitive", &name, d)) return false;
    if (primitive_from_name(name, &c->prim) && c->prim == PRIM_TRAFFIC)
        return yaml_error(tree, prim, d, "traffic is given as 'traffic: {matrix: FILE}' or 'traffic: {pattern: uniform, "
                          "load: 0.8}' (docs/scenarios.md), not as a primitive");
    if (!primitive_from_name(name, &c->prim))
        return yaml_error(tree, prim, d, "unknown primitive '%s': expected bcast, reduce, allreduce, allgather, "
                          "reducescatter, alltoall, sendrecv or permutation", name);
    ynode *algos = yaml_map_require(tree, node, "algorithms", d);
    if (!algos) return false;
    int n = yaml_read_list(tree, algos, "algorithms", "[ring, dbt]", d);
    if (n < 0) return false;
    if (n == 0 || n > SCENARIO_MAX_ALGORITHMS)
        return yaml_error(tree, algos, d, "'algorithms' must list 1 to %d algorithm names, e.g. [ring]", SCENARIO_MAX_ALGORITHMS);
    for (int i = 0; i < n; i++) {
        ynode *item = yaml_sequence_item(tree, algos, i);
        if (!yaml_read_string(tree, item, "algorithms", &name, d)) return false;
        if (strncmp(name, IMPORTED_PREFIX, strlen(IMPORTED_PREFIX)) == 0) {
            c->algorithm_count = i + 1; /* freed with the case */
            if (!imported_read(tree, item, s, c, i, name, d)) return false;
            continue;
        }
        if (strcmp(name, ALGORITHM_AUTO) != 0 && !algorithm_find(c->prim, name)) {
            char known[512];
            algorithm_names(c->prim, known, sizeof known);
            return yaml_error(tree, item, d, "no algorithm '%s' for %s: expected %s (or auto, or msccl:FILE.xml)", name,
                              primitive_name(c->prim), known);
        }
        snprintf(c->algorithms[i], sizeof c->algorithms[i], "%s", name);
        c->records[i] = algorithm_find(c->prim, name); /* NULL: auto */
    }
    c->algorithm_count = n;
    ynode *sizes = yaml_map_require(tree, node, "sizes", d);
    if (!sizes || !read_sizes(tree, sizes, c, d)) return false;
    ynode *seg = yaml_map_get(tree, node, "segments");
    if (seg && seg->type == YAML_SCALAR_NODE && strcmp((const char *)seg->data.scalar.value, "auto") == 0)
        c->segments = SEGMENTS_AUTO;
    else if (seg && !yaml_read_int(tree, seg, "segments", 1, PIPELINE_MAX_SEGMENTS, &c->segments, d)) return false;
    if (!read_tier_algorithm(tree, node, "inner", c->inner, d) || !read_tier_algorithm(tree, node, "outer", c->outer, d))
        return false;
    if (!read_groups(tree, node, s, c, d)) return false;
    c->eta = s->eta;
    if (!read_seed(tree, node, c, d)) return false;
    ynode *c_real = yaml_map_get(tree, node, "c_real");
    if (c_real && !yaml_read_positive_number(tree, c_real, "c_real", &c->c_real, d)) return false;
    if (!read_protocol(tree, node, c, d) || !read_channels(tree, node, c, d)) return false;
    /* the library's protocol where the case names none (its channels: plan_choose), and on a calibrated
     * platform the calibrated protocols, offered in the sizes they were measured at */
    const topology *t = scenario_platform(s, c);
    if ((t->library != LIBRARY_NONE || t->calibrated_count > 0) && !yaml_map_get(tree, node, "protocol"))
        c->protocol = PROTOCOL_AUTO;
    if (!read_virtual_lane(tree, node, t, c, d)) return false;
    ynode *traffic = yaml_map_get(tree, node, "background");
    if (traffic && !background_read(tree, traffic, scenario_platform(s, c), &c->background, c->background_text,
                                    sizeof c->background_text, d))
        return false;
    return read_eta(tree, node, scenario_platform(s, c), &c->eta, d) && read_form(tree, node, &c->form, d) &&
           imported_check(tree, node, c, d);
}

/* The cases of a `concurrent:` item, or NULL when ITEM is a plain case. */
static ynode *concurrent_members(yaml_tree *tree, ynode *item)
{
    return yaml_map_get(tree, item, "concurrent");
}

/* A block's members pair their k-th algorithms and m-th sizes: each lists as many. */
static bool check_block(yaml_tree *tree, ynode *item, const scenario *s, int first, diag *d)
{
    const scenario_case *lead = &s->cases[first];
    for (int c = first; c < s->case_count; c++) {
        const scenario_case *k = &s->cases[c];
        if (k->traffic.kind == TRAFFIC_SYNTHETIC)
            return yaml_error(tree, item, d, "synthetic traffic runs alone (its throughput is the switch's): take the case "
                              "at line %d out of 'concurrent:'", k->line);
        if ((k->traffic.kind == TRAFFIC_MATRIX) != (lead->traffic.kind == TRAFFIC_MATRIX))
            return yaml_error(tree, item, d, "a traffic matrix runs concurrently with other matrices only (the cases at "
                              "lines %d and %d): give a collective's company as 'background:', or make the collective's "
                              "messages rows of the matrix", lead->line, k->line);
        if (k->algorithm_count != lead->algorithm_count || k->size_count != lead->size_count)
            return yaml_error(tree, item, d, "concurrent cases run their k-th algorithms and sizes together: give each case "
                              "the same number (the case at line %d lists %d algorithm(s) and %d size(s), the one at line %d "
                              "%d and %d)", lead->line, lead->algorithm_count, lead->size_count, k->line,
                              k->algorithm_count, k->size_count);
        if (k->platform != 0)
            return yaml_error(tree, item, d, "concurrent cases share the scenario's platform: remove 'platform' from the "
                              "case at line %d", k->line);
        if (c > first && k->background.source_count && scenario_background_case(s, lead) != k)
            return yaml_error(tree, item, d, "concurrent cases run with one background: give 'background' to one case of "
                              "the block only (the cases at lines %d and %d both have one)",
                              scenario_background_case(s, lead)->line, k->line);
    }
    return true;
}

/* One item of `cases:`: a case, or `concurrent: [case, case, ...]` simulated together (mixed traffic). */
static bool read_item(yaml_tree *tree, ynode *item, scenario *s, diag *d)
{
    ynode *members = concurrent_members(tree, item);
    int first = s->case_count;
    if (!members) {
        if (!read_case(tree, item, s, &s->cases[s->case_count++], d)) return false;
        s->cases[first].together_first = first;
        s->cases[first].together_count = 1;
        return true;
    }
    static const char *const keys[] = {"concurrent", NULL};
    if (!yaml_map_check_keys(tree, item, keys, d)) return false;
    int n = yaml_sequence_length(members);
    if (n < 2)
        return yaml_error(tree, members, d, "'concurrent' lists the cases that run together: give two or more, or make a "
                          "lone case a plain item of 'cases'");
    for (int i = 0; i < n; i++)
        if (!read_case(tree, yaml_sequence_item(tree, members, i), s, &s->cases[s->case_count++], d)) return false;
    for (int c = first; c < s->case_count; c++) {
        s->cases[c].together_first = first;
        s->cases[c].together_count = n;
    }
    return check_block(tree, item, s, first, d);
}

static void free_cases(scenario *s)
{
    for (int c = 0; c < s->case_count; c++) {
        groups_free(&s->cases[c].groups);
        skew_free(&s->cases[c].skew);
        background_free(&s->cases[c].background);
        traffic_free(&s->cases[c].traffic);
        imported_free(&s->cases[c]);
    }
    free(s->cases);
    s->cases = NULL;
    s->case_count = 0;
}

/* The cases of `cases:` (NODE), after the platform. */
static bool read_cases(yaml_tree *tree, ynode *cases, scenario *s, diag *d)
{
    int n = yaml_sequence_length(cases);
    if (n <= 0) return yaml_error(tree, cases, d, "'cases' must be a non-empty list of cases");
    int total = 0;
    for (int i = 0; i < n; i++) {
        ynode *members = concurrent_members(tree, yaml_sequence_item(tree, cases, i));
        total += members ? (yaml_sequence_length(members) > 0 ? yaml_sequence_length(members) : 1) : 1;
    }
    if (total > SCENARIO_MAX_CASES)
        return yaml_error(tree, cases, d, "%d cases: a scenario holds at most %d (docs/reliability.md); split it into "
                          "several files", total, SCENARIO_MAX_CASES);
    s->cases = calloc((size_t)total, sizeof *s->cases);
    for (int i = 0; i < n; i++)
        if (!read_item(tree, yaml_sequence_item(tree, cases, i), s, d)) return false;
    return true;
}

/* The scenario of TREE (read from s->path). */
static bool read_scenario(yaml_tree *tree, scenario *s, diag *d)
{
    ynode *root = yaml_tree_root(tree);
    static const char *const keys[] = {"name", "platform", "cases", "description", "eta", "network", NULL};
    if (!yaml_expect_mapping(tree, root, "a scenario", d)) return false;
    if (yaml_map_get(tree, root, "kind") && !yaml_map_get(tree, root, "cases"))
        return yaml_error(tree, root, d, "this is a platform file, not a scenario: it has 'kind' and no 'cases'; "
                          "describe it with collsim platform describe, or name it in a scenario's 'platform:'");
    if (!yaml_map_check_keys(tree, root, keys, d)) return false;
    ynode *node = yaml_map_get(tree, root, "name");
    const char *text = NULL;
    if (node && !yaml_read_string(tree, node, "name", &text, d)) return false;
    if (text && strlen(text) >= sizeof s->name) /* every output names it whole */
        return yaml_error(tree, node, d, "'name' is %zu characters long; a scenario's name holds at most %zu",
                          strlen(text), sizeof s->name - 1);
    snprintf(s->name, sizeof s->name, "%s", text ? text : "scenario");
    ynode *platform = yaml_map_require(tree, root, "platform", d);
    if (!platform || !load_platform(tree, platform, s, &s->platform, d)) return false;
    s->platform_loaded = true;
    if (!read_eta(tree, root, &s->platform, &s->eta, d) || !read_network(tree, root, &s->network, d)) return false;
    ynode *cases = yaml_map_require(tree, root, "cases", d);
    return cases && read_cases(tree, cases, s, d);
}

/* Read TREE (loaded when LOADED) into S, or free everything on failure. */
static bool finish_load(yaml_tree *tree, bool loaded, scenario *s, diag *d)
{
    bool ok = loaded && read_scenario(tree, s, d);
    yaml_tree_free(tree);
    if (!ok) scenario_free(s);
    return ok;
}

bool scenario_load_as(const char *path, link_naming naming, scenario *s, diag *d)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->link_naming = naming;
    yaml_tree tree;
    return finish_load(&tree, yaml_tree_load(&tree, path, d), s, d);
}

bool scenario_load(const char *path, scenario *s, diag *d)
{
    return scenario_load_as(path, LINKS_NAMED, s, d);
}

bool scenario_load_tree(yaml_tree *tree, const char *path, scenario *s, diag *d)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    return finish_load(tree, tree->loaded, s, d);
}

bool scenario_load_string(const char *name, const char *text, scenario *s, diag *d)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", name);
    yaml_tree tree;
    return finish_load(&tree, yaml_tree_load_string(&tree, name, text, d), s, d);
}

void scenario_free(scenario *s)
{
    if (s->platform_loaded) topology_free(&s->platform);
    s->platform_loaded = false;
    for (int i = 0; i < s->case_platform_count; i++) topology_free(&s->case_platforms[i]);
    free(s->case_platforms);
    s->case_platforms = NULL;
    free_cases(s);
}
