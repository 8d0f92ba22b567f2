#pragma once
// How many of a pool process's threads may wait on the panel at once. A slow or stalled
// panel then holds at most PANEL_CONCURRENCY threads (for up to PANEL_TIMEOUT_MS each),
// and the rest keep answering reads: purchases never stall the pool (issue 17). A call
// that finds no slot free within PANEL_QUEUE_WAIT_MS throws PanelBusy (503 "busy, try
// again", Retry-After) before it reaches the panel, so, as for any panel failure, nothing
// is charged or changed.
#include <chrono>
#include <cstdint>
#include <semaphore>

namespace cabinet {

class PanelSlots {
public:
    PanelSlots(int64_t concurrency, int64_t wait_ms);
    PanelSlots(const PanelSlots&) = delete;
    PanelSlots& operator=(const PanelSlots&) = delete;

    // Held for one panel request.
    class Slot {
    public:
        explicit Slot(const PanelSlots* slots);  // null: no limit (cabinetctl, tests)
        ~Slot();
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;

    private:
        const PanelSlots* slots_;
    };

private:
    static constexpr std::ptrdiff_t kMax = 256;
    const std::chrono::milliseconds wait_;
    mutable std::counting_semaphore<kMax> free_;
};

}  // namespace cabinet
