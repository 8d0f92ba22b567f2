#include "db/statements.hpp"

namespace cabinet {

std::vector<Statement> payment_statements() { return {}; }

}  // namespace cabinet
