#include "bench_panel_state.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

namespace cabinet::ctl {
namespace {

constexpr const char* kFormat = "cabinet-mock-panel/1";

// Every bench subscription with the panel uuid seed_bench.cpp gives it, as the panel would
// show it; times in the snapshot's ISO form with milliseconds.
constexpr const char* kBenchPanelUsers =
    "SELECT s.panel_uuid::text, u.telegram_id, u.id, s.short_uuid, s.device_limit, s.traffic_used_bytes,"
    "  to_char(s.expire_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
    "  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
    "  md5(s.panel_uuid::text)"
    " FROM subscriptions s JOIN users u ON u.id = s.user_id"
    " WHERE u.telegram_id BETWEEN 900000001 AND 900000000 + $1::bigint"
    "  AND s.panel_uuid::text LIKE '00000000-0000-4000-8000-%'"
    " ORDER BY u.telegram_id";

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void put(Writer& w, const char* key, const char* value) {
    w.Key(key);
    w.String(value);
}

// A panel user as tools/mock-panel/user_codec.cpp writes one; secrets derived from the uuid
// (md5 hex) so a rerun writes the same record.
void write_panel_user(Writer& w, const pqxx::row& r, int64_t panel_id) {
    const std::string md5 = r[8].c_str();
    const std::string vless = md5.substr(0, 8) + "-" + md5.substr(8, 4) + "-4" + md5.substr(13, 3) + "-8" +
                              md5.substr(17, 3) + "-" + md5.substr(20, 12);
    w.StartObject();
    put(w, "uuid", r[0].c_str());
    w.Key("id");
    w.Int64(panel_id);
    put(w, "shortUuid", r[3].c_str());
    put(w, "username", ("tg_" + std::string(r[1].c_str())).c_str());
    put(w, "status", "ACTIVE");  // the mock shows EXPIRED once expireAt has passed
    w.Key("trafficLimitBytes");
    w.Int64(0);
    put(w, "trafficLimitStrategy", "NO_RESET");
    put(w, "expireAt", r[6].c_str());
    w.Key("telegramId");
    w.Int64(r[1].as<int64_t>());
    w.Key("email");
    w.Null();
    put(w, "description", ("cabinet user " + std::string(r[2].c_str())).c_str());
    w.Key("tag");
    w.Null();
    w.Key("hwidDeviceLimit");
    w.Int64(r[4].as<int64_t>());
    w.Key("externalSquadUuid");
    w.Null();
    put(w, "trojanPassword", md5.substr(0, 24).c_str());
    put(w, "vlessUuid", vless.c_str());
    put(w, "ssPassword", md5.substr(8, 24).c_str());
    w.Key("lastTriggeredThreshold");
    w.Int64(0);
    w.Key("subRevokedAt");
    w.Null();
    w.Key("lastTrafficResetAt");
    w.Null();
    put(w, "createdAt", r[7].c_str());
    put(w, "updatedAt", r[7].c_str());
    w.Key("activeInternalSquads");
    w.StartArray();
    w.EndArray();
    w.Key("usedTrafficBytes");
    w.Int64(r[5].as<int64_t>());
    w.Key("lifetimeUsedTrafficBytes");
    w.Int64(r[5].as<int64_t>());
    w.Key("onlineAt");
    w.Null();
    w.Key("firstConnectedAt");
    w.Null();
    w.Key("lastConnectedNodeUuid");
    w.Null();
    w.Key("devices");
    w.StartArray();
    w.EndArray();
    w.EndObject();
}

void write_file_atomically(const std::string& path, const rapidjson::StringBuffer& text) {
    const std::string tmp = path + ".tmp";
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("cannot create " + tmp + ": " + std::strerror(errno));
    const char* data = text.GetString();
    size_t left = text.GetSize();
    while (left > 0) {
        const ssize_t n = write(fd, data, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const std::string err = std::strerror(errno);
            close(fd);
            unlink(tmp.c_str());
            throw std::runtime_error("cannot write " + tmp + ": " + err);
        }
        data += n;
        left -= static_cast<size_t>(n);
    }
    if (write(fd, "\n", 1) != 1 || fsync(fd) != 0 || close(fd) != 0) {
        unlink(tmp.c_str());
        throw std::runtime_error("cannot finish " + tmp + ": " + std::strerror(errno));
    }
    if (rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename onto " + path);
}

}  // namespace

int64_t add_bench_panel_users(pqxx::connection& conn, int64_t count, const std::string& path) {
    rapidjson::Document old;
    std::unordered_set<std::string> known;
    int64_t next_id = 1;
    // The mock keeps its newest changes in a log beside the snapshot until it folds them in:
    // ids written past them would collide with theirs when it starts.
    for (const std::string& log : {path + ".changes", path + ".changes.old"}) {
        std::ifstream l(log, std::ios::binary | std::ios::ate);
        if (l && l.tellg() > 0)
            throw std::runtime_error(log + " holds changes the snapshot does not: stop the mock panel and run"
                                           " `MOCK_PANEL_STATE=" + path + " mock-panel --compact` first");
    }
    if (std::ifstream in(path, std::ios::binary); in) {
        std::stringstream text;
        text << in.rdbuf();
        old.Parse(text.str().c_str());
        if (old.HasParseError() || !old.IsObject() || !old.HasMember("format") || !old["format"].IsString() ||
            std::string(old["format"].GetString()) != kFormat || !old.HasMember("users") || !old["users"].IsArray() ||
            !old.HasMember("nextId") || !old["nextId"].IsInt64())
            throw std::runtime_error(path + " is not a mock panel snapshot (" + kFormat + ")");
        next_id = old["nextId"].GetInt64();
        for (const auto& u : old["users"].GetArray())
            if (u.IsObject() && u.HasMember("uuid") && u["uuid"].IsString()) known.insert(u["uuid"].GetString());
    }
    pqxx::result rows;
    {
        pqxx::nontransaction txn(conn);
        rows = txn.exec_params(kBenchPanelUsers, count);
    }
    rapidjson::StringBuffer buf;
    Writer w(buf);
    w.StartObject();
    put(w, "format", kFormat);
    int64_t added = 0;
    for (const auto& r : rows) added += known.count(r[0].c_str()) ? 0 : 1;
    if (added == 0) return 0;
    w.Key("nextId");
    w.Int64(next_id + added);
    w.Key("users");
    w.StartArray();
    if (old.IsObject())
        for (const auto& u : old["users"].GetArray()) u.Accept(w);
    for (const auto& r : rows)
        if (!known.count(r[0].c_str())) write_panel_user(w, r, next_id++);
    w.EndArray();
    w.EndObject();
    write_file_atomically(path, buf);
    return added;
}

}  // namespace cabinet::ctl
