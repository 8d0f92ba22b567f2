#pragma once
// A column that may be NULL, read as an optional (libpqxx 6.4, Debian 12's, has no
// field::as<std::optional<T>>()).
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>

namespace cabinet {

inline std::optional<std::string> optional_text(const pqxx::field& f) {
    if (f.is_null()) return std::nullopt;
    return std::string(f.c_str(), f.size());
}

inline std::optional<int64_t> optional_int(const pqxx::field& f) {
    if (f.is_null()) return std::nullopt;
    return f.as<int64_t>();
}

}  // namespace cabinet
