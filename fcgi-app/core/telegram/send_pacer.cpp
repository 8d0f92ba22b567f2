#include "telegram/send_pacer.hpp"

#include <algorithm>
#include <thread>

namespace cabinet {
namespace {

constexpr auto kPerChatGap = std::chrono::seconds(1);
constexpr size_t kChatsRemembered = 10000;  // then the ones past their gap are forgotten

}  // namespace

SendPacer::Clock::time_point SendPacer::reserve(int64_t chat_id, double per_second, Clock::time_point now) {
    // Rounded up: `per_second` turns never fit in less than a second.
    const auto spacing = std::chrono::ceil<Clock::duration>(std::chrono::duration<double>(1.0 / std::max(per_second, 0.001)));
    const std::lock_guard lock(mutex_);
    Clock::time_point at = std::max({now, next_, paused_until_});
    if (const auto it = last_by_chat_.find(chat_id); it != last_by_chat_.end()) at = std::max(at, it->second + kPerChatGap);
    next_ = at + spacing;
    if (last_by_chat_.size() >= kChatsRemembered)
        std::erase_if(last_by_chat_, [&](const auto& e) { return e.second + kPerChatGap <= now; });
    last_by_chat_[chat_id] = at;
    return at;
}

void SendPacer::wait_turn(int64_t chat_id, double per_second) {
    std::this_thread::sleep_until(reserve(chat_id, per_second));
}

void SendPacer::pause_for(int64_t seconds, Clock::time_point now) {
    const std::lock_guard lock(mutex_);
    paused_until_ = std::max(paused_until_, now + std::chrono::seconds(std::max<int64_t>(seconds, 1)));
}

}  // namespace cabinet
