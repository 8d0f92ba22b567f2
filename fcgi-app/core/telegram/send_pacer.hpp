#pragma once
// Telegram's limits on a bot's messages, kept by one process for all its threads: about 30
// messages a second overall (the rate is a setting, BROADCAST_RATE_PER_S), at most one a
// second to one chat, and a pause for everyone when the Bot API answers 429 with
// `retry_after`. A sender asks for its turn and sleeps until then; turns are spaced evenly
// (no burst), so a 429 is rare to begin with.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace cabinet {

class SendPacer {
public:
    using Clock = std::chrono::steady_clock;

    // The moment this message to `chat_id` may go, reserved for it: the next free slot at
    // `per_second` messages a second, not before the pause, and a second or more after the
    // chat's previous message. Pure bookkeeping; wait_turn() also sleeps until then.
    Clock::time_point reserve(int64_t chat_id, double per_second, Clock::time_point now = Clock::now());
    void wait_turn(int64_t chat_id, double per_second);
    // A 429: nobody sends for `seconds` from now.
    void pause_for(int64_t seconds, Clock::time_point now = Clock::now());

private:
    std::mutex mutex_;
    Clock::time_point next_{};
    Clock::time_point paused_until_{};
    std::unordered_map<int64_t, Clock::time_point> last_by_chat_;
};

}  // namespace cabinet
