#pragma once
// How answers are written: every success is {"response": ...}; failures use the real
// panel's two error shapes (panel_errors.hpp).
#include <string_view>

#include "http/response.hpp"
#include "panel_errors.hpp"

namespace mock {

template <class WriteBody>
void reply(cabinet::Response& resp, WriteBody&& write_body, int status = 200) {
    resp.status = status;
    auto& w = resp.json();
    w.StartObject();
    w.Key("response");
    write_body(w);
    w.EndObject();
}

void reply_panel_error(cabinet::Response& resp, std::string_view path, const PanelError& e);
void reply_validation_error(cabinet::Response& resp, const ValidationError& e);

}  // namespace mock
