#include "panel_state.hpp"

#include "json_input.hpp"
#include "json_output.hpp"
#include "state_file.hpp"
#include "user_codec.hpp"

namespace mock {
namespace {

constexpr std::string_view kFormat = "cabinet-mock-panel/1";
constexpr size_t kMaxJobs = 1000;

std::string encode(const PanelData& data) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    put(w, "format", kFormat);
    put_int(w, "nextId", data.next_id);
    cabinet::write_key(w, "users");
    w.StartArray();
    for (const auto& u : data.users) write_user_record(w, u);
    w.EndArray();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

PanelData decode(const std::string& text, const std::string& path) {
    const std::string fix = "; repair it or delete it for a clean start";
    rapidjson::Document doc;
    doc.Parse<cabinet::kStrictParse>(text.data(), text.size());
    if (doc.HasParseError())
        throw StateFileError("state file " + path + " is not valid JSON (at byte " +
                             std::to_string(doc.GetErrorOffset()) + ")" + fix);
    try {
        const Fields f(doc);
        if (f.opt_string("format") != std::string(kFormat))
            throw ValidationError("format", std::string("expected \"") + std::string(kFormat) + "\"");
        PanelData data;
        data.next_id = f.req_int("nextId");
        const auto* users = f.get("users");
        if (!users || !users->IsArray()) throw ValidationError("users", "expected an array");
        for (rapidjson::SizeType i = 0; i < users->Size(); ++i) {
            User u = read_user_record((*users)[i], "users." + std::to_string(i) + ".");
            if (u.id >= data.next_id) data.next_id = u.id + 1;
            data.users.push_back(std::move(u));
        }
        return data;
    } catch (const ValidationError& e) {
        throw StateFileError("state file " + path + " is damaged: " + e.field() + ": " + e.what() + fix);
    }
}

}  // namespace

User* PanelData::find(std::string_view uuid) {
    for (auto& u : users)
        if (u.uuid == uuid) return &u;
    return nullptr;
}

const User* PanelData::find(std::string_view uuid) const { return const_cast<PanelData*>(this)->find(uuid); }

const User* PanelData::find_by_short_uuid(std::string_view short_uuid) const {
    for (const auto& u : users)
        if (u.short_uuid == short_uuid) return &u;
    return nullptr;
}

User* PanelData::find_by_username(std::string_view username) {
    for (auto& u : users)
        if (u.username == username) return &u;
    return nullptr;
}

const User* PanelData::find_by_username(std::string_view username) const {
    return const_cast<PanelData*>(this)->find_by_username(username);
}

PanelState::PanelState(std::string path) : path_(std::move(path)) {
    if (auto text = read_state_file(path_)) {
        data_ = decode(*text, path_);
        return;
    }
    try {
        save(data_);
    } catch (const StateFileError& e) {
        throw StateFileError(std::string("cannot create the state file (MOCK_PANEL_STATE): ") + e.what());
    }
}

void PanelState::save(const PanelData& data) const { write_state_file(path_, encode(data)); }

std::string PanelState::add_job(Job job) {
    std::lock_guard lock(mu_);
    std::string id = std::to_string(next_job_++);
    jobs_.emplace(id, std::move(job));
    job_order_.push_back(id);
    if (job_order_.size() > kMaxJobs) {
        jobs_.erase(job_order_.front());
        job_order_.pop_front();
    }
    return id;
}

std::optional<Job> PanelState::find_job(const std::string& id) const {
    std::lock_guard lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return std::nullopt;
    return it->second;
}

}  // namespace mock
