#include "job_handlers.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <spdlog/spdlog.h>

#include "services/autopay.hpp"
#include "services/payment_confirmation.hpp"
#include "services/referral_commission.hpp"
#include "util/json.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

// `noop`, for tests and operators checking the worker: {"sleep_ms": N, "fail": bool,
// "mark": "text"}. Sleeps, then writes the mark as a `job_mark` event in the job's
// transaction, then fails if asked: a failed run leaves no mark, a finished one exactly one.
void noop(pqxx::work& txn, const jobs::Job& job) {
    rapidjson::Document d;
    d.Parse<kStrictParse>(job.payload.c_str(), job.payload.size());
    if (d.HasParseError() || !d.IsObject()) throw std::invalid_argument("noop: payload must be a JSON object");
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
    rapidjson::Document d;
    d.Parse<kStrictParse>(job.payload.c_str(), job.payload.size());
    if (d.HasParseError() || !d.IsObject() || !d.HasMember(field) || !d[field].IsInt64())
        throw std::invalid_argument(job.kind + ": payload needs " + field);
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
    fulfil_payment(txn, panel, s, payload_id(job, "transaction_id"), unix_now());
}

// `autopay_renew` {"user_id": N}: renew from the balance (services/autopay).
void autopay(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    const int64_t user_id = payload_id(job, "user_id");
    PanelClient panel = panel_for(s);
    const AutopayResult r = autopay_renew(txn, panel, s, user_id, unix_now());
    static const char* names[] = {"renewed", "not due", "no plan to renew", "balance too low"};
    spdlog::info("autopay for user {}: {}", user_id, names[static_cast<int>(r)]);
}

// `referral_bonus` {"referrer_id": N, "referral_id": M}: REFERRAL_BONUS_DAYS for the referrer.
void referral_bonus(const Settings& s, pqxx::work& txn, const jobs::Job& job) {
    PanelClient panel = panel_for(s);
    grant_referral_bonus(txn, panel, s, payload_id(job, "referrer_id"), unix_now());
}

}  // namespace

jobs::Registry make_registry(const Settings& settings) {
    jobs::Registry r;
    r.add("noop", noop);
    // The worker's Settings outlive the registry.
    r.add(kAutopayJob, [&settings](pqxx::work& txn, const jobs::Job& job) { autopay(settings, txn, job); });
    r.add(kReferralBonusJob, [&settings](pqxx::work& txn, const jobs::Job& job) { referral_bonus(settings, txn, job); });
    r.add(kFulfilJob, [&settings](pqxx::work& txn, const jobs::Job& job) { fulfil(settings, txn, job); });
    return r;
}

}  // namespace cabinet::ctl
