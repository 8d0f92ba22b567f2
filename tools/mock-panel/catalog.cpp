#include "catalog.hpp"

namespace mock {

const std::string_view kConfigProfileUuid = "9a3c3d1e-2f4b-4c6d-8e7f-1a2b3c4d5e6f";

const std::vector<Squad>& squads() {
    static const std::vector<Squad> all = {
        {"3f7c9a12-5b4e-4d8a-9c1f-2e6b7a8d9c01", "Default", 0,
         {{"b1d2e3f4-0a1b-4c2d-8e3f-4a5b6c7d8e01", "VLESS_REALITY", "vless", "tcp", "reality", 443}}},
        {"7a1e5c34-9d2b-4f6e-8a0c-3b5d7e9f1a02", "Premium", 1,
         {{"b1d2e3f4-0a1b-4c2d-8e3f-4a5b6c7d8e01", "VLESS_REALITY", "vless", "tcp", "reality", 443},
          {"c2e3f4a5-1b2c-4d3e-9f4a-5b6c7d8e9f02", "VLESS_XHTTP", "vless", "xhttp", "tls", 8443}}},
    };
    return all;
}

const std::vector<Node>& nodes() {
    static const std::vector<Node> all = {
        {"d4c3b2a1-1111-4a2b-8c3d-4e5f6a7b8c01", "Amsterdam", "nl1.mock-panel.invalid", "NL", 2222, 0, false},
        {"d4c3b2a1-2222-4a2b-8c3d-4e5f6a7b8c02", "Frankfurt", "de1.mock-panel.invalid", "DE", 2222, 1, false},
        {"d4c3b2a1-3333-4a2b-8c3d-4e5f6a7b8c03", "Helsinki", "fi1.mock-panel.invalid", "FI", 2222, 2, true},
    };
    return all;
}

const Squad* find_squad(std::string_view uuid) {
    for (const auto& s : squads())
        if (s.uuid == uuid) return &s;
    return nullptr;
}

const Node* find_node(std::string_view uuid) {
    for (const auto& n : nodes())
        if (n.uuid == uuid) return &n;
    return nullptr;
}

void write_inbound(cabinet::JsonWriter& w, const Inbound& in) {
    using cabinet::write_key;
    using cabinet::write_string;
    w.StartObject();
    write_key(w, "uuid");
    write_string(w, in.uuid);
    write_key(w, "profileUuid");
    write_string(w, kConfigProfileUuid);
    write_key(w, "tag");
    write_string(w, in.tag);
    write_key(w, "type");
    write_string(w, in.type);
    write_key(w, "network");
    write_string(w, in.network);
    write_key(w, "security");
    write_string(w, in.security);
    write_key(w, "port");
    w.Int(in.port);
    write_key(w, "rawInbound");
    w.Null();
    w.EndObject();
}

NodeMetrics::NodeMetrics(int64_t started_ms)
    : rng_(std::random_device{}()), started_ms_(started_ms), traffic_(nodes().size(), 0) {
    // Start from plausible totals rather than zero.
    for (size_t i = 0; i < traffic_.size(); ++i) traffic_[i] = static_cast<int64_t>(i + 1) * 180'000'000'000LL;
}

std::vector<NodeSample> NodeMetrics::sample(int64_t now_ms) {
    std::lock_guard lock(mu_);
    std::vector<NodeSample> out;
    const auto& all = nodes();
    for (size_t i = 0; i < all.size(); ++i) {
        NodeSample s;
        s.connected = !all[i].flaps || std::uniform_int_distribution<int>(0, 3)(rng_) != 0;
        if (s.connected) traffic_[i] += std::uniform_int_distribution<int64_t>(1'000'000, 500'000'000)(rng_);
        s.traffic_used_bytes = traffic_[i];
        s.users_online = s.connected ? std::uniform_int_distribution<int>(3, 120)(rng_) : 0;
        s.xray_uptime_s = s.connected ? (now_ms - started_ms_) / 1000 : 0;
        out.push_back(s);
    }
    return out;
}

}  // namespace mock
