#include "db/statements.hpp"

namespace cabinet {

std::vector<Statement> catalog_statements() { return {}; }

}  // namespace cabinet
