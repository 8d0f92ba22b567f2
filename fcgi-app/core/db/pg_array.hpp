#pragma once
// PostgreSQL array literals ('{1,2,3}', '{"a","b"}') to pass a whole set as one parameter:
// `WHERE id = ANY($1::bigint[])`, `FROM unnest($1::bigint[], $2::text[])`. libpqxx 6.4
// does not convert containers to parameters itself.
#include <cstdint>
#include <string>
#include <vector>

namespace cabinet {

std::string pg_array(const std::vector<int64_t>& values);
// Each element quoted, with `"` and `\` escaped: any text is safe.
std::string pg_array(const std::vector<std::string>& values);

}  // namespace cabinet
