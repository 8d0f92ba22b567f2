#include "services/guest_purchase.hpp"

#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"
#include "mail/templates.hpp"
#include "services/mail_queue.hpp"
#include "services/online_checkout.hpp"
#include "util/web_tokens.hpp"

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

GuestPurchaseResult guest_purchase(Db& db, const Settings& s, const CallSlots* checkout_slots,
                                   const GuestPurchaseRequest& req) {
    struct Reserved {
        GuestBuyer buyer;
        PaymentReservation payment;
    };
    const Reserved r = db.transact([&](pqxx::work& txn) {
        Reserved out;
        out.buyer = guest_buyer(txn, s, req.email, req.language);
        const LockedAccount locked = lock_account(txn, out.buyer.user_id);
        const Order order = resolve_order(txn, s, locked, req.choice);
        out.payment = reserve_payment(txn, s, locked, order, req.method, "", req.return_page);
        if (out.buyer.created) out.payment.made_user_id = out.buyer.user_id;
        return out;
    });
    GuestPurchaseResult result;
    result.transaction_id = r.payment.transaction_id;
    result.redirect_url = open_checkout(db, s, checkout_slots, r.payment, [&](pqxx::work& txn) {
        result.token = record_guest_purchase(txn, s, r.payment.transaction_id, r.buyer, req.email, req.browser_hash);
    });
    return result;
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
