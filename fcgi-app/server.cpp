#include "server.hpp"

#include <fcgiapp.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "app/dispatch.hpp"
#include "errors.hpp"
#include "http/fcgi_io.hpp"
#include "http/fcgi_threads.hpp"
#include "log/logging.hpp"

namespace cabinet {
namespace {

// The request line: text, or json with the request's fields as keys (log/logging.hpp); the
// route is the table's pattern, so lines group by endpoint. Every request is in nginx's
// access log already (request id, status, times, and the caller from X-Cabinet-User), which
// nginx writes in 64 KB batches; a line here for each one cost the pool 5-7 us of a 40 us
// /me, and under journald's per-service limit (10,000 lines in 30 s) it would crowd out
// the lines that matter. So: failures (5xx) at info, the rest at debug.
void log_request(spdlog::logger& access, bool json, const Exchange& ex, std::string_view route, double ms) {
    const auto level = ex.resp.status >= 500 ? spdlog::level::info : spdlog::level::debug;
    if (!access.should_log(level)) return;
    const int64_t uid = ex.account ? ex.account->user.id : 0;
    if (!json) {
        access.log(level, "{} {} {} {} {:.2f}ms user={}", ex.req.request_id, ex.req.method, ex.req.path, ex.resp.status,
                   ms, uid);
        return;
    }
    access.log(level, access_fields({ex.req.request_id, ex.req.method, route, ex.req.path, ex.resp.status, ms, uid}));
}

// Who made the request, for nginx's access log ($upstream_http_x_cabinet_user);
// fastcgi_cabinet.conf hides the header from the client.
void name_the_caller(const Exchange& ex, Response& resp) {
    if (ex.account) resp.header("X-Cabinet-User", std::to_string(ex.account->user.id));
}

std::string_view route_of(const Exchange& ex) {
    if (ex.route) return ex.route->pattern;
    return ex.preflight ? "(preflight)" : "(unmatched)";
}

void record(const metrics::PoolMetrics& m, const Exchange& ex, uint64_t us) {
    const size_t slot = ex.route ? ex.shared.router.index_of(ex.route) : ex.preflight ? m.preflight() : m.unmatched();
    m.request(slot, ex.resp.status, us);
}

void serve(const Shared& shared, FcgiConnections& conns) {
    ThreadResources io(shared.settings, shared.redis_target, shared.panel_slots, shared.metrics.get());
    const auto access = spdlog::get(kAccessLogger);  // once per thread: the registry locks
    const bool json = shared.settings.log_format == "json";
    const metrics::PoolMetrics* m = shared.metrics.get();
    if (m) m->threads().add();
    FCGX_Request fr;
    FcgiConnections::init(fr);
    while (conns.next(fr)) {
        const auto started = std::chrono::steady_clock::now();
        if (m) m->threads_busy().add();
        Request req;
        Response resp;
        Exchange ex{shared, io, req, resp, std::nullopt};
        try {
            read_request(fr, shared.settings.max_body_bytes, req);
            dispatch(ex);
        } catch (const ApiError& e) {  // request could not even be read
            write_error(resp, e);
        }
        name_the_caller(ex, resp);
        write_response(fr, req, resp);
        // Counted before the answer leaves: a client that saw it and then scrapes sees it.
        const auto took = std::chrono::steady_clock::now() - started;
        if (m) {
            record(*m, ex, static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(took).count()));
            m->threads_busy().sub();
        }
        conns.finish(fr);  // release nginx before logging
        if (access) log_request(*access, json, ex, route_of(ex), std::chrono::duration<double, std::milli>(took).count());
    }
    if (m) m->threads().sub();
    FCGX_Free(&fr, 0);
}

}  // namespace

int run_server(const Shared& shared, const ServerOptions& opts) {
    FcgiOptions counted = opts;
    if (shared.metrics) counted.connections = shared.metrics->connections();
    return run_fcgi_threads(counted, [&shared](FcgiConnections& conns) { serve(shared, conns); });
}

}  // namespace cabinet
