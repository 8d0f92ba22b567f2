#include "db/statements.hpp"

namespace cabinet {

std::vector<Statement> subscription_statements() { return {}; }

}  // namespace cabinet
