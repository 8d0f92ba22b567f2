#include "services/linked_logins.hpp"

namespace cabinet {

LinkedLogins linked_logins(Db& db, int64_t user_id) {
    return db.read([&](auto& txn) { return LinkedLogins{find_linked_profile(txn, user_id), oauth_links_of(txn, user_id)}; });
}

}  // namespace cabinet
