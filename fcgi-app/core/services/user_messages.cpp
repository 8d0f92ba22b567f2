#include "services/user_messages.hpp"

#include <stdexcept>
#include <string>

#include "jobs/job_queue.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {

int64_t queue_user_message(pqxx::transaction_base& txn, int64_t telegram_id, std::string_view text, std::string_view ref) {
    if (telegram_id <= 0) throw std::invalid_argument("a user message needs the customer's Telegram id");
    if (trim(text).empty() || !valid_utf8(text) || text.find('\0') != std::string_view::npos ||
        utf8_prefix(text, kUserMessageMaxChars).size() != text.size())
        throw std::invalid_argument("a user message is 1..4096 characters of text");
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject job(w);
        job.put("telegram_id", telegram_id).put("text", text);
        if (!ref.empty()) job.put("ref", ref);
    }
    const std::string dedupe = ref.empty() ? std::string() : "user_message:" + std::string(ref);
    return jobs::enqueue(txn, kSendUserMessageJob, std::string_view(buf.GetString(), buf.GetSize()), dedupe, 0,
                         jobs::kMoneyJobAttempts);
}

}  // namespace cabinet
