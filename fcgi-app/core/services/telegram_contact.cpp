#include "services/telegram_contact.hpp"

#include "db/accounts_repo.hpp"
#include "errors.hpp"

namespace cabinet {

bool profile_changed(const User& u, const TelegramUser& tg) {
    return u.username != tg.username || u.first_name != tg.first_name || u.last_name != tg.last_name;
}

std::optional<Account> telegram_account(Db& db, int64_t telegram_id) {
    return db.read([&](auto& txn) { return find_account_by_telegram_id(txn, telegram_id); });
}

Account telegram_contact(Db& db, const TelegramUser& tg, const std::string& currency, const std::string& start_param) {
    // The common case, a known user with the same names, costs one read and no transaction.
    auto account = telegram_account(db, tg.id);
    if (account && !profile_changed(account->user, tg)) return std::move(*account);
    db.write([&](pqxx::work& txn) {
        if (!account) register_telegram_user(txn, tg, currency, start_param);
        else refresh_telegram_profile(txn, account->user.id, tg);
    });
    account = telegram_account(db, tg.id);
    if (!account) throw unavailable("user registration did not complete");
    return std::move(*account);
}

}  // namespace cabinet
