#include "faults.hpp"

namespace mock {

std::optional<FaultMode> fault_mode_from(std::string_view name) {
    if (name == "status500") return FaultMode::status500;
    if (name == "garbage") return FaultMode::garbage;
    if (name == "delay") return FaultMode::delay;
    return std::nullopt;
}

std::string_view fault_mode_name(FaultMode mode) {
    switch (mode) {
        case FaultMode::status500: return "status500";
        case FaultMode::garbage: return "garbage";
        case FaultMode::delay: return "delay";
    }
    return "?";
}

void Faults::arm(Fault fault, int times) {
    std::lock_guard lock(mu_);
    fault_ = fault;
    remaining_ = times;
}

void Faults::reset() {
    std::lock_guard lock(mu_);
    remaining_ = 0;
}

std::optional<Fault> Faults::take(std::string_view method, std::string_view path) {
    std::lock_guard lock(mu_);
    if (remaining_ <= 0 || (!fault_.method.empty() && fault_.method != method)) return std::nullopt;
    if (!fault_.path.empty() && path.substr(0, fault_.path.size()) != fault_.path) return std::nullopt;
    --remaining_;
    return fault_;
}

}  // namespace mock
