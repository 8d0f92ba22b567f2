// ip-control: "which IPs are online" jobs and dropping connections. The real panel asks
// its nodes and answers later; the mock's jobs are done the moment they are created, and
// the IPs are made up from the user's id so that they stay the same between polls.
#include <arpa/inet.h>

#include "handlers.hpp"
#include "json_output.hpp"
#include "ids.hpp"
#include "json_input.hpp"
#include "reply.hpp"
#include "user.hpp"

namespace mock {
namespace {

// Users are "seen" on two of the three nodes, active users only.
bool online_on(const User& u, size_t node_index, int64_t now) {
    return view_status(u, now) == "ACTIVE" && (static_cast<size_t>(u.id) + node_index) % 3 != 0;
}

void write_ips(JsonWriter& w, const User& u, size_t node_index, int64_t now) {
    const std::string ip = "10." + std::to_string(node_index + 1) + "." + std::to_string((u.id >> 8) & 255) + "." +
                           std::to_string(u.id & 255);
    cabinet::write_key(w, "ips");
    w.StartArray();
    w.StartObject();
    put(w, "ip", ip);
    put_time(w, "lastSeen", now - ((u.id * 37 + static_cast<int64_t>(node_index) * 11) % 600) * 1000);
    w.EndObject();
    w.EndArray();
}

Job job_param(Services& s, const Call& c, Job::Kind kind) {
    auto job = s.state.find_job(c.params.at(0));
    if (!job || job->kind != kind) throw job_not_found();
    return *job;
}

void reply_job_id(Call& c, const std::string& id) {
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        put(w, "jobId", id);
        w.EndObject();
    });
}

void write_job_header(JsonWriter& w, bool failed) {
    put_bool(w, "isCompleted", true);
    put_bool(w, "isFailed", failed);
}

bool is_ip(const std::string& s) {
    unsigned char buf[16];
    return inet_pton(AF_INET, s.c_str(), buf) == 1 || inet_pton(AF_INET6, s.c_str(), buf) == 1;
}

// A non-empty array of strings that all pass `ok`.
void check_list(const Fields& f, const char* key, bool (*ok)(const std::string&), const char* what) {
    auto list = f.opt_string_array(key);
    if (!list) throw ValidationError(f.path(key), "Required");
    if (list->empty()) throw ValidationError(f.path(key), "Array must contain at least 1 element(s)");
    for (size_t i = 0; i < list->size(); ++i)
        if (!ok((*list)[i])) throw ValidationError(f.path(key) + "." + std::to_string(i), what);
}

bool uuid_ok(const std::string& s) { return is_uuid(s); }

}  // namespace

// FetchIpsCommand: POST fetch-ips/{userUuid} -> {jobId}.
void fetch_user_ips(Services& s, Call& c) {
    const std::string& uuid = uuid_param(c, 0, "uuid");
    if (!s.state.user(uuid)) throw user_not_found();
    reply_job_id(c, s.state.add_job({Job::Kind::user_ips, uuid}));
}

// FetchIpsResultCommand: the user's IPs per node.
void fetch_user_ips_result(Services& s, Call& c) {
    const Job job = job_param(s, c, Job::Kind::user_ips);
    const UserPtr user = s.state.user(job.target_uuid);
    const int64_t now = now_ms();
    const auto total = static_cast<int64_t>(nodes().size());
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        write_job_header(w, !user);
        cabinet::write_key(w, "progress");
        w.StartObject();
        put_int(w, "total", total);
        put_int(w, "completed", total);
        put_int(w, "percent", 100);
        w.EndObject();
        cabinet::write_key(w, "result");
        if (!user) {
            w.Null();
        } else {
            w.StartObject();
            put_bool(w, "success", true);
            put(w, "userUuid", user->uuid);
            put(w, "userId", std::to_string(user->id));
            cabinet::write_key(w, "nodes");
            w.StartArray();
            for (size_t i = 0; i < nodes().size(); ++i) {
                if (!online_on(*user, i, now)) continue;
                w.StartObject();
                put(w, "nodeUuid", nodes()[i].uuid);
                put(w, "nodeName", nodes()[i].name);
                put(w, "countryCode", nodes()[i].country_code);
                write_ips(w, *user, i, now);
                w.EndObject();
            }
            w.EndArray();
            w.EndObject();
        }
        w.EndObject();
    });
}

// FetchUsersIpsCommand: POST fetch-users-ips/{nodeUuid} -> {jobId}.
void fetch_node_users_ips(Services& s, Call& c) {
    const std::string& uuid = uuid_param(c, 0, "nodeUuid");
    if (!find_node(uuid)) throw node_not_found();
    reply_job_id(c, s.state.add_job({Job::Kind::node_users_ips, uuid}));
}

// FetchUsersIpsResultCommand: every user online on the node, with their IPs.
void fetch_node_users_ips_result(Services& s, Call& c) {
    const Job job = job_param(s, c, Job::Kind::node_users_ips);
    size_t node_index = 0;
    while (nodes()[node_index].uuid != job.target_uuid) ++node_index;  // jobs only name known nodes
    // The one answer over every user (the real panel's is a query over all of them too).
    const auto users = s.state.all_users();
    const int64_t now = now_ms();
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        write_job_header(w, false);
        cabinet::write_key(w, "result");
        w.StartObject();
        put_bool(w, "success", true);
        put(w, "nodeUuid", job.target_uuid);
        cabinet::write_key(w, "users");
        w.StartArray();
        for (const auto& u : users) {
            if (!online_on(*u, node_index, now)) continue;
            w.StartObject();
            put(w, "userId", std::to_string(u->id));
            write_ips(w, *u, node_index, now);
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
        w.EndObject();
    });
}

// DropConnectionsCommand: body {dropBy: {by, userUuids|ipAddresses}, targetNodes: {target,
// nodeUuids?}}. Nothing to drop in a mock; the real panel only reports the event as sent.
void drop_connections(Services&, Call& c) {
    const auto body = json_body(c);
    const Fields f(body);
    const auto* drop_by = f.get("dropBy");
    if (!drop_by) throw ValidationError("dropBy", "Required");
    const Fields by(*drop_by, "dropBy.");
    const std::string kind = by.req_string("by");
    if (kind == "userUuids") check_list(by, "userUuids", uuid_ok, "Invalid uuid");
    else if (kind == "ipAddresses") check_list(by, "ipAddresses", is_ip, "Invalid ip");
    else throw ValidationError("dropBy.by", "Invalid discriminator value. Expected 'userUuids' | 'ipAddresses'");
    const auto* target_nodes = f.get("targetNodes");
    if (!target_nodes) throw ValidationError("targetNodes", "Required");
    const Fields target(*target_nodes, "targetNodes.");
    const std::string which = target.req_string("target");
    if (which == "specificNodes") check_list(target, "nodeUuids", uuid_ok, "Invalid uuid");
    else if (which != "allNodes")
        throw ValidationError("targetNodes.target", "Invalid discriminator value. Expected 'allNodes' | 'specificNodes'");
    reply(c.resp, [](JsonWriter& w) {
        w.StartObject();
        put_bool(w, "eventSent", true);
        w.EndObject();
    });
}

}  // namespace mock
