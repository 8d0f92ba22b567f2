#pragma once
// The two error shapes of the real panel (backend src/common/exception/*.filter.ts):
//  - a known failure: HTTP status + {"timestamp", "path", "message", "errorCode"} with the
//    code from the contract's ERRORS table (A025 "User not found", ...);
//  - a body or parameter that fails the zod schema (nestjs-zod):
//    400 {"statusCode": 400, "message": "Validation failed", "errors": [{path, message}]}.
#include <stdexcept>
#include <string>
#include <vector>

namespace mock {

class PanelError : public std::runtime_error {
public:
    PanelError(int status, std::string code, const std::string& message)
        : std::runtime_error(message), status_(status), code_(std::move(code)) {}
    int status() const noexcept { return status_; }
    const std::string& code() const noexcept { return code_; }

private:
    int status_;
    std::string code_;
};

class ValidationError : public std::runtime_error {
public:
    // `field` is the dotted path of the offending value ("expireAt", "dropBy.userUuids.0");
    // empty for the body as a whole.
    ValidationError(std::string field, const std::string& message)
        : std::runtime_error(message), field_(std::move(field)) {}
    const std::string& field() const noexcept { return field_; }

private:
    std::string field_;
};

// Entries of the contract's ERRORS table that the mock can answer with.
inline PanelError user_not_found() { return {404, "A025", "User not found"}; }
inline PanelError users_not_found() { return {404, "A062", "Users not found"}; }
inline PanelError no_user_with_params() { return {404, "A063", "User with specified params not found"}; }
inline PanelError username_taken() { return {400, "A019", "User username already exists"}; }
inline PanelError short_uuid_taken() { return {400, "A020", "User short UUID already exists"}; }
inline PanelError already_disabled() { return {400, "A029", "User already disabled"}; }
inline PanelError already_enabled() { return {400, "A030", "User already enabled"}; }
inline PanelError node_not_found() { return {404, "A011", "Node not found"}; }
inline PanelError device_not_found() { return {404, "A204", "HWID device not found"}; }
inline PanelError job_not_found() { return {404, "A218", "Job result fetch failed or job not found"}; }
inline PanelError server_error() { return {500, "A001", "Server error"}; }
// The real panel answers 500 here (a foreign-key failure); the mock says 400 so a client
// does not mistake a wrong squad id for an outage. See docs/mock-panel.md.
inline PanelError squad_not_found() { return {400, "A123", "Create user with internal squad error"}; }

}  // namespace mock
