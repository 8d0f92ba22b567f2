#pragma once
// The name of one of the pool's statements, checked when the program is compiled: a call
// site writes the name as a string literal,
//   exec_prepared1(txn, "account_by_id", id);
// and a name that no table of db/*statements.cpp defines does not compile ("not a constant
// expression" at the throw below). The list is generated from those tables at build time
// (cmake/statement_names.cmake). The name also carries its place in that list, so running
// a statement finds its definition without hashing the name.
#include <cstddef>
#include <iterator>
#include <string_view>

namespace cabinet {

namespace statement_list {
inline constexpr std::string_view kNames[] = {
#include "db/statement_names.inc"
};
inline constexpr size_t kCount = std::size(kNames);
}  // namespace statement_list

class StatementName {
public:
    // Implicit on purpose: a literal at the call site is the whole syntax.
    consteval StatementName(const char* name) : name_(name), index_(find(name)) {}  // NOLINT

    const char* c_str() const noexcept { return name_; }
    std::string_view view() const noexcept { return name_; }
    // The name's place in the generated list (statement_list::kNames).
    size_t index() const noexcept { return index_; }

private:
    static consteval size_t find(std::string_view name) {
        for (size_t i = 0; i < statement_list::kCount; ++i)
            if (statement_list::kNames[i] == name) return i;
        throw "not a statement of db/*statements.cpp";  // fails the compilation
    }

    const char* name_;
    size_t index_;
};

}  // namespace cabinet
