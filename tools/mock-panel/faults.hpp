#pragma once
// Fault injection for tests of the panel client: the next K API requests fail in a chosen
// way. Armed and cleared through /__mock/fault and /__mock/reset-faults.
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mock {

enum class FaultMode {
    status500,  // 500 with the panel's error body
    garbage,    // 200 whose body is not JSON
    delay,      // a normal answer, delay_ms late
};

struct Fault {
    FaultMode mode = FaultMode::status500;
    int delay_ms = 0;
    std::string method;  // only requests with this HTTP method (empty: any) take the fault
    std::string path;    // only requests whose path starts with this (empty: any)
};

std::optional<FaultMode> fault_mode_from(std::string_view name);
std::string_view fault_mode_name(FaultMode mode);

class Faults {
public:
    void arm(Fault fault, int times);
    void reset();
    // The fault for a request with this method and path, if one is armed for it; counts it down.
    std::optional<Fault> take(std::string_view method, std::string_view path);

private:
    std::mutex mu_;
    Fault fault_;
    int remaining_ = 0;
};

}  // namespace mock
