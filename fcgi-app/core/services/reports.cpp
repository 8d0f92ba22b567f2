#include "services/reports.hpp"

#include <spdlog/spdlog.h>

#include "jobs/job_queue.hpp"
#include "util/json_object.hpp"

namespace cabinet {

const std::string& report_topic_id(const Settings& s, ReportTopic topic) {
    static const std::string none;
    if (s.report_chat_id.empty()) return none;
    switch (topic) {
    case ReportTopic::alerts: return s.report_topic_alerts;
    case ReportTopic::backups: return s.report_topic_backups;
    case ReportTopic::tickets: return s.report_topic_tickets;
    }
    return none;
}

std::string_view report_topic_name(ReportTopic topic) {
    switch (topic) {
    case ReportTopic::alerts: return "alerts";
    case ReportTopic::backups: return "backups";
    case ReportTopic::tickets: return "tickets";
    }
    return "alerts";
}

std::optional<ReportTopic> report_topic_from_name(std::string_view name) {
    for (const ReportTopic t : {ReportTopic::alerts, ReportTopic::backups, ReportTopic::tickets})
        if (report_topic_name(t) == name) return t;
    return std::nullopt;
}

bool enqueue_report(pqxx::transaction_base& txn, const Settings& s, ReportTopic topic, std::string_view text,
                    std::string_view ref, std::string_view dedupe_key) {
    if (report_topic_id(s, topic).empty()) {
        spdlog::info("report to the {} topic not sent (REPORT_CHAT_ID or its topic is not set): {}", report_topic_name(topic), text);
        return false;
    }
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject job(w);
        job.put("topic", report_topic_name(topic)).put("text", text);
        if (!ref.empty()) job.put("ref", ref);
    }
    // A customer's message is owed an answer: its notification retries for hours, as money
    // jobs do, through a Telegram outage or the group's rate limit (about 20 messages a
    // minute, which a busy hour's tickets and alerts can pass). Other reports keep the default.
    const int attempts = topic == ReportTopic::tickets ? jobs::kMoneyJobAttempts : jobs::kDefaultAttempts;
    jobs::enqueue(txn, kSendReportJob, std::string_view(buf.GetString(), buf.GetSize()), dedupe_key, 0, attempts);
    return true;
}

}  // namespace cabinet
