/* library.c — the collective library's keys of a platform file (library.h).
 *
 * NVLS's derating is NCCL's nvlsEfficiency, the share of the NVLink
 * bandwidth its NVLS algorithms reach per compute capability (NCCL v2.30.7,
 * src/graph/tuning.cc): Hopper 0.85, Blackwell 0.74; Volta and Ampere have
 * no NVLS (0 there: collsim leaves such a platform's `inc` underated, 1).
 * A platform states `nvls_efficiency` to override it. */
#include "platform/library.h"

#include <string.h>

const char *const library_keys[] = {"library", "architecture", "nvls_efficiency", "protocols", "ll_max_bw",
                                    "ll128_max_bw", NULL};

static const char *const library_names[] = {"none", "nccl", "rccl"};
static const char *const architecture_names[] = {"none", "volta", "ampere", "hopper", "blackwell", "cdna3"};
/* nvlsEfficiency per architecture (tuning.cc); 1 where NCCL has no NVLS figure */
static const double nvls_derating[] = {1, 1, 1, 0.85, 0.74, 1};

const char *library_name(collective_library l)
{
    return library_names[l];
}

const char *architecture_name(gpu_architecture a)
{
    return architecture_names[a];
}

/* NODE's name among NAMES (COUNT of them): its index, or -1 with D set. */
static int read_choice(yaml_tree *tree, ynode *node, const char *key, const char *const *names, int count,
                       const char *why, diag *d)
{
    const char *text = NULL;
    if (!yaml_read_string(tree, node, key, &text, d)) return -1;
    for (int i = 0; i < count; i++)
        if (strcmp(text, names[i]) == 0) return i;
    yaml_error(tree, node, d, "unknown %s '%s': %s", key, text, why);
    return -1;
}

/* `protocols: [simple, ll]`: the protocols the collective library enables on
 * this platform (RCCL enables LL128 on gfx90a only), as bits in the order
 * simple, ll128, ll. */
static bool read_protocols(yaml_tree *tree, ynode *node, unsigned *mask, diag *d)
{
    int n = yaml_read_list(tree, node, "protocols", "[simple, ll] (drawn from simple, ll128, ll)", d);
    if (n < 0) return false;
    if (n == 0) return yaml_error(tree, node, d, "'protocols' lists none: name at least one of simple, ll128, ll");
    *mask = 0;
    for (int i = 0; i < n; i++) {
        int k = read_choice(tree, yaml_sequence_item(tree, node, i), "protocol", topology_protocol_names,
                            TOPO_PROTOCOLS, "expected simple, ll128 or ll", d);
        if (k < 0) return false;
        *mask |= 1u << k;
    }
    return true;
}

bool library_read(yaml_tree *tree, ynode *map, topology *t, diag *d)
{
    ynode *node;
    if ((node = yaml_map_get(tree, map, "library"))) {
        int k = read_choice(tree, node, "library", library_names, 3,
                            "expected nccl, rccl or none (the seed's alpha-beta model: no protocol, one channel)", d);
        if (k < 0) return false;
        t->library = (collective_library)k;
    }
    if ((node = yaml_map_get(tree, map, "architecture"))) {
        int k = read_choice(tree, node, "architecture", architecture_names, 6,
                            "expected volta, ampere, hopper, blackwell (NCCL's rows) or cdna3 (AMD MI300)", d);
        if (k < 0) return false;
        t->architecture = (gpu_architecture)k;
        t->nvls_efficiency = nvls_derating[k];
    }
    if ((node = yaml_map_get(tree, map, "nvls_efficiency"))) {
        if (!yaml_read_positive_number(tree, node, "nvls_efficiency", &t->nvls_efficiency, d)) return false;
        if (t->nvls_efficiency > 1)
            return yaml_error(tree, node, d, "'nvls_efficiency' is the share of the NVLink rate NVLS reaches: "
                              "expected 0 < nvls_efficiency <= 1");
    }
    if ((node = yaml_map_get(tree, map, "ll_max_bw")) &&
        !yaml_read_quantity(tree, node, "ll_max_bw", UNIT_BANDWIDTH, false, &t->ll_max_bw_Bps, d))
        return false;
    if ((node = yaml_map_get(tree, map, "ll128_max_bw")) &&
        !yaml_read_quantity(tree, node, "ll128_max_bw", UNIT_BANDWIDTH, false, &t->ll128_max_bw_Bps, d))
        return false;
    return !(node = yaml_map_get(tree, map, "protocols")) || read_protocols(tree, node, &t->protocols, d);
}

static const char *const family_names[] = {"ring", "tree", "nvls"};

const char *algorithm_family_name(int family)
{
    return family >= FAMILY_RING && family <= FAMILY_NVLS ? family_names[family] : "ring";
}

int algorithm_family_from_name(const char *name)
{
    for (int f = FAMILY_RING; f <= FAMILY_NVLS; f++)
        if (strcmp(name, family_names[f]) == 0) return f;
    return -1;
}
