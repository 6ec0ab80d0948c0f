/* network.c — which network model a simulation runs. */
#include "net/network.h"

#include <math.h>
#include <stdio.h>

#include "net/fluid/child_limits.h"

const network_ops *network_for(const sim_options *options)
{
    return options->model == NETWORK_PACKET ? &packet_network : &fluid_network;
}

double network_max_actors(network_model model)
{
    sim_options options = {.model = model};
    return network_for(&options)->drive ? INFINITY : child_limits_max_actors();
}

const char *network_model_name(network_model model)
{
    return model == NETWORK_PACKET ? "packet" : model == NETWORK_LV08 ? "lv08" : "cm02";
}

const char *network_label(const sim_options *options, char *text, int size)
{
    if (options->model != NETWORK_PACKET || !options->ties_shuffled) return network_model_name(options->model);
    snprintf(text, (size_t)size, "packet, ties shuffled(%llu)", (unsigned long long)options->tie_seed);
    return text;
}
