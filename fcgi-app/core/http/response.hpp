#pragma once
// The response under construction. JSON goes straight into `body` through `json()`;
// nothing is built as a DOM first.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/json.hpp"

namespace cabinet {

struct Response {
    int status = 200;
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers;
    rapidjson::StringBuffer body;
    // A body too large to hold (a CSV export of a million rows): instead of `body`, after
    // the head, `stream` is called with a sink that sends each piece on at once. It runs
    // after dispatch, with the status already on the wire, so a failure inside it can only
    // cut the body short (http/fcgi_io.cpp logs it); read what may fail before setting it.
    using Sink = std::function<void(std::string_view)>;
    std::function<void(const Sink&)> stream;

    JsonWriter& json() {
        if (!writer_) writer_.emplace(body);
        return *writer_;
    }
    void text(std::string_view content_type_value, std::string_view text) {
        content_type = std::string(content_type_value);
        body.Clear();
        for (char c : text) body.Put(c);
    }
    void header(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
    // Forget anything a failing handler may have written.
    void reset() {
        status = 200;
        content_type = "application/json";
        headers.clear();
        body.Clear();
        stream = nullptr;
        writer_.reset();
    }

private:
    std::optional<JsonWriter> writer_;
};

const char* status_reason(int status);

}  // namespace cabinet
