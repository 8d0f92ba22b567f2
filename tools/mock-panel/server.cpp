#include "server.hpp"

#include <fcgiapp.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <stdexcept>

#include "errors.hpp"
#include "http/fcgi_io.hpp"
#include "http/fcgi_threads.hpp"
#include "util/strings.hpp"

namespace mock {
namespace {

constexpr int64_t kMaxBody = 1 << 20;  // the panel's bodies are small; this only stops abuse


void serve(App& app, cabinet::FcgiConnections& conns) {
    FCGX_Request fr;
    cabinet::FcgiConnections::init(fr);
    while (conns.next(fr)) {
        const auto started = std::chrono::steady_clock::now();
        cabinet::Request req;
        cabinet::Response resp;
        try {
            cabinet::read_request(fr, kMaxBody, req);
            const char* ua = FCGX_GetParam("HTTP_USER_AGENT", fr.envp);
            app.handle(req, ua ? ua : "", resp);
        } catch (const cabinet::ApiError& e) {  // the request could not even be read
            resp.reset();
            resp.status = e.status();
            auto& w = resp.json();
            w.StartObject();
            w.Key("message");
            w.String(e.detail());
            w.Key("statusCode");
            w.Int(e.status());
            w.EndObject();
        }
        cabinet::write_response(fr, req, resp);
        conns.finish(fr);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        spdlog::info("{} {} {} {:.2f}ms", req.method, req.path, resp.status, ms);
    }
    FCGX_Free(&fr, 0);
}

}  // namespace

int run_server(App& app, const ServerOptions& opts) {
    return cabinet::run_fcgi_threads(opts, [&app](cabinet::FcgiConnections& conns) { serve(app, conns); });
}

}  // namespace mock
