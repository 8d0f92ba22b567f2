// The statement names checked at compile time (db/statement_name.hpp) are exactly the pool's
// statements (db/statements.hpp), each once: the generated list cannot drift from the tables.
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "db/statement_name.hpp"
#include "db/statements.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(statement_names)

BOOST_AUTO_TEST_CASE(the_generated_list_is_the_tables) {
    std::set<std::string> tables, listed;
    for (const auto& s : pool_statements()) BOOST_TEST(tables.insert(std::string(s.name)).second, "twice: " << s.name);
    for (const auto name : statement_list::kNames) BOOST_TEST(listed.insert(std::string(name)).second, "listed twice: " << name);
    BOOST_TEST(tables == listed);
    BOOST_TEST(tables.size() > 200u);
}

BOOST_AUTO_TEST_CASE(a_name_knows_its_place_in_the_list) {
    constexpr StatementName name("account_by_id");
    BOOST_TEST(statement_list::kNames[name.index()] == "account_by_id");
    BOOST_TEST(std::string(name.c_str()) == "account_by_id");
}

BOOST_AUTO_TEST_SUITE_END()
