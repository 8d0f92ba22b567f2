#include "services/account_merge.hpp"

#include "db/ledger_repo.hpp"
#include "db/linking_repo.hpp"
#include "panel/panel_mark.hpp"
#include "util/json_object.hpp"
#include "util/web_tokens.hpp"

namespace cabinet {
namespace {

// The subscription the merged account keeps, and what the event records about it.
// Both have one: the later-expiring wins. A free web trial is not kept when the Telegram user
// had used its own trial before: one trial per person, and the merge shows they are one
// (else each new web account's trial could be carried into the same Telegram account, again
// and again). A paid trial was bought like a plan and follows the rule above. The loser's panel user is disabled, not deleted (the operator may still want it),
// and named in the event. A kept web subscription's panel user had no Telegram id: it gets
// the merged account's.
const char* settle_subscription(pqxx::transaction_base& txn, PanelClient& panel, int64_t web, int64_t tg,
                                int64_t tg_telegram_id, bool tg_trial_used, std::string& dropped_panel_uuid) {
    const auto web_sub = merge_subscription_of(txn, web);
    const auto tg_sub = merge_subscription_of(txn, tg);
    const bool second_trial = web_sub && web_sub->free_trial && tg_trial_used;
    const bool keep_web = web_sub && !second_trial && !(tg_sub && tg_sub->expire_at >= web_sub->expire_at);
    if (web_sub && !keep_web) dropped_panel_uuid = web_sub->panel_uuid;
    else if (tg_sub && keep_web) dropped_panel_uuid = tg_sub->panel_uuid;
    if (keep_web && !web_sub->panel_uuid.empty()) panel.set_telegram_id(web_sub->panel_uuid, tg_telegram_id);
    // With a write mark this side never stores: should the merge not commit, the dropped
    // subscription is still here, and the panel sync puts its panel user back
    // (panel/panel_mark.hpp); once it commits, nothing links to that panel user any more.
    const int64_t dropped_user = keep_web ? tg : web;
    if (!dropped_panel_uuid.empty())
        panel.disable_user(dropped_panel_uuid, panel_description(dropped_user, new_panel_mark()));
    if (!keep_web) return "telegram";  // the Telegram user's, or none; a web one goes with its row
    if (tg_sub) drop_subscription(txn, tg);
    move_subscription(txn, web, tg);
    record_subscription_history(txn, tg, "merge", std::nullopt, 0,
                                tg_sub ? std::optional<int64_t>(tg_sub->expire_at) : std::nullopt, web_sub->expire_at);
    return "web";
}

std::string merge_payload(const MergeUser& web, const TakenBack& taken_back, const char* kept,
                          const std::string& dropped_panel_uuid) {
    return object_text([&](JsonObject& o) {
        o.put("merged_user_id", web.id).put("merged_email", web.email);
        o.put("balance_added_minor", web.balance_minor - taken_back.total());
        o.put("promo_taken_back_minor", taken_back.promo_minor);
        o.put("commission_taken_back_minor", taken_back.commission_minor);
        o.put("subscription_kept", kept);
        o.put("dropped_panel_uuid", dropped_panel_uuid.empty() ? std::nullopt : std::optional(dropped_panel_uuid));
    });
}

// The merge of web user `web_id` into `telegram_user_id`, in the transaction that holds the
// code's lock (`hash`); it spends the code.
MergeOutcome merge_accounts(pqxx::work& txn, PanelClient& panel, const std::string& hash, int64_t web_id,
                            int64_t telegram_user_id) {
    if (web_id == telegram_user_id) return MergeOutcome::same_account;
    // Lower id first: two merges touching the same pair can never deadlock.
    const int64_t first = std::min(web_id, telegram_user_id);
    const int64_t second = std::max(web_id, telegram_user_id);
    auto a = lock_merge_user(txn, first);
    auto b = lock_merge_user(txn, second);
    if (!a || !b) return MergeOutcome::expired;  // the web user was deleted meanwhile
    const MergeUser& web = first == web_id ? *a : *b;
    const MergeUser& tg = first == web_id ? *b : *a;
    if (web.telegram_id) return MergeOutcome::already_linked;
    if (!tg.telegram_id) return MergeOutcome::expired;  // not a Telegram account: cannot happen from the bot
    if (web.is_blocked || tg.is_blocked) return MergeOutcome::blocked;
    // Two different logins cannot both survive; the user must decide (docs/decisions.md).
    if (!tg.email.empty() && !web.email.empty() && tg.email != web.email) return MergeOutcome::email_conflict;

    spend_telegram_code(txn, hash, tg.id);
    std::string dropped_panel_uuid;
    const char* kept =
        settle_subscription(txn, panel, web.id, tg.id, *tg.telegram_id, tg.trial_used, dropped_panel_uuid);
    const TakenBack taken_back = merge_user_fields(txn, web, tg.id);
    move_user_rows(txn, web.id, tg.id);
    record_merge(txn, tg.id, merge_payload(web, taken_back, kept, dropped_panel_uuid));
    delete_user(txn, web.id);
    return MergeOutcome::linked;
}

}  // namespace

MergeOutcome link_telegram_account(Db& db, PanelClient& panel, std::string_view code, int64_t telegram_user_id) {
    const std::string hash = opaque_token_hash(code);
    // transact, not write: the panel is called while the rows are locked, and a repeated
    // panel call is not the database layer's decision.
    return db.transact([&](pqxx::work& txn) {
        const auto row = lock_telegram_code(txn, hash);
        if (!row || row->kind != "link" || row->spent || row->expired || row->needs_approval) return MergeOutcome::expired;
        return merge_accounts(txn, panel, hash, row->user_id, telegram_user_id);
    });
}

MergeOutcome approve_telegram_link(Db& db, PanelClient& panel, std::string_view code, int64_t web_user_id) {
    const std::string hash = opaque_token_hash(code);
    return db.transact([&](pqxx::work& txn) {
        const auto row = lock_telegram_code(txn, hash);
        if (!row || row->kind != "link" || row->spent || row->expired || !row->needs_approval || !row->confirmed ||
            row->user_id != web_user_id)
            return MergeOutcome::expired;
        return merge_accounts(txn, panel, hash, web_user_id, row->confirmed_user_id);
    });
}

}  // namespace cabinet
