#include "net/call_slots.hpp"

#include <algorithm>

namespace cabinet {

CallSlots::CallSlots(int64_t concurrency, int64_t wait_ms)
    : wait_(wait_ms), free_(static_cast<std::ptrdiff_t>(std::clamp<int64_t>(concurrency, 1, kMax))) {}

bool CallSlots::acquire() const { return free_.try_acquire_for(wait_); }

void CallSlots::release() const { free_.release(); }

}  // namespace cabinet
