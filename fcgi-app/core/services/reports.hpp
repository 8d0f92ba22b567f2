#pragma once
// Messages to the reporting group's topics (REPORT_CHAT_ID + REPORT_TOPIC_*): queued as a
// `send_report` job in the caller's transaction, sent by the worker through the Bot API, so
// the message goes out exactly when the change it reports commits, and a Bot API outage
// delays it instead of losing it.
#include <pqxx/pqxx>

#include <optional>
#include <string>
#include <string_view>

#include "config/settings.hpp"

namespace cabinet {

inline constexpr const char* kSendReportJob = "send_report";

enum class ReportTopic { alerts, backups, tickets };

// The topic's message_thread_id, empty when the topic (or the group) is not configured.
const std::string& report_topic_id(const Settings& s, ReportTopic topic);
std::string_view report_topic_name(ReportTopic topic);
// The topic a job names (report_topic_name's inverse); nullopt for an unknown name.
std::optional<ReportTopic> report_topic_from_name(std::string_view name);

// Queues `text` for the topic; false (nothing queued) when the topic is not configured.
// `ref` (optional) names what the message is about; the worker hands it back with the sent
// message's id (see send_report in tools/cabinetctl/job_handlers.cpp). A non-empty
// `dedupe_key` sends a message once per key (a repeated finding is not repeated).
bool enqueue_report(pqxx::transaction_base& txn, const Settings& s, ReportTopic topic, std::string_view text,
                    std::string_view ref = {}, std::string_view dedupe_key = {});

}  // namespace cabinet
