// Test hooks under /__mock/: the request journal and fault injection (docs/mock-panel.md).
#include "handlers.hpp"
#include "json_output.hpp"
#include "json_input.hpp"
#include "reply.hpp"
#include "util/strings.hpp"

namespace mock {

void get_journal(Services& s, Call& c) {
    reply(c.resp, [&](JsonWriter& w) { s.journal.write(w); });
}

void clear_journal(Services& s, Call& c) {
    s.journal.clear();
    reply(c.resp, [](JsonWriter& w) {
        w.StartObject();
        put_bool(w, "cleared", true);
        w.EndObject();
    });
}

// {"mode": "status500"|"garbage"|"delay", "delay_ms": N, "times": K, "method": M, "path": P}:
// the next K API requests (not /__mock/ ones) with HTTP method M and a path starting with P
// (any, when left out) fail that way. times defaults to 1.
void arm_fault(Services& s, Call& c) {
    const auto body = json_body(c);
    const Fields f(body);
    const std::string mode_name = f.req_string("mode");
    const auto mode = fault_mode_from(mode_name);
    if (!mode) throw ValidationError("mode", "Expected 'status500' | 'garbage' | 'delay'");
    const int64_t delay_ms = f.opt_int("delay_ms").value_or(0);
    if (delay_ms < 0 || delay_ms > 120000) throw ValidationError("delay_ms", "Expected 0..120000");
    if (*mode == FaultMode::delay && delay_ms == 0) throw ValidationError("delay_ms", "Required for mode delay");
    const int64_t times = f.opt_int("times").value_or(1);
    if (times < 1 || times > 100000) throw ValidationError("times", "Expected 1..100000");
    const std::string method = f.opt_string("method").value_or("");
    if (!method.empty() && method != "GET" && method != "POST" && method != "PATCH" && method != "DELETE")
        throw ValidationError("method", "Expected 'GET' | 'POST' | 'PATCH' | 'DELETE'");
    const std::string path = f.opt_string("path").value_or("");
    if (!path.empty() && !cabinet::starts_with(path, "/api/")) throw ValidationError("path", "Expected a path under /api/");
    s.faults.arm({*mode, static_cast<int>(delay_ms), method, path}, static_cast<int>(times));
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        put(w, "mode", fault_mode_name(*mode));
        put_int(w, "delay_ms", delay_ms);
        put_int(w, "times", times);
        if (!method.empty()) put(w, "method", method);
        if (!path.empty()) put(w, "path", path);
        w.EndObject();
    });
}

void reset_faults(Services& s, Call& c) {
    s.faults.reset();
    reply(c.resp, [](JsonWriter& w) {
        w.StartObject();
        put_bool(w, "reset", true);
        w.EndObject();
    });
}

}  // namespace mock
