#include "state_codec.hpp"

#include "json_input.hpp"
#include "json_output.hpp"
#include "state_file.hpp"
#include "user_codec.hpp"

namespace mock {
namespace {

constexpr std::string_view kFormat = "cabinet-mock-panel/1";

std::string finish(rapidjson::StringBuffer& buf) { return std::string(buf.GetString(), buf.GetSize()) + "\n"; }

}  // namespace

uint64_t write_snapshot_file(const std::string& path, int64_t next_id, const std::vector<UserPtr>& users) {
    constexpr size_t kChunk = 1 << 20;
    StateFileWriter out(path);
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);  // writes only into buf, which may be emptied between values
    const auto flush = [&] {
        out.append(std::string_view(buf.GetString(), buf.GetSize()));
        buf.Clear();
    };
    w.StartObject();
    put(w, "format", kFormat);
    put_int(w, "nextId", next_id);
    cabinet::write_key(w, "users");
    w.StartArray();
    for (const auto& u : users) {
        write_user_record(w, *u);
        if (buf.GetSize() >= kChunk) flush();
    }
    w.EndArray();
    w.EndObject();
    buf.Put('\n');
    flush();
    out.commit();
    return out.bytes();
}

int64_t decode_snapshot(std::string& text, const std::string& path, const std::function<void(User)>& add) {
    const std::string fix = "; repair it or delete it for a clean start";
    rapidjson::Document doc;
    // In place: a million users' strings are not copied a second time.
    doc.ParseInsitu<cabinet::kStrictParse>(text.data());
    if (doc.HasParseError())
        throw StateFileError("state file " + path + " is not valid JSON (at byte " +
                             std::to_string(doc.GetErrorOffset()) + ")" + fix);
    std::string field;
    try {
        const Fields f(doc);
        if (f.opt_string("format") != std::string(kFormat))
            throw ValidationError("format", std::string("expected \"") + std::string(kFormat) + "\"");
        int64_t next_id = f.req_int("nextId");
        const auto* users = f.get("users");
        if (!users || !users->IsArray()) throw ValidationError("users", "expected an array");
        for (rapidjson::SizeType i = 0; i < users->Size(); ++i) {
            field = "users." + std::to_string(i);
            User u = read_user_record((*users)[i], field + ".");
            if (u.id >= next_id) next_id = u.id + 1;
            add(std::move(u));
        }
        return next_id;
    } catch (const ValidationError& e) {
        throw StateFileError("state file " + path + " is damaged: " + e.field() + ": " + e.what() + fix);
    } catch (const std::invalid_argument& e) {  // from the store: a shortUuid, username or id twice
        throw StateFileError("state file " + path + " is damaged: " + field + ": " + e.what() + fix);
    }
}

std::string encode_change(const PanelChange& change) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    put_int(w, "nextId", change.next_id());
    cabinet::write_key(w, "users");
    w.StartArray();
    for (const auto& [uuid, u] : change.touched())
        if (u) write_user_record(w, *u);
    w.EndArray();
    cabinet::write_key(w, "deleted");
    w.StartArray();
    for (const auto& [uuid, u] : change.touched())
        if (!u) cabinet::write_string(w, uuid);
    w.EndArray();
    w.EndObject();
    return finish(buf);
}

DecodedChange decode_change(const std::string& line) {
    rapidjson::Document doc;
    doc.Parse<cabinet::kStrictParse>(line.data(), line.size());
    if (doc.HasParseError() || !doc.IsObject()) throw ValidationError("", "not a JSON object");
    const Fields f(doc);
    DecodedChange out;
    out.next_id = f.req_int("nextId");
    const auto* users = f.get("users");
    if (!users || !users->IsArray()) throw ValidationError("users", "expected an array");
    for (rapidjson::SizeType i = 0; i < users->Size(); ++i)
        out.users.push_back(read_user_record((*users)[i], "users." + std::to_string(i) + "."));
    out.deleted = f.opt_string_array("deleted").value_or(std::vector<std::string>{});
    return out;
}

}  // namespace mock
