#include "app.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

#include "clock.hpp"
#include "handlers.hpp"
#include "reply.hpp"
#include "state_file.hpp"
#include "util/strings.hpp"

namespace mock {

App::App(Settings settings)
    : settings_(std::move(settings)),
      state_(settings_.state_path),
      metrics_(now_ms()),
      services_{settings_, state_, metrics_, journal_, faults_, now_ms()},
      router_(routes()) {}

void App::handle(const cabinet::Request& req, const std::string& user_agent, cabinet::Response& resp) {
    // The hooks themselves are never faulted or journalled: a test must always be able to
    // read the journal and switch faults off.
    const bool hook = cabinet::starts_with(req.path, "/__mock/");
    const auto fault = hook ? std::nullopt : faults_.take(req.method, req.path);
    if (fault && fault->mode == FaultMode::delay) std::this_thread::sleep_for(std::chrono::milliseconds(fault->delay_ms));

    if (fault && fault->mode == FaultMode::status500) {
        reply_panel_error(resp, req.path, server_error());
    } else if (fault && fault->mode == FaultMode::garbage) {
        resp.status = 200;
        resp.text("application/json", "{\"response\": <html>mock panel: injected garbage");
    } else {
        dispatch(req, resp);
    }

    if (!hook) journal_.record({now_ms(), req.method, req.path, req.query, user_agent, req.body, resp.status});
}

void App::dispatch(const cabinet::Request& req, cabinet::Response& resp) {
    const std::string url = req.query.empty() ? req.path : req.path + "?" + req.query;
    Call call{req, resp, {}};
    const Route* route = router_.match(req.method, req.path, call.params);
    if (!route) {
        // What NestJS says for a path it has no handler for.
        reply_panel_error(resp, url, PanelError(404, "E000", "Cannot " + req.method + " " + req.path));
        return;
    }
    try {
        route->handler(services_, call);
    } catch (const PanelError& e) {
        reply_panel_error(resp, url, e);
    } catch (const ValidationError& e) {
        reply_validation_error(resp, e);
    } catch (const StateFileError& e) {
        spdlog::error("{} {}: state not saved: {}", req.method, req.path, e.what());
        reply_panel_error(resp, url, server_error());
    } catch (const std::exception& e) {
        spdlog::error("{} {}: {}", req.method, req.path, e.what());
        reply_panel_error(resp, url, server_error());
    }
}

}  // namespace mock
