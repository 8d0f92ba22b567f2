#include "services/user_messages.hpp"

#include <stdexcept>
#include <string>

#include "jobs/job_queue.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

namespace cabinet {

int64_t queue_user_message(pqxx::transaction_base& txn, int64_t telegram_id, std::string_view text, std::string_view ref) {
    if (telegram_id <= 0) throw std::invalid_argument("a user message needs the customer's Telegram id");
    if (trim(text).empty() || !valid_utf8(text) || text.find('\0') != std::string_view::npos ||
        utf8_prefix(text, kUserMessageMaxChars).size() != text.size())
        throw std::invalid_argument("a user message is 1..4096 characters of text");
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    write_key(w, "telegram_id");
    w.Int64(telegram_id);
    write_key(w, "text");
    write_string(w, text);
    if (!ref.empty()) {
        write_key(w, "ref");
        write_string(w, ref);
    }
    w.EndObject();
    const std::string dedupe = ref.empty() ? std::string() : "user_message:" + std::string(ref);
    return jobs::enqueue(txn, kSendUserMessageJob, std::string_view(buf.GetString(), buf.GetSize()), dedupe, 0,
                         jobs::kMoneyJobAttempts);
}

}  // namespace cabinet
