#pragma once
// How many of a pool process's threads may wait on one upstream at once (the panel:
// PANEL_CONCURRENCY; the payment gateways: GATEWAY_CONCURRENCY). A slow or stalled
// upstream, or a burst of requests that all need it (a webhook storm), then holds at most
// that many threads, and the rest keep answering reads (issue 17). A call that finds no
// slot free within the queue wait throws the caller's Busy error (503 "busy, try again",
// Retry-After: errors.hpp busy()) before it reaches the upstream, so nothing is changed.
#include <chrono>
#include <cstdint>
#include <semaphore>

namespace cabinet {

class CallSlots {
public:
    CallSlots(int64_t concurrency, int64_t wait_ms);
    CallSlots(const CallSlots&) = delete;
    CallSlots& operator=(const CallSlots&) = delete;

    // Held for one upstream request; throws Busy when no slot frees up in time.
    template <class Busy>
    class Slot {
    public:
        explicit Slot(const CallSlots* slots) : slots_(slots) {  // null: no limit (cabinetctl, tests)
            if (slots_ && !slots_->acquire()) throw Busy();
        }
        ~Slot() {
            if (slots_) slots_->release();
        }
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;

    private:
        const CallSlots* slots_;
    };

private:
    bool acquire() const;
    void release() const;

    static constexpr std::ptrdiff_t kMax = 256;
    const std::chrono::milliseconds wait_;
    mutable std::counting_semaphore<kMax> free_;
};

}  // namespace cabinet
