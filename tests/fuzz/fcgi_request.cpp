// The pool's request intake: FastCGI params and body (http/fcgi_io read_request), the route
// table (http/router) and the query string and cookie readers (http/query). The input is
// NAME=value param lines, an empty line, then the body on the FastCGI stdin stream.
// Oracles: only ApiError 400/404/405/413 come out; the body read is the announced length;
// and a path resolves to the same route as its percent-decoded spelling (no aliasing).
#include <fcgiapp.h>

#include <string>
#include <vector>

#include "errors.hpp"
#include "fuzz_input.hpp"
#include "http/fcgi_io.hpp"
#include "http/query.hpp"
#include "http/router.hpp"
#include "util/strings.hpp"

namespace {

void no_handler(cabinet::Exchange&) {}

// The shapes of api/routes.cpp: static paths, one path under several methods, placeholders,
// and a static path beside a placeholder at the same depth (maintenance/mode vs {action}).
const cabinet::Router& router() {
    using cabinet::AuthKind;
    static const cabinet::Router r({
        {"GET", "/health", AuthKind::none, no_handler},
        {"GET", "/api/cabinet/me", AuthKind::tma_or_jwt, no_handler},
        {"GET", "/api/cabinet/support", AuthKind::tma_or_jwt, no_handler},
        {"POST", "/api/cabinet/support", AuthKind::tma_or_jwt, no_handler},
        {"DELETE", "/api/cabinet/devices/{hwid}", AuthKind::tma_or_jwt, no_handler},
        {"GET", "/api/cabinet/auth/oauth/{provider}/authorize", AuthKind::none, no_handler},
        {"POST", "/api/v1/payments/{gateway}", AuthKind::none, no_handler},
        {"POST", "/api/admin/maintenance/mode", AuthKind::owner, no_handler},
        {"POST", "/api/admin/maintenance/{action}", AuthKind::owner, no_handler},
    });
    return r;
}

// FastCGI stdin from memory: libfcgi asks for more when the buffer is used up; there is none.
void end_of_input(FCGX_Stream* s) { s->isClosed = 1; }

// What the route of `path` is: the route, or the status that refused it.
const void* route_of(std::string_view method, std::string_view path) {
    try {
        return router().match(method, path).route;
    } catch (const cabinet::ApiError& e) {
        return reinterpret_cast<const void*>(static_cast<intptr_t>(e.status()));
    }
}

void check_no_aliasing(const cabinet::Request& req) {
    if (req.path.empty() || req.path.front() != '/') return;
    std::string plain;
    for (auto seg : cabinet::split(std::string_view(req.path).substr(1), '/')) {
        const auto decoded = cabinet::percent_decode(seg);
        if (!decoded || decoded->find_first_of("%/.?") != std::string::npos || decoded->find('\0') != std::string::npos)
            return;  // no plain spelling to compare with
        plain += "/" + *decoded;
    }
    if (route_of(req.method, req.path) != route_of(req.method, plain))
        fuzz::fail("a percent-encoded path resolves differently from its plain spelling");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view rest = fuzz::as_text(data, size);
    std::vector<std::string> params;
    for (std::string_view line = fuzz::take(rest); !line.empty(); line = fuzz::take(rest)) params.emplace_back(line);
    std::vector<char*> envp;
    for (auto& p : params) envp.push_back(p.data());
    envp.push_back(nullptr);
    std::string body(rest);

    FCGX_Stream in{};
    in.rdNext = in.stopUnget = reinterpret_cast<unsigned char*>(body.data());
    in.stop = in.wrNext = in.rdNext + body.size();
    in.isReader = 1;
    in.fillBuffProc = end_of_input;
    FCGX_Request r{};
    r.in = &in;
    r.envp = envp.data();

    cabinet::Request req;
    try {
        cabinet::read_request(r, 1 << 16, req);
        if (req.body.size() > (1 << 16) || req.body.size() > body.size()) fuzz::fail("body longer than sent or allowed");
        if (req.request_id.empty() || req.request_id.size() > 64) fuzz::fail("request id missing or too long");
        router().methods_for(req.path);
        check_no_aliasing(req);
        const auto m = router().match(req.method, req.path);
        if (!m.route) fuzz::fail("match returned no route without throwing");
        for (const auto& p : m.params)
            if (p.empty() || p.find('/') != std::string::npos) fuzz::fail("a placeholder value is empty or holds '/'");
        cabinet::query_param(req.query, "code");
        cabinet::query_param(req.query, "state");
        cabinet::cookie_value(req.cookie, "__Host-cabinet_oauth");
    } catch (const cabinet::ApiError& e) {
        const int s = e.status();
        if (s != 400 && s != 404 && s != 405 && s != 413) fuzz::fail("request refused with an unexpected status");
    }
    return 0;
}
