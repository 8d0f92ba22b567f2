// The domain's state enums (util/enum_text.hpp tables) against what PostgreSQL allows in
// their columns: a text the database refuses, or one it allows that no enum value names,
// would fail only when that state first occurs in production.
#include <boost/test/unit_test.hpp>

#include <regex>
#include <set>
#include <string>

#include "domain/states.hpp"
#include "jobs/job_status.hpp"
#include "support.hpp"

using namespace it;

namespace {

// The quoted values of a CHECK's list, as PostgreSQL prints it ('pending'::text, ...).
std::set<std::string> quoted_values(const std::string& constraint_def) {
    std::set<std::string> out;
    static const std::regex quoted("'([a-z_]+)'::text");
    for (auto it = std::sregex_iterator(constraint_def.begin(), constraint_def.end(), quoted); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    return out;
}

std::string one_text(const std::string& sql) {
    pqxx::connection c(env("DATABASE_URL"));
    pqxx::nontransaction t(c);
    const auto r = t.exec(sql);
    BOOST_REQUIRE_EQUAL(r.size(), 1u);
    return r[0][0].c_str();
}

// The list of domain `type` (sql 0045 moved the long lists into domains).
std::set<std::string> domain_values(const std::string& type) {
    return quoted_values(one_text("SELECT string_agg(pg_get_constraintdef(c.oid), ' ') FROM pg_constraint c "
                                  "JOIN pg_type t ON t.oid = c.contypid WHERE t.typname = '" + type + "'"));
}

// The list of a table's CHECK on `column`.
std::set<std::string> check_values(const std::string& table, const std::string& column) {
    return quoted_values(one_text("SELECT string_agg(pg_get_constraintdef(oid), ' ') FROM pg_constraint WHERE conrelid = '" +
                                  table + "'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%(" + column +
                                  " %'"));
}

template <typename E, std::size_t N>
std::set<std::string> texts(const cabinet::EnumText<E, N>& table) {
    std::set<std::string> out;
    for (std::size_t i = 0; i < N; ++i) out.insert(std::string(table.text(static_cast<E>(i))));
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(state_texts)

BOOST_AUTO_TEST_CASE(each_state_enum_names_exactly_what_its_column_allows) {
    BOOST_TEST((texts(cabinet::StateTexts<cabinet::TransactionStatus>::table) == domain_values("transaction_status")));
    BOOST_TEST((texts(cabinet::StateTexts<cabinet::TransactionType>::table) == domain_values("transaction_type")));
    BOOST_TEST((texts(cabinet::StateTexts<cabinet::JobStatus>::table) == domain_values("job_status")));
    BOOST_TEST((texts(cabinet::StateTexts<cabinet::BroadcastStatus>::table) == check_values("broadcasts", "status")));
    BOOST_TEST((texts(cabinet::StateTexts<cabinet::PromoReward>::table) == check_values("promo_codes", "reward_type")));
    BOOST_TEST((texts(cabinet::StateTexts<cabinet::TicketStatus>::table) == check_values("support_tickets", "status")));
}

BOOST_AUTO_TEST_SUITE_END()
