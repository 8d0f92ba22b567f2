#include "journal.hpp"

#include "json_output.hpp"

namespace mock {

void Journal::record(JournalEntry entry) {
    std::lock_guard lock(mu_);
    entries_.push_back(std::move(entry));
    if (entries_.size() > kCapacity) entries_.pop_front();
}

void Journal::clear() {
    std::lock_guard lock(mu_);
    entries_.clear();
}

void Journal::write(JsonWriter& w) const {
    std::lock_guard lock(mu_);
    w.StartArray();
    for (const auto& e : entries_) {
        w.StartObject();
        put_time(w, "at", e.at_ms);
        put(w, "method", e.method);
        put(w, "path", e.path);
        put(w, "query", e.query);
        put(w, "userAgent", e.user_agent);
        put_int(w, "status", e.status);
        cabinet::write_key(w, "body");
        rapidjson::Document parsed;
        if (e.body.empty()) {
            w.Null();
        } else if (parsed.Parse<cabinet::kStrictParse>(e.body.data(), e.body.size()); !parsed.HasParseError()) {
            parsed.Accept(w);
        } else {
            cabinet::write_string(w, e.body);
        }
        w.EndObject();
    }
    w.EndArray();
}

}  // namespace mock
