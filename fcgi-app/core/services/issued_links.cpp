#include "services/issued_links.hpp"

#include "db/accounts_repo.hpp"

namespace cabinet {

bool crypto_link_ours(Db& db, const std::string& link) {
    return db.read([&](auto& txn) { return crypto_link_issued(txn, link); });
}

}  // namespace cabinet
