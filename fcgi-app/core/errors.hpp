#pragma once
// The one error hierarchy of the service. Anything thrown below a handler that a client
// should see is an ApiError; the FastCGI loop turns it into {"detail": ..., "code": ...}
// with its status in exactly one place (app/dispatch.cpp). Anything else becomes a 500.
//
// `detail` is English, for people and logs, and stays as the original's clients know it.
// `code` is the stable name of the reason, for programs and for the pages, which say it in
// the customer's language (shared/i18n: "code.<code>"). A throw that names none gets its
// status's (status_code_name), so every error body carries one.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cabinet {

class ApiError : public std::runtime_error {
public:
    ApiError(int status, std::string detail, std::string code = {})
        : std::runtime_error(detail), status_(status), code_(std::move(code)) {}
    int status() const noexcept { return status_; }
    const char* detail() const noexcept { return what(); }
    // The reason's stable name ("insufficient_balance"); empty: the status's.
    const std::string& code() const noexcept { return code_; }
    // Extra response headers such as Allow or Retry-After.
    std::vector<std::pair<std::string, std::string>> headers;

private:
    int status_;
    std::string code_;
};

// The code of an error that names none: "invalid_request" (400), "unauthorized", "forbidden",
// "not_found", "conflict", "too_many_requests", "upstream_unavailable" (502), ...
const char* status_code_name(int status) noexcept;

inline ApiError bad_request(std::string d, std::string code = {}) { return {400, std::move(d), std::move(code)}; }
inline ApiError unauthorized(std::string d, std::string code = {}) { return {401, std::move(d), std::move(code)}; }
inline ApiError forbidden(std::string d, std::string code = {}) { return {403, std::move(d), std::move(code)}; }
inline ApiError not_found(std::string d, std::string code = {}) { return {404, std::move(d), std::move(code)}; }
inline ApiError conflict(std::string d, std::string code = {}) { return {409, std::move(d), std::move(code)}; }
// An outage of a dependency we cannot do without (PostgreSQL): 503, logged by the caller.
inline ApiError unavailable(std::string d) { return {503, std::move(d)}; }
// The upstream panel or a payment provider failed: 502 per SPEC.
inline ApiError bad_gateway(std::string d) { return {502, std::move(d)}; }
// This process already has as many requests on an upstream as it allows (net/call_slots.hpp):
// 503 with this detail and Retry-After, so a client or a provider tries again in a second.
inline constexpr int kBusyStatus = 503;
inline constexpr const char* kBusyDetail = "busy, try again";
inline void add_retry_after(ApiError& e, int64_t seconds = 1) {
    e.headers.emplace_back("Retry-After", std::to_string(seconds < 1 ? 1 : seconds));
}
// An error to repeat after `seconds` (at least 1): a 429 of a limit, a 503 of a busy part.
inline ApiError retry_later(int status, std::string d, int64_t seconds, std::string code = {}) {
    ApiError e(status, std::move(d), std::move(code));
    add_retry_after(e, seconds);
    return e;
}

// A dependency asked us to wait before calling it again (Telegram's 429 with retry_after):
// an error that is also one of these says how long. A job failing with it waits at least
// that long before its next attempt (jobs/job_runner.cpp), instead of spending attempts
// on calls that are refused anyway. Mixed into the error classes that can carry it.
class RetryAfterHint {
public:
    explicit RetryAfterHint(int64_t seconds = 0) : retry_after_s_(seconds) {}
    virtual ~RetryAfterHint() = default;
    int64_t retry_after_s() const noexcept { return retry_after_s_; }

private:
    int64_t retry_after_s_;
};

// A setting is missing or invalid: stops the process at start with the variable's name.
class ConfigError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace cabinet
