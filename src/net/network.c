/* network.c — which network model a simulation runs. */
#include "net/network.h"

const network_ops *network_for(const sim_options *options)
{
    return options->model == NETWORK_PACKET ? &packet_network : &fluid_network;
}

const char *network_model_name(network_model model)
{
    return model == NETWORK_PACKET ? "packet" : model == NETWORK_LV08 ? "lv08" : "cm02";
}
