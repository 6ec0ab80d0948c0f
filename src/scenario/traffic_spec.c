/* traffic_spec.c — `traffic: {matrix: FILE}` or `traffic: {pattern, load,
 * arrivals, self_traffic, hotspot_share, packet, packets, warmup, seed,
 * ranks}` of a case (traffic_spec.h). */
#include "scenario/traffic_spec.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/traffic_matrix.h"
#include "scenario/groups.h"
#include "util/memory.h"
#include "util/units.h"

#define DEFAULT_PACKETS 10000 /* measured packet times */
#define DEFAULT_WARMUP 1000   /* packet times before measuring */

/* `matrix: FILE`, relative to the scenario's folder. */
static bool read_matrix(yaml_tree *tree, ynode *node, const char *path, const topology *t, traffic_case *out, diag *d)
{
    static const char *const keys[] = {"matrix", NULL};
    if (!yaml_map_check_keys(tree, node, keys, d)) return false;
    ynode *v = yaml_map_get(tree, node, "matrix");
    const char *name;
    if (!yaml_read_string(tree, v, "matrix", &name, d)) return false;
    char dir_buffer[512], file[1024];
    snprintf(dir_buffer, sizeof dir_buffer, "%s", path);
    if (name[0] == '/') snprintf(file, sizeof file, "%s", name);
    else snprintf(file, sizeof file, "%s/%s", dirname(dir_buffer), name);
    if (!traffic_matrix_read(file, t->ranks, &out->flows, &out->flow_count, d)) {
        if (d->line > 0) return false; /* a mistake inside the file: its own position */
        return yaml_error(tree, v, d, "cannot read the traffic matrix '%s'%s: give a file of `SRC DST SIZE [START]` rows "
                          "or an htsim connection matrix", name,
                          name[0] == '/' ? "" : " (the path is relative to the scenario's folder)");
    }
    for (int i = 0; i < out->flow_count; i++)
        if (out->flows[i].src == out->flows[i].dst)
            return yaml_error(tree, v, d, "flow %d of '%s' goes from rank %d to itself: a flow joins two ranks", i + 1,
                              name, out->flows[i].src);
    out->kind = TRAFFIC_MATRIX;
    char *base = basename(file);
    snprintf(out->text, sizeof out->text, "matrix %.100s", base);
    return true;
}

static bool read_pattern(yaml_tree *tree, ynode *node, synthetic_spec *spec, diag *d)
{
    ynode *v = yaml_map_require(tree, node, "pattern", d);
    const char *name;
    if (!v || !yaml_read_string(tree, v, "pattern", &name, d)) return false;
    if (strcmp(name, "uniform") == 0) spec->pattern = SYNTHETIC_UNIFORM;
    else if (strcmp(name, "permutation") == 0) spec->pattern = SYNTHETIC_PERMUTATION;
    else if (strcmp(name, "hotspot") == 0) spec->pattern = SYNTHETIC_HOTSPOT;
    else return yaml_error(tree, v, d, "'pattern' takes uniform, permutation or hotspot, not '%s'", name);
    ynode *share = yaml_map_get(tree, node, "hotspot_share");
    if (share && spec->pattern != SYNTHETIC_HOTSPOT)
        return yaml_error(tree, share, d, "'hotspot_share' is a hotspot's: remove it, or say 'pattern: hotspot'");
    if (spec->pattern != SYNTHETIC_HOTSPOT) return true;
    if (!share) return yaml_error(tree, node, d, "a hotspot needs 'hotspot_share': the fraction of packets to rank 0's "
                                  "port, e.g. hotspot_share: 0.2");
    if (!yaml_read_positive_number(tree, share, "hotspot_share", &spec->hotspot_share, d)) return false;
    if (spec->hotspot_share > 1) return yaml_error(tree, share, d, "'hotspot_share' is a fraction: 0 to 1");
    return true;
}

static bool read_arrivals(yaml_tree *tree, ynode *node, synthetic_spec *spec, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "arrivals");
    const char *name = "bernoulli";
    if (v && !yaml_read_string(tree, v, "arrivals", &name, d)) return false;
    if (strcmp(name, "bernoulli") == 0) spec->arrivals = ARRIVALS_BERNOULLI;
    else if (strcmp(name, "poisson") == 0) spec->arrivals = ARRIVALS_POISSON;
    else return yaml_error(tree, v, d, "'arrivals' takes bernoulli (one chance per packet time) or poisson, not '%s'", name);
    return true;
}

static bool read_flag(yaml_tree *tree, ynode *node, const char *key, bool *out, diag *d)
{
    ynode *v = yaml_map_get(tree, node, key);
    if (!v) return true;
    const char *text = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
    if (strcmp(text, "true") == 0) *out = true;
    else if (strcmp(text, "false") == 0) *out = false;
    else return yaml_error(tree, v, d, "'%s' takes true or false", key);
    return true;
}

static bool read_seed(yaml_tree *tree, ynode *node, uint64_t *seed, diag *d)
{
    ynode *v = yaml_map_get(tree, node, "seed");
    *seed = 1;
    if (!v) return true;
    const char *digits = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : "";
    char *end = NULL;
    *seed = strtoull(digits, &end, 10);
    if (end == digits || *end != '\0' || digits[0] == '-')
        return yaml_error(tree, v, d, "'seed' must be a whole number, e.g. seed: 7");
    return true;
}

/* The numbers: load (required, > 0; 1 or more: saturation), packet, packets, warmup. */
static bool read_amounts(yaml_tree *tree, ynode *node, const topology *t, synthetic_spec *spec, diag *d)
{
    ynode *load = yaml_map_require(tree, node, "load", d);
    if (!load || !yaml_read_positive_number(tree, load, "load", &spec->load, d)) return false;
    ynode *packet = yaml_map_get(tree, node, "packet");
    spec->packet_bytes = t->packet.mtu_bytes;
    if (packet && !yaml_read_quantity(tree, packet, "packet", UNIT_SIZE, false, &spec->packet_bytes, d)) return false;
    if (spec->packet_bytes > t->packet.mtu_bytes || spec->packet_bytes < 1)
        return yaml_error(tree, packet, d, "'packet' is one packet: 1 B to the platform's mtu (%g B)", t->packet.mtu_bytes);
    int slots = DEFAULT_PACKETS, warmup = DEFAULT_WARMUP;
    ynode *v = yaml_map_get(tree, node, "packets");
    if (v && !yaml_read_int(tree, v, "packets", 1, 100000000, &slots, d)) return false;
    v = yaml_map_get(tree, node, "warmup");
    if (v && !yaml_read_int(tree, v, "warmup", 0, 100000000, &warmup, d)) return false;
    spec->slots = slots;
    spec->warmup_slots = warmup;
    return true;
}

static const char *pattern_name(synthetic_pattern p)
{
    return p == SYNTHETIC_UNIFORM ? "uniform" : p == SYNTHETIC_PERMUTATION ? "permutation" : "hotspot";
}

/* `sources:` and `sinks:` (as `groups:` takes ranks, flattened; all ranks by default): source k and sink k
 * are the two sides of switch port k, so each lists as many ranks.  Into out->ports: sources, then sinks. */
static bool read_ports(yaml_tree *tree, ynode *node, const topology *t, traffic_case *out, diag *d)
{
    group_set sides[2] = {{0}, {0}};
    static const char *const keys[] = {"sources", "sinks"};
    for (int k = 0; k < 2; k++) {
        ynode *v = yaml_map_get(tree, node, keys[k]);
        if (v && !groups_read(tree, v, t->ranks, &sides[k], d)) {
            groups_free(&sides[0]);
            return false;
        }
        if (!v) groups_all(t->ranks, &sides[k]);
    }
    int sources = sides[0].count * sides[0].size, sinks = sides[1].count * sides[1].size;
    synthetic_spec *spec = &out->synthetic;
    spec->ports = sources;
    out->ports = malloc(sizeof *out->ports * (size_t)(sources + sinks + 1));
    if (!out->ports) out_of_memory();
    memcpy(out->ports, sides[0].members, sizeof *out->ports * (size_t)sources);
    memcpy(out->ports + sources, sides[1].members, sizeof *out->ports * (size_t)sinks);
    spec->sources = out->ports;
    spec->sinks = out->ports + sources;
    groups_free(&sides[0]);
    groups_free(&sides[1]);
    ynode *where = yaml_map_get(tree, node, "sinks") ? yaml_map_get(tree, node, "sinks") : node;
    if (sources != sinks)
        return yaml_error(tree, where, d, "source k and sink k are the two sides of port k: give as many sinks as "
                          "sources (%d sources, %d sinks)", sources, sinks);
    if (sources < 2) return yaml_error(tree, where, d, "synthetic traffic needs at least 2 ports");
    return true;
}

/* A packet crosses the switch: no source may send to its own rank.  Source k
 * and sink k may be one rank (a port's two sides) unless self-traffic is on;
 * a source may be no other port's sink. */
static bool check_self_traffic(yaml_tree *tree, ynode *node, const synthetic_spec *spec, diag *d)
{
    for (int k = 0; k < spec->ports; k++)
        for (int j = 0; j < spec->ports; j++) {
            if (spec->sources[k] != spec->sinks[j] || (j == k && !spec->self_traffic)) continue;
            ynode *where = yaml_map_get(tree, node, j == k ? "self_traffic" : "sinks");
            return yaml_error(tree, where ? where : node, d, "source %d and sink %d are both rank %d, and a rank cannot "
                              "send to itself through the switch: %s", k, j, spec->sources[k],
                              j == k ? "give 'sinks:' other ranks than 'sources:' (the ranks across the switch), or say "
                                       "self_traffic: false"
                                     : "list the sinks in the sources' order (sink k on source k's port), or other ranks");
        }
    return true;
}

static bool read_synthetic(yaml_tree *tree, ynode *node, const topology *t, traffic_case *out, diag *d)
{
    static const char *const keys[] = {"pattern", "load", "arrivals", "self_traffic", "hotspot_share", "packet",
                                       "packets", "warmup", "seed", "sources", "sinks", NULL};
    if (!yaml_map_check_keys(tree, node, keys, d) || !read_ports(tree, node, t, out, d)) return false;
    synthetic_spec *spec = &out->synthetic;
    if (!read_pattern(tree, node, spec, d) || !read_arrivals(tree, node, spec, d) ||
        !read_flag(tree, node, "self_traffic", &spec->self_traffic, d) || !read_seed(tree, node, &spec->seed, d) ||
        !read_amounts(tree, node, t, spec, d) || !check_self_traffic(tree, node, spec, d))
        return false;
    out->kind = TRAFFIC_SYNTHETIC;
    snprintf(out->text, sizeof out->text, "%s %s, load %.6g%s, %d ports", pattern_name(spec->pattern),
             spec->arrivals == ARRIVALS_POISSON ? "poisson" : "bernoulli", spec->load,
             spec->self_traffic ? ", self-traffic" : "", spec->ports);
    return true;
}

bool traffic_read(yaml_tree *tree, ynode *node, const char *path, const topology *t, traffic_case *out, diag *d)
{
    memset(out, 0, sizeof *out);
    out->line = (int)node->start_mark.line + 1;
    out->column = (int)node->start_mark.column + 1;
    if (!yaml_expect_mapping(tree, node, "'traffic' {matrix: FILE} or {pattern: uniform, load: 0.8, ...}", d))
        return false;
    if (yaml_map_get(tree, node, "matrix")) return read_matrix(tree, node, path, t, out, d);
    return read_synthetic(tree, node, t, out, d);
}

void traffic_free(traffic_case *c)
{
    free(c->flows);
    free(c->ports);
    memset(c, 0, sizeof *c);
}
