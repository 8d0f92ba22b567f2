#include "app/dispatch.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/authenticate.hpp"
#include "errors.hpp"
#include "util/json_object.hpp"

namespace cabinet {
namespace {

}  // namespace

// {"detail", "code"}: the reason for people (English, as the original's clients know it)
// and its stable name (errors.hpp), the status's when the error names none.
void write_error(Response& resp, int status, std::string_view detail, std::string_view code) {
    resp.reset();
    resp.status = status;
    JsonObject(resp.json()).put("detail", detail).put("code", code.empty() ? std::string_view(status_code_name(status)) : code);
}

void write_error(Response& resp, const ApiError& e) {
    write_error(resp, e.status(), e.detail(), e.code());
    for (const auto& h : e.headers) resp.header(h.first, h.second);
}

namespace {

bool origin_allowed(const Settings& s, const std::string& origin) { return cors_grant(s, origin) != CorsGrant::none; }

// Preflight: answered without authentication (browsers send no credentials on OPTIONS).
bool handle_preflight(Exchange& ex) {
    if (ex.req.method != "OPTIONS") return false;
    const std::string methods = ex.shared.router.methods_for(ex.req.path);
    if (methods.empty()) throw not_found("not found");
    ex.resp.status = 204;
    ex.resp.content_type.clear();
    if (origin_allowed(ex.settings(), ex.req.origin)) {
        ex.resp.header("Access-Control-Allow-Methods", methods + ", OPTIONS");
        ex.resp.header("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key");
        ex.resp.header("Access-Control-Max-Age", "600");
    }
    return true;
}

// statement_timeout or lock_timeout, lock not available, deadlock, serialization failure.
bool busy_state(const std::string& sqlstate) {
    return sqlstate == "57014" || sqlstate == "55P03" || sqlstate == "40P01" || sqlstate == "40001";
}

// A write refused because the server is read-only (25006): the connection reached a standby,
// e.g. a demoted primary that a proxy still routed to during a failover. Reconnecting is
// the way to the new primary; keeping the connection would fail every write of the thread.
bool read_only_state(const std::string& sqlstate) { return sqlstate == "25006"; }

// A request that may have written (a commit was attempted) makes the account copies it may
// have changed unusable in every pool process of the host before its answer leaves, so a
// client never reads back less than it was told (cache/account_cache.hpp):
// - a cabinet caller's own account;
// - all of them after other admin, sign-in, bot or linking requests: those change other
//   users' rows, or move a login from one account to another (e-mail verification, OAuth,
//   a bot code, Route::merges_accounts), and few of them write;
// - nothing for routes whose writes no account read shows (Route::leaves_accounts: token
//   refresh, login, payment webhooks), which are frequent.
void forget_written_accounts(Exchange& ex, const Route* route) {
    if (ex.io.db.commits() == ex.commits_before || !route || route->leaves_accounts) return;
    if (route->auth == AuthKind::none || is_staff_kind(route->auth) || route->merges_accounts)
        ex.shared.accounts.wrote_all();
    else if (ex.account) ex.shared.accounts.wrote(ex.account->user.id);
    else ex.shared.accounts.wrote_all();  // failed authentication that wrote: be safe
}

}  // namespace

CorsGrant cors_grant(const Settings& s, const std::string& origin) {
    if (origin.empty()) return CorsGrant::none;
    const auto& list = s.cors_origins;
    if (std::find(list.begin(), list.end(), origin) != list.end()) return CorsGrant::named;
    return std::find(list.begin(), list.end(), "*") != list.end() ? CorsGrant::any : CorsGrant::none;
}

void apply_cors(const Settings& s, const Request& req, Response& resp) {
    const CorsGrant grant = cors_grant(s, req.origin);
    if (grant == CorsGrant::none) return;
    if (grant == CorsGrant::named) {
        resp.header("Access-Control-Allow-Origin", req.origin);
        resp.header("Access-Control-Allow-Credentials", "true");
    } else {
        // Any site: never with credentials (the browser binding's cookie stays out of a
        // stranger's page's requests; the API's own credential is the Authorization header).
        resp.header("Access-Control-Allow-Origin", "*");
    }
    resp.header("Access-Control-Expose-Headers", "X-Request-Id, Retry-After");
    resp.header("Vary", "Origin");
}

void dispatch(Exchange& ex) {
    const Route* route = nullptr;
    ex.commits_before = ex.io.db.commits();
    try {
        if (handle_preflight(ex)) ex.preflight = true;
        else {
            RouteMatch m = ex.shared.router.match(ex.req.method, ex.req.path);
            route = ex.route = m.route;
            ex.req.path_params = std::move(m.params);
            if (m.route->auth != AuthKind::none) authenticate(ex, m.route->auth);
            m.route->handler(ex);
        }
    } catch (const ApiError& e) {
        if (e.status() >= 500) spdlog::warn("{} {} {}: {}", ex.req.request_id, ex.req.method, ex.req.path, e.detail());
        write_error(ex.resp, e);
    } catch (const pqxx::broken_connection& e) {
        ex.io.db.reset();
        spdlog::error("{} database connection lost: {}", ex.req.request_id, e.what());
        write_error(ex.resp, 503, "database unavailable", "database_unavailable");
    } catch (const pqxx::in_doubt_error& e) {
        // The connection broke during COMMIT (a primary crashing, a failover): whether it was
        // written is unknown, and no error of ours. The client repeats with its
        // Idempotency-Key, which finds the write if it was made (409) or makes it now.
        ex.io.db.reset();
        spdlog::error("{} {} {}: commit outcome unknown: {}", ex.req.request_id, ex.req.method, ex.req.path, e.what());
        write_error(ex.resp, retry_later(503, "database connection lost while saving; repeat the request", 1));
    } catch (const std::exception& e) {
        const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e);
        const std::string state = sql ? sql->sqlstate() : "";
        // A write that waited too long for a user's lock (statement_timeout), or lost a
        // deadlock, was rolled back whole: the client may simply try again. So may one that
        // met a read-only server, once this thread's connection is dropped.
        if (busy_state(state) || read_only_state(state)) {
            if (read_only_state(state)) {
                ex.io.db.reset();
                spdlog::error("{} {} {}: the database is read-only, reconnecting: {}", ex.req.request_id,
                              ex.req.method, ex.req.path, e.what());
            } else {
                spdlog::warn("{} {} {}: rolled back, database busy: {}", ex.req.request_id, ex.req.method,
                             ex.req.path, e.what());
            }
            write_error(ex.resp, retry_later(503, busy_state(state) ? "busy with another request of this account; try again"
                                                                    : "database unavailable",
                                             1));
            forget_written_accounts(ex, route);
            apply_cors(ex.settings(), ex.req, ex.resp);
            return;
        }
        spdlog::error("{} {} {} failed: {}", ex.req.request_id, ex.req.method, ex.req.path, e.what());
        ex.resp.reset();
        ex.resp.status = 500;
        JsonObject(ex.resp.json()).put("ok", false).put("detail", "internal error").put("error_id", ex.req.request_id);
    }
    forget_written_accounts(ex, route);
    apply_cors(ex.settings(), ex.req, ex.resp);
}

}  // namespace cabinet
