#pragma once
// Every SQL statement the pool runs, named once. All are prepared when a connection is
// made (prepare_now), so a typo fails at start-up, not on the first request that needs it.
#include <string_view>
#include <vector>

namespace cabinet {

struct Statement {
    std::string_view name;
    std::string_view sql;
};

const std::vector<Statement>& pool_statements();

}  // namespace cabinet
