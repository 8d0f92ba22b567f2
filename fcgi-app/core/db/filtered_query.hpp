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

private:
    std::string text_;
    std::vector<std::string> values_;
    int conditions_ = 0;
};

}  // namespace cabinet
