#pragma once
// GET /dl opens only our own import links (api/download_link.cpp). The panel's encrypted
// Happ link of a subscription cannot be read, only looked up among the ones we handed out.
#include <string>

#include "db/db.hpp"

namespace cabinet {

// Whether `link` is the encrypted Happ link of one of our subscriptions; a read without a
// transaction.
bool crypto_link_ours(Db& db, const std::string& link);

}  // namespace cabinet
