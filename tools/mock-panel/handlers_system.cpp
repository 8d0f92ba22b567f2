// Panel identity and the fixed catalogue: version, health, internal squads, nodes.
#include <unistd.h>

#include "handlers.hpp"
#include "json_output.hpp"
#include "reply.hpp"

namespace mock {
namespace {

// SPEC: the stub reports 2.8.4, which passes the cabinet's minimum-version probe.
constexpr std::string_view kPanelVersion = "2.8.4";

}  // namespace

// GetMetadataCommand.
void get_metadata(Services& s, Call& c) {
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        put(w, "version", kPanelVersion);
        cabinet::write_key(w, "build");
        w.StartObject();
        put_time(w, "time", s.started_ms);
        put(w, "number", "mock");
        w.EndObject();
        cabinet::write_key(w, "git");
        w.StartObject();
        cabinet::write_key(w, "backend");
        w.StartObject();
        put(w, "commitSha", "0000000");
        put(w, "branch", "mock-panel");
        put(w, "commitUrl", "");
        w.EndObject();
        cabinet::write_key(w, "frontend");
        w.StartObject();
        put(w, "commitSha", "0000000");
        put(w, "commitUrl", "");
        w.EndObject();
        w.EndObject();
        w.EndObject();
    });
}

// GetRemnawaveHealthCommand has only runtimeMetrics; SPEC wants the version here too.
// zod objects let extra keys through, so `version` keeps the answer valid.
void get_health(Services& s, Call& c) {
    const int64_t now = now_ms();
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        put(w, "version", kPanelVersion);
        cabinet::write_key(w, "runtimeMetrics");
        w.StartArray();
        w.StartObject();
        for (const char* key : {"rss", "heapUsed", "heapTotal", "external", "arrayBuffers"}) put_int(w, key, 0);
        put_int(w, "eventLoopDelayMs", 0);
        put_int(w, "eventLoopP99Ms", 0);
        put_int(w, "activeHandles", 0);
        put_int(w, "uptime", (now - s.started_ms) / 1000);
        put_int(w, "pid", getpid());
        put_int(w, "timestamp", now);
        put(w, "instanceId", "mock-panel");
        put(w, "instanceType", "mock");
        w.EndObject();
        w.EndArray();
        w.EndObject();
    });
}

// GetInternalSquadsCommand: {total, internalSquads[]} with live member counts.
void get_internal_squads(Services& s, Call& c) {
    const std::vector<int64_t> members = s.state.squad_members();
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        put_int(w, "total", static_cast<int64_t>(squads().size()));
        cabinet::write_key(w, "internalSquads");
        w.StartArray();
        for (size_t i = 0; i < squads().size(); ++i) {
            const Squad& sq = squads()[i];
            w.StartObject();
            put(w, "uuid", sq.uuid);
            put_int(w, "viewPosition", sq.view_position);
            put(w, "name", sq.name);
            cabinet::write_key(w, "info");
            w.StartObject();
            put_int(w, "membersCount", members[i]);
            put_int(w, "inboundsCount", static_cast<int64_t>(sq.inbounds.size()));
            w.EndObject();
            cabinet::write_key(w, "inbounds");
            w.StartArray();
            for (const auto& in : sq.inbounds) write_inbound(w, in);
            w.EndArray();
            put_time(w, "createdAt", kCatalogCreatedMs);
            put_time(w, "updatedAt", kCatalogCreatedMs);
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
    });
}

// GetAllNodesCommand: an array of NodesSchema.
void get_nodes(Services& s, Call& c) {
    const int64_t now = now_ms();
    const auto samples = s.metrics.sample(now);
    reply(c.resp, [&](JsonWriter& w) {
        w.StartArray();
        for (size_t i = 0; i < nodes().size(); ++i) {
            const Node& n = nodes()[i];
            const NodeSample& m = samples[i];
            w.StartObject();
            put(w, "uuid", n.uuid);
            put(w, "name", n.name);
            put(w, "address", n.address);
            put_int(w, "port", n.port);
            put_bool(w, "isConnected", m.connected);
            put_bool(w, "isDisabled", false);
            put_bool(w, "isConnecting", false);
            put_time(w, "lastStatusChange", s.started_ms);
            if (m.connected) put_null(w, "lastStatusMessage");
            else put(w, "lastStatusMessage", "mock: node is offline for a while");
            put_bool(w, "isTrafficTrackingActive", true);
            put_int(w, "trafficResetDay", 1);
            put_int(w, "trafficLimitBytes", 0);
            put_int(w, "trafficUsedBytes", m.traffic_used_bytes);
            put_int(w, "notifyPercent", 80);
            put_int(w, "viewPosition", n.view_position);
            put(w, "countryCode", n.country_code);
            cabinet::write_key(w, "consumptionMultiplier");
            w.Double(1.0);
            cabinet::write_key(w, "tags");
            w.StartArray();
            w.EndArray();
            put_time(w, "createdAt", kCatalogCreatedMs);
            put_time(w, "updatedAt", kCatalogCreatedMs);
            cabinet::write_key(w, "configProfile");
            w.StartObject();
            put(w, "activeConfigProfileUuid", kConfigProfileUuid);
            cabinet::write_key(w, "activeInbounds");
            w.StartArray();
            for (const auto& in : squads().back().inbounds) write_inbound(w, in);
            w.EndArray();
            w.EndObject();
            put_null(w, "providerUuid");
            put_null(w, "provider");
            put_null(w, "activePluginUuid");
            put_null(w, "system");
            cabinet::write_key(w, "versions");
            w.StartObject();
            put(w, "xray", "25.10.15");
            put(w, "node", "2.2.3");
            w.EndObject();
            put_int(w, "xrayUptime", m.xray_uptime_s);
            put_int(w, "usersOnline", m.users_online);
            w.EndObject();
        }
        w.EndArray();
    });
}

}  // namespace mock
