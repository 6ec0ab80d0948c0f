/* simgrid_zone.cpp — the topology as a SimGrid network zone that routes
 * itself (simgrid_zone.h).  The one C++ file of collsim: SimGrid 3.32 builds
 * platforms in C++ only (docs/architecture.md).
 *
 * What SimGrid's XML Full zone did, this zone does without its text and its
 * hosts x hosts route table: the same hosts, the same links declared in the
 * same order with the same bandwidths and latencies, and, when a message
 * starts, the same route (the topology's route function, link by link, the
 * latencies summed in route order), so simulated times are unchanged. */
extern "C" { /* collsim's C headers */
#include "platform/simgrid_xml.h"
#include "platform/topology.h"
}
#include "net/fluid/simgrid_zone.h"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

namespace routing = simgrid::kernel::routing;
using simgrid::kernel::resource::StandardLinkImpl;

class TopologyZone : public routing::NetZoneImpl {
public:
    TopologyZone(const topology *t) : NetZoneImpl("fabric"), t_(t), hops_(route_buffer(t))
    {
        up_.assign((size_t)t->link_count, nullptr);
        down_.assign((size_t)t->link_count, nullptr);
        latency_.assign((size_t)t->link_count, 0.0);
    }
    ~TopologyZone() override { free(hops_); }

    void add_node(int node, simgrid::s4u::Host *host)
    {
        size_t vertex = host->get_netpoint()->id();
        if (node_of_.size() <= vertex) node_of_.resize(vertex + 1, -1);
        node_of_[vertex] = node;
    }

    void add_link(int l, double bandwidth_scale)
    {
        const topo_link *link = &t_->links[l];
        auto *zone = get_iface();
        latency_[(size_t)l] = link->latency_s;
        if (link->latency_only) {
            auto *fatpipe = zone->create_link(topology_link_name(t_, l), 1e18);
            fatpipe->set_sharing_policy(simgrid::s4u::Link::SharingPolicy::FATPIPE);
            fatpipe->set_latency(link->latency_s);
            fatpipe->seal();
            up_[(size_t)l] = down_[(size_t)l] = fatpipe->get_impl();
            return;
        }
        auto *duplex = zone->create_split_duplex_link(topology_link_name(t_, l), link->bandwidth_Bps * bandwidth_scale);
        duplex->set_latency(link->latency_s);
        duplex->seal();
        up_[(size_t)l] = duplex->get_link_up()->get_impl();
        down_[(size_t)l] = duplex->get_link_down()->get_impl();
    }

protected:
    /* What FullZone::get_local_route does with a stored route, computed here
     * (never from a host to itself: simgrid_zone_build refuses such pairs). */
    void get_local_route(const routing::NetPoint *src, const routing::NetPoint *dst, routing::Route *into,
                         double *latency) override
    {
        int count = topology_route(t_, node_of_[src->id()], node_of_[dst->id()], hops_);
        into->link_list_.reserve(into->link_list_.size() + (size_t)count); /* one allocation a message, not one a link */
        for (int h = 0; h < count; h++) {
            size_t l = (size_t)hops_[h].link;
            StandardLinkImpl *link = hops_[h].down ? down_[l] : up_[l];
            if (!link) {
                fprintf(stderr, "collsim: internal error: a message from %s to %s crosses a link the platform "
                        "did not declare\n", src->get_cname(), dst->get_cname());
                abort();
            }
            into->link_list_.push_back(link);
            if (latency) *latency += latency_[l];
        }
    }

private:
    const topology *t_;
    route_hop *hops_;
    std::vector<int> node_of_; /* vertex id -> topology node */
    std::vector<StandardLinkImpl *> up_, down_; /* per topology link; nullptr: not declared */
    std::vector<double> latency_;               /* per topology link, as declared */
};

bool pair_less(const node_pair &x, const node_pair &y)
{
    return x.src != y.src ? x.src < y.src : x.dst < y.dst;
}

bool pair_same(const node_pair &x, const node_pair &y)
{
    return x.src == y.src && x.dst == y.dst;
}

} // namespace

bool simgrid_zone_build(const topology *t, node_pair *pairs, int pair_count, double bandwidth_scale, bool hosts_only)
{
    std::sort(pairs, pairs + pair_count, pair_less);
    pair_count = (int)(std::unique(pairs, pairs + pair_count, pair_same) - pairs);
    std::vector<char> host_used((size_t)topology_node_count(t), 0), link_used((size_t)t->link_count, 0);
    route_hop *hops = route_buffer(t);
    char name[64], dst_name[64];
    for (int i = 0; i < pair_count; i++) {
        host_used[(size_t)pairs[i].src] = host_used[(size_t)pairs[i].dst] = 1;
        if (hosts_only) continue;
        if (pairs[i].src == pairs[i].dst) {
            topology_node_name(t, pairs[i].src, name, sizeof name);
            fprintf(stderr, "collsim: internal error: a message from %s to itself\n", name);
            free(hops);
            return false;
        }
        int count = topology_route(t, pairs[i].src, pairs[i].dst, hops);
        if (count <= 0) {
            topology_node_name(t, pairs[i].src, name, sizeof name);
            topology_node_name(t, pairs[i].dst, dst_name, sizeof dst_name);
            fprintf(stderr, "collsim: platform '%s' has no route from %s to %s\n", t->name, name, dst_name);
            free(hops);
            return false;
        }
        for (int h = 0; h < count; h++) link_used[(size_t)hops[h].link] = 1;
    }
    free(hops);
    auto *zone = new TopologyZone(t); /* the first zone is SimGrid's root; the engine owns it */
    for (int node = 0; node < topology_node_count(t); node++) {
        if (!host_used[(size_t)node]) continue;
        topology_node_name(t, node, name, sizeof name);
        zone->add_node(node, zone->get_iface()->create_host(name, 1e9));
    }
    for (int l = 0; l < t->link_count; l++)
        if (link_used[(size_t)l]) zone->add_link(l, bandwidth_scale);
    zone->seal();
    simgrid::s4u::Engine::on_platform_created();
    return true;
}
