#pragma once
// The fixed part of the mock panel's world: one config profile, two internal squads and
// three nodes, with identities that never change (clients may store them), plus the node
// metrics that float from call to call like a live panel's.
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "util/json.hpp"

namespace mock {

struct Inbound {
    std::string_view uuid, tag, type, network, security;
    int port;
};

struct Squad {
    std::string_view uuid, name;
    int view_position;
    std::vector<Inbound> inbounds;
};

struct Node {
    std::string_view uuid, name, address, country_code;
    int port;
    int view_position;
    bool flaps;  // goes offline now and then, so clients meet an offline node
};

extern const std::string_view kConfigProfileUuid;
// Created-at of everything in the catalogue, so those fields are stable too.
constexpr int64_t kCatalogCreatedMs = 1735689600000;  // 2025-01-01T00:00:00Z

const std::vector<Squad>& squads();
const std::vector<Node>& nodes();
const Squad* find_squad(std::string_view uuid);
const Node* find_node(std::string_view uuid);

// ConfigProfileInboundsSchema
void write_inbound(cabinet::JsonWriter& w, const Inbound& in);

// Live-looking figures of one node at one moment.
struct NodeSample {
    bool connected;
    int64_t traffic_used_bytes;
    int users_online;
    int64_t xray_uptime_s;
};

class NodeMetrics {
public:
    explicit NodeMetrics(int64_t started_ms);
    // Advances every node's counters by a random step and returns the new figures, in the
    // order of nodes().
    std::vector<NodeSample> sample(int64_t now_ms);

private:
    std::mutex mu_;
    std::mt19937_64 rng_;
    int64_t started_ms_;
    std::vector<int64_t> traffic_;
};

}  // namespace mock
