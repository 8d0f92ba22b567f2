#include "reply.hpp"

#include "clock.hpp"
#include "json_output.hpp"
#include "util/strings.hpp"

namespace mock {

void reply_panel_error(cabinet::Response& resp, std::string_view path, const PanelError& e) {
    resp.reset();
    resp.status = e.status();
    auto& w = resp.json();
    w.StartObject();
    put_time(w, "timestamp", now_ms());
    put(w, "path", path);
    put(w, "message", e.what());
    put(w, "errorCode", e.code());
    w.EndObject();
}

void reply_validation_error(cabinet::Response& resp, const ValidationError& e) {
    resp.reset();
    resp.status = 400;
    auto& w = resp.json();
    w.StartObject();
    put_int(w, "statusCode", 400);
    put(w, "message", "Validation failed");
    cabinet::write_key(w, "errors");
    w.StartArray();
    w.StartObject();
    put(w, "code", "custom");
    cabinet::write_key(w, "path");
    w.StartArray();
    if (!e.field().empty()) {
        // "dropBy.userUuids.0" -> ["dropBy", "userUuids", 0], as zod reports it.
        for (auto part : cabinet::split(e.field(), '.')) {
            int64_t index = 0;
            if (cabinet::parse_int64(part, index)) w.Int64(index);
            else cabinet::write_string(w, part);
        }
    }
    w.EndArray();
    put(w, "message", e.what());
    w.EndObject();
    w.EndArray();
    w.EndObject();
}

}  // namespace mock
