#include "job_handlers.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include <spdlog/spdlog.h>

#include "backup/backup.hpp"
#include "mail/smtp.hpp"
#include "services/autopay.hpp"
#include "services/broadcast_sending.hpp"
#include "services/maintenance.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_recheck.hpp"
#include "services/referral_commission.hpp"
#include "services/reports.hpp"
#include "services/support.hpp"
#include "services/user_messages.hpp"
#include "sync_user.hpp"
#include "telegram/bot_api.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

// A job's payload, which must be a JSON object.
rapidjson::Document payload_object(const jobs::Job& job) {
    rapidjson::Document d;
    d.Parse<kStrictParse>(job.payload.c_str(), job.payload.size());
    if (d.HasParseError() || !d.IsObject()) throw std::invalid_argument(job.kind + ": payload must be a JSON object");
    return d;
}

// `noop`, for tests and operators checking the worker: {"sleep_ms": N, "fail": bool,
// "mark": "text"}. Sleeps, then writes the mark as a `job_mark` event in the job's
// transaction, then fails if asked: a failed run leaves no mark, a finished one exactly one.
void noop(pqxx::work& txn, const jobs::Job& job) {
    const rapidjson::Document d = payload_object(job);
    if (d.HasMember("sleep_ms") && d["sleep_ms"].IsInt64()) {
        const int64_t ms = std::clamp<int64_t>(d["sleep_ms"].GetInt64(), 0, 600000);
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
    if (d.HasMember("mark") && d["mark"].IsString())
        txn.exec_params0("INSERT INTO events (kind, payload) VALUES ('job_mark', jsonb_build_object('mark', $1::text))",
                         std::string(d["mark"].GetString(), d["mark"].GetStringLength()));
    if (d.HasMember("fail") && d["fail"].IsBool() && d["fail"].GetBool())
        throw std::runtime_error("noop: failing as the payload asks");
}

// The integer `field` of a job's JSON payload; a payload without it fails the job.
int64_t payload_id(const jobs::Job& job, const char* field) {
    const rapidjson::Document d = payload_object(job);
    if (!d.HasMember(field) || !d[field].IsInt64()) throw std::invalid_argument(job.kind + ": payload needs " + field);
    return d[field].GetInt64();
}

// Each run gets its own panel client: curl handles are not shared between job threads.
PanelClient panel_for(const Settings& s) {
    return PanelClient(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms);
}

// `fulfil_payment` {"transaction_id": N}: a paid Stars or gateway order becomes the
// subscription (services/payment_confirmation).
void fulfil(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    PanelClient panel = panel_for(s);
    fulfil_payment(txn, panel, s, payload_id(job, "transaction_id"));
}

// `recheck_payment` {"transaction_id": N}: asks the gateway about an unpaid online payment
// (services/payment_recheck).
void recheck(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    PanelClient panel = panel_for(s);
    recheck_payment(txn, panel, s, payload_id(job, "transaction_id"));
}

// `autopay_renew` {"user_id": N, "expire_at": E}: renew expiry E from the balance
// (services/autopay); jobs queued before the payload carried E have none.
void renew_by_autopay(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    const int64_t user_id = payload_id(job, "user_id");
    const std::optional<int64_t> queued_expiry =
        payload_object(job).HasMember("expire_at") ? std::optional<int64_t>(payload_id(job, "expire_at")) : std::nullopt;
    PanelClient panel = panel_for(s);
    const AutopayResult r = autopay_renew(txn, panel, s, user_id, queued_expiry);
    static const char* names[] = {"renewed", "not due", "no plan to renew", "balance too low"};
    spdlog::info("autopay for user {}: {}", user_id, names[static_cast<int>(r)]);
    // A job that found it not due (the balance switched off since the scan, the account
    // blocked meanwhile) sets its key free: a later scan may queue the same expiry again once
    // that changed; the scan itself skips those cases, so this makes no job per scan. A
    // short balance keeps it (its key names the balance: a top-up makes a new one), and so
    // does no plan to renew, which the scan cannot see: freed, it would be queued again at
    // every scan of the expiry's last day.
    if (r == AutopayResult::not_due)
        txn.exec_params0("UPDATE jobs SET dedupe_key = NULL WHERE id = $1", job.id);
}

// `referral_bonus` {"referrer_id": N, "referral_id": M}: REFERRAL_BONUS_DAYS for the referrer.
void referral_bonus(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    PanelClient panel = panel_for(s);
    grant_referral_bonus(txn, panel, s, payload_id(job, "referrer_id"));
}

// The string `field` of a job's JSON payload, or `fallback` when it is absent.
std::string payload_string(const jobs::Job& job, const char* field, std::string fallback = {}) {
    const rapidjson::Document d = payload_object(job);
    if (!d.HasMember(field)) return fallback;
    if (!d[field].IsString()) throw std::invalid_argument(job.kind + ": " + field + " must be a string");
    return {d[field].GetString(), d[field].GetStringLength()};
}

// `send_report` {"topic": "alerts"|"backups"|"tickets", "text": "..."}: a message to the
// reporting group's topic (services/reports.hpp). The chat and topic are read now, so a
// fixed setting applies to messages still queued; a topic switched off meanwhile drops the
// message. Jobs queued before a topic had a name of its own meant the alerts topic.
void send_report(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    const std::string topic_name = payload_string(job, "topic");
    const ReportTopic topic = report_topic_from_name(topic_name).value_or(ReportTopic::alerts);
    const std::string& topic_id = report_topic_id(s, topic);
    if (topic_id.empty()) {
        spdlog::warn("report job {}: the {} topic is no longer configured; message dropped", job.id, topic_name);
        return;
    }
    const int64_t sent = BotApi(s).post_message(s.report_chat_id, topic_id, payload_string(job, "text"));
    // A ticket notification remembers its Telegram id, so an admin's reply reaches the ticket.
    const std::string ref = payload_string(job, "ref");
    int64_t support_message_id = 0;
    if (sent > 0 && starts_with(ref, kSupportMessageRef) &&
        parse_int64(std::string_view(ref).substr(kSupportMessageRef.size()), support_message_id))
        record_ticket_notification(txn, support_message_id, s.report_chat_id, sent);
}

// `send_user_message` {"telegram_id": N, "text": "...", "ref": "..."}: one bot message to
// one customer's private chat (services/user_messages.hpp). Telegram's refusal to deliver
// it at all (403: the customer blocked the bot or deleted their account; 400: no chat with
// them) is final: logged and kept on the job row as "undelivered", not retried. Any other
// failure (outage, 429 with its retry_after) is retried by the queue.
void send_user_message(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    const int64_t chat = payload_id(job, "telegram_id");
    const std::string text = payload_string(job, "text");
    if (text.empty()) throw std::invalid_argument("send_user_message: payload needs text");
    try {
        BotApi(s).send_message(std::to_string(chat), "", text);
    } catch (const BotApiError& e) {
        if (e.http_status() != 400 && e.http_status() != 403) throw;
        spdlog::warn("user message job {} ({}): Telegram refused it for good: {}", job.id, payload_string(job, "ref"), e.why());
        txn.exec_params0("UPDATE jobs SET payload = payload || jsonb_build_object('undelivered', $2::text) WHERE id = $1",
                         job.id, e.why());
    }
}

// `send_mail` {"to", "subject", "text", "html"}: a mail of the web cabinet (verification
// links) over SMTP. Logged by address and subject only: the body holds one-time links.
// Once sent, the body is wiped from the job row in the same transaction that marks the job
// done, so the jobs table does not keep live links. No SMTP_URL: dropped with a warning.
void send_mail(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    MailMessage m;
    m.from = s.smtp_from;
    m.to = payload_string(job, "to");
    m.subject = payload_string(job, "subject");
    m.text = payload_string(job, "text");
    m.html = payload_string(job, "html");
    if (m.to.empty()) throw std::invalid_argument("send_mail: payload needs to");
    if (s.smtp_url.empty()) {
        spdlog::warn("mail job {} to {} ({}) dropped: SMTP_URL is not set", job.id, m.to, m.subject);
    } else {
        send_mail_smtp(s, m);
        spdlog::info("mail job {}: sent to {} ({})", job.id, m.to, m.subject);
    }
    txn.exec_params0("UPDATE jobs SET payload = payload - 'text' - 'html' WHERE id = $1", job.id);
}

// `backup` {"requested_by": actor}: the admin's "backup now" (POST
// /api/admin/maintenance/backup): the same archive as the daily one. Its outcome goes into
// the audit log. A failed delivery keeps the archive and is not retried (a retry would
// make a second archive); a failure to make one fails the run and is retried.
void backup_now(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    const std::string by = payload_string(job, "requested_by", "unknown");
    const backup::BackupResult r = backup::make_backup(s, false);
    spdlog::info("backup job {} for {}: {}", job.id, by, r.message);
    if (!r.delivery_error.empty()) spdlog::warn("backup job {}: not delivered: {}", job.id, r.delivery_error);
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("requested_by");
    write_string(w, by);
    w.Key("result");
    write_string(w, r.outcome == backup::BackupResult::Outcome::busy ? "another backup was running" : r.message);
    w.Key("file");
    write_string(w, r.path);
    w.Key("size");
    w.Int64(r.size);
    w.Key("delivered");
    w.Bool(r.delivered);
    w.EndObject();
    write_audit(txn, "worker", "backup.done", "job:" + std::to_string(job.id), buf.GetString());
}

// `sync_user` {"user_id": N}: the owner's "sync with the panel" for one customer.
void sync_user(const Settings& s, const jobs::Job& job) {
    const int64_t user_id = payload_id(job, "user_id");
    spdlog::info("sync job {}: user {}: {}", job.id, user_id, sync_user_now(s, user_id));
}

// `broadcast_send` {"broadcast_id": N}: one batch of an owner's broadcast, which queues the
// next (services/broadcast_sending.hpp). The pacer is the worker's, shared by its threads.
void broadcast_batch(const Settings& s, SendPacer& pacer, pqxx::work& txn, const jobs::Job& job) {
    const int64_t id = payload_id(job, "broadcast_id");
    const BroadcastBatch b = send_broadcast_batch(txn, s, pacer, id);
    if (b.waiting) spdlog::info("broadcast job {}: broadcast {} waits for the one sending now", job.id, id);
    else spdlog::info("broadcast job {}: broadcast {}: {} messages{}", job.id, id, b.sent, b.finished ? ", finished" : "");
}

}  // namespace

jobs::Registry make_registry(const LiveSettings& settings) {
    jobs::Registry r;
    r.add("noop", noop);
    // The worker's Settings outlive the registry.
    r.add(kAutopayJob, [&settings](pqxx::work& txn, const jobs::Job& job) { renew_by_autopay(*settings.current(), txn, job); });
    r.add(kReferralBonusJob, [&settings](pqxx::work& txn, const jobs::Job& job) { referral_bonus(*settings.current(), txn, job); });
    r.add(kFulfilJob, [&settings](pqxx::work& txn, const jobs::Job& job) { fulfil(*settings.current(), txn, job); });
    r.add(kRecheckPaymentJob, [&settings](pqxx::work& txn, const jobs::Job& job) { recheck(*settings.current(), txn, job); });
    r.add(kSendReportJob, [&settings](pqxx::work& txn, const jobs::Job& job) { send_report(*settings.current(), txn, job); });
    r.add(kSendUserMessageJob, [&settings](pqxx::work& txn, const jobs::Job& job) { send_user_message(*settings.current(), txn, job); });
    r.add(kSendMailJob, [&settings](pqxx::work& txn, const jobs::Job& job) { send_mail(*settings.current(), txn, job); });
    r.add(backup::kBackupJob, [&settings](pqxx::work& txn, const jobs::Job& job) { backup_now(*settings.current(), txn, job); });
    r.add(kSyncUserJob, [&settings](pqxx::work&, const jobs::Job& job) { sync_user(*settings.current(), job); });
    r.add(kBroadcastJob, [&settings, pacer = std::make_shared<SendPacer>()](pqxx::work& txn, const jobs::Job& job) {
        broadcast_batch(*settings.current(), *pacer, txn, job);
    });
    return r;
}

}  // namespace cabinet::ctl
