#include "server.hpp"

#include <fcgiapp.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "errors.hpp"
#include "http/dispatch.hpp"
#include "http/fcgi_io.hpp"
#include "http/fcgi_threads.hpp"

namespace cabinet {
namespace {

void log_request(const Request& req, const Response& resp, const Exchange& ex, double ms) {
    const int64_t uid = ex.account ? ex.account->user.id : 0;
    spdlog::info("{} {} {} {} {:.2f}ms user={}", req.request_id, req.method, req.path, resp.status, ms, uid);
}

void serve(const Shared& shared, int listen_fd) {
    ThreadResources io(shared.settings, shared.redis_target, shared.panel_slots);
    FCGX_Request fr;
    FCGX_InitRequest(&fr, listen_fd, 0);
    while (FCGX_Accept_r(&fr) >= 0) {
        const auto started = std::chrono::steady_clock::now();
        Request req;
        Response resp;
        Exchange ex{shared, io, req, resp, std::nullopt};
        try {
            read_request(fr, shared.settings.max_body_bytes, req);
            dispatch(ex);
        } catch (const ApiError& e) {  // request could not even be read
            resp.reset();
            resp.status = e.status();
            auto& w = resp.json();
            w.StartObject();
            w.Key("detail");
            w.String(e.detail());
            w.EndObject();
        }
        write_response(fr, req, resp);
        FCGX_Finish_r(&fr);  // release nginx before logging
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        log_request(req, resp, ex, ms);
    }
    FCGX_Free(&fr, 0);
}

}  // namespace

int run_server(const Shared& shared, const ServerOptions& opts) {
    return run_fcgi_threads(opts, [&shared](int listen_fd) { serve(shared, listen_fd); });
}

}  // namespace cabinet
