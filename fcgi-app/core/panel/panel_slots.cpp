#include "panel/panel_slots.hpp"

#include <algorithm>

#include "panel/panel_errors.hpp"

namespace cabinet {

PanelSlots::PanelSlots(int64_t concurrency, int64_t wait_ms)
    : wait_(wait_ms), free_(static_cast<std::ptrdiff_t>(std::clamp<int64_t>(concurrency, 1, kMax))) {}

PanelSlots::Slot::Slot(const PanelSlots* slots) : slots_(slots) {
    if (slots_ && !slots_->free_.try_acquire_for(slots_->wait_)) throw PanelBusy();
}

PanelSlots::Slot::~Slot() {
    if (slots_) slots_->free_.release();
}

}  // namespace cabinet
