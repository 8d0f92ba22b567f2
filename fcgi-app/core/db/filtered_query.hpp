#pragma once
// A read whose filters the caller combines freely (the owner's lists: customers, payments):
// one statement put together from the caller's fixed SQL fragments, with every value bound
// as a parameter (cast to its type where it is used), never spliced into the text. A
// statement prepared per combination would be planned generically, a rare filter and a
// common one alike; this one is planned for the values it carries.
//
//   FilteredQuery q("SELECT … FROM users u");
//   q.where("u.id < " + q.param(std::to_string(cursor)) + "::bigint");
//   q.append(" ORDER BY u.id DESC LIMIT 50");
//   const pqxx::result rows = q.run(txn);
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cabinet {

class FilteredQuery {
public:
    explicit FilteredQuery(std::string select) : text_(std::move(select)) {}
    // Adds a bound value; returns its placeholder ("$3").
    std::string param(std::string value) {
        values_.push_back(std::move(value));
        return "$" + std::to_string(values_.size());
    }
    // ANDs a condition (SQL text of the caller's, values through param()).
    void where(const std::string& condition) { text_ += (conditions_++ ? " AND " : " WHERE ") + condition; }
    void append(std::string_view sql) { text_ += sql; }
    pqxx::result run(pqxx::transaction_base& txn) const {
        return txn.exec_params(text_, pqxx::prepare::make_dynamic_params(values_));
    }
    // A page of an owner's list, newest first: the rows of `id_column` below `before_id`
    // (the previous page's last), at most `limit`, each made by `row_of`.
    template <typename RowOf>
    auto newest_page(pqxx::transaction_base& txn, const std::string& id_column, std::optional<int64_t> before_id,
                     int64_t limit, RowOf row_of) {
        if (before_id) where(id_column + " < " + param(std::to_string(*before_id)) + "::bigint");
        append(" ORDER BY " + id_column + " DESC LIMIT " + param(std::to_string(limit)) + "::bigint");
        const pqxx::result rows = run(txn);
        std::vector<decltype(row_of(rows[0]))> out;
        out.reserve(rows.size());
        for (const auto& r : rows) out.push_back(row_of(r));
        return out;
    }

private:
    std::string text_;
    std::vector<std::string> values_;
    int conditions_ = 0;
};

}  // namespace cabinet
