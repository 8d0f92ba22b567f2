#include "services/guest_purchase.hpp"

#include "auth/web_tokens.hpp"
#include "db/prepared.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"
#include "mail/templates.hpp"
#include "services/mail_queue.hpp"

namespace cabinet {

GuestBuyer guest_buyer(pqxx::dbtransaction& txn, const Settings& s, const std::string& email, const std::string& language) {
    if (const auto id = insert_web_user(txn, email, "", s.default_currency, language)) return {*id, true};
    const auto known = find_web_login_by_email(txn, email);
    if (!known) throw ApiError(409, "this address changed meanwhile: try again");  // deleted between the two
    if (known->is_blocked) throw forbidden("this account is blocked");
    return {known->id, false};
}

std::string record_guest_purchase(pqxx::transaction_base& txn, const Settings& s, int64_t transaction_id,
                                  const GuestBuyer& buyer, const std::string& email, const std::string& browser_hash) {
    std::string token;
    if (buyer.created) token = new_opaque_token();
    exec_prepared(txn, "insert_guest_purchase", transaction_id, buyer.user_id,
                  token.empty() ? std::string() : opaque_token_hash(token), browser_hash, kGuestSignInTtlS);
    if (!buyer.created) {
        const auto owner = find_web_login_by_id(txn, buyer.user_id);
        enqueue_mail(txn, email, guest_purchase_known_address_mail(s.web_cabinet_url + "/login",
                                                                   mail_language(owner ? owner->language : "")));
    }
    return token;
}

void mail_guest_subscription(pqxx::transaction_base& txn, const Settings& s, int64_t transaction_id) {
    const auto rows = exec_prepared(txn, "guest_link_to_mail", transaction_id);
    if (rows.empty() || rows[0]["subscription_url"].is_null()) return;
    const auto& r = rows[0];
    enqueue_mail(txn, r["email"].c_str(),
                 guest_subscription_mail(r["subscription_url"].c_str(), s.web_cabinet_url + "/login?forgot=1",
                                         mail_language(r["language"].c_str())));
}

}  // namespace cabinet
