#include "http/fcgi_io.hpp"

#include <spdlog/spdlog.h>

#include <string>

#include "errors.hpp"
#include "http/body_limits.hpp"
#include "util/strings.hpp"

// Exported by libfcgi 2.4 (Debian's libfcgi0ldbl) but missing from its header: marks the
// connection so that FCGX_Free closes it without shutdown() and the wait below.
extern "C" int FCGX_Detach(FCGX_Request* request);

namespace cabinet {
namespace {

void copy_param(FCGX_Request& r, const char* name, std::string& out) {
    const char* v = FCGX_GetParam(name, r.envp);
    out.assign(v ? v : "");
}

}  // namespace

const char* status_reason(int status) {
    switch (status) {
        case 200: return "OK";
        case 201: return "Created";
        case 204: return "No Content";
        case 400: return "Bad Request";
        case 401: return "Unauthorized";
        case 402: return "Payment Required";
        case 403: return "Forbidden";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 409: return "Conflict";
        case 413: return "Payload Too Large";
        case 429: return "Too Many Requests";
        case 500: return "Internal Server Error";
        case 502: return "Bad Gateway";
        case 503: return "Service Unavailable";
        default: return "Status";
    }
}

// The one place the pool reads FastCGI parameters: nginx passes these and no others besides
// the request headers (nginx/fastcgi_cabinet.conf), so a new one is added there too.
void read_request(FCGX_Request& r, int64_t max_body, Request& req) {
    copy_param(r, "REQUEST_METHOD", req.method);
    std::string uri;
    copy_param(r, "REQUEST_URI", uri);
    const auto q = uri.find('?');
    req.path = uri.substr(0, q);
    req.query = q == std::string::npos ? std::string() : uri.substr(q + 1);
    copy_param(r, "REQUEST_ID", req.request_id);  // nginx's $request_id
    if (req.request_id.empty() || req.request_id.size() > 64) req.request_id = random_hex(16);
    copy_param(r, "REMOTE_ADDR", req.remote_addr);
    copy_param(r, "HTTP_AUTHORIZATION", req.authorization);
    copy_param(r, "HTTP_ORIGIN", req.origin);
    copy_param(r, "HTTP_USER_AGENT", req.user_agent);
    copy_param(r, "HTTP_COOKIE", req.cookie);
    copy_param(r, "CONTENT_TYPE", req.content_type);
    copy_param(r, "HTTP_IDEMPOTENCY_KEY", req.idempotency_key);
    copy_param(r, "HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN", req.telegram_secret_token);
    copy_param(r, "HTTP_CRYPTO_PAY_API_SIGNATURE", req.crypto_pay_signature);
    copy_param(r, "HTTP_ACCESS_CONTROL_REQUEST_METHOD", req.cors_request_method);
    copy_param(r, "HTTP_ACCESS_CONTROL_REQUEST_HEADERS", req.cors_request_headers);

    // nginx sends CONTENT_LENGTH as "" on GET.
    const char* cl = FCGX_GetParam("CONTENT_LENGTH", r.envp);
    int64_t length = 0;
    if (cl && *cl && (!parse_int64(cl, length) || length < 0)) throw bad_request("invalid Content-Length");
    if (length > body_limit(req.method, req.path, max_body)) throw ApiError(413, "request body too large");
    req.body.resize(static_cast<size_t>(length));
    size_t got = 0;
    while (got < req.body.size()) {
        const int n = FCGX_GetStr(req.body.data() + got, static_cast<int>(req.body.size() - got), r.in);
        if (n <= 0) break;
        got += static_cast<size_t>(n);
    }
    if (got != req.body.size()) throw bad_request("request body ended early");
}

void write_response(FCGX_Request& r, const Request& req, const Response& resp) {
    std::string head;
    head.reserve(256);
    head += "Status: ";
    head += std::to_string(resp.status);
    head += ' ';
    head += status_reason(resp.status);
    head += "\r\n";
    if (!resp.content_type.empty() && resp.status != 204) {
        head += "Content-Type: ";
        head += resp.content_type;
        if (resp.content_type == "application/json") head += "; charset=utf-8";
        head += "\r\n";
    }
    head += "X-Request-Id: ";
    head += req.request_id;
    head += "\r\nCache-Control: no-store\r\n";
    for (const auto& [name, value] : resp.headers) {
        head += name;
        head += ": ";
        head += value;
        head += "\r\n";
    }
    head += "\r\n";
    FCGX_PutStr(head.data(), static_cast<int>(head.size()), r.out);
    if (resp.status == 204 || req.method == "HEAD") return;
    if (!resp.stream) {
        FCGX_PutStr(resp.body.GetString(), static_cast<int>(resp.body.GetSize()), r.out);
        return;
    }
    try {
        resp.stream([&r](std::string_view piece) { FCGX_PutStr(piece.data(), static_cast<int>(piece.size()), r.out); });
    } catch (const std::exception& e) {
        spdlog::error("request {}: the streamed answer was cut short: {}", req.request_id, e.what());
    }
}

// libfcgi closes a connection the lingering way: shutdown(), then poll() and read() until
// the peer closes its end, so that a TCP stack never answers unread input with a reset that
// could cost the peer the answer. For us that wait is a sleep and a wake-up on every
// request (a sixth of the pool's CPU in a /me profile before this change). Nothing is left
// unread once the request is read to its end: nginx sends all of it before it reads an
// answer (fastcgi_request_buffering on), so the rest (the empty record that ends the body;
// a body the pool refused unread) is in the socket already and this loop does not wait.
// Then the close can be plain.
void finish_request(FCGX_Request& r) {
    char rest[4096];
    if (r.in)
        while (FCGX_GetStr(rest, sizeof rest, r.in) > 0) {
        }
    FCGX_Detach(&r);
    FCGX_Finish_r(&r);
}

}  // namespace cabinet
