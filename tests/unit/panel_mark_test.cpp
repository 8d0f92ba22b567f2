// The write mark in a panel user's description (panel/panel_mark.hpp): the panel sync
// trusts a panel user's state only when the mark it names is the one PostgreSQL stored, so
// the mark must survive the trip and nothing else may be read as one.
#include <boost/test/unit_test.hpp>

#include <set>

#include "panel/panel_mark.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(panel_mark)

BOOST_AUTO_TEST_CASE(a_written_mark_is_read_back) {
    const std::string mark = new_panel_mark();
    BOOST_TEST(mark.size() == 16u);
    BOOST_TEST(panel_mark_of(panel_description(42, mark)) == mark);
    BOOST_TEST(panel_description(42, mark) == "cabinet user 42; write " + mark);
}

BOOST_AUTO_TEST_CASE(marks_are_fresh_each_time) {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) seen.insert(new_panel_mark());
    BOOST_TEST(seen.size() == 1000u);
}

BOOST_AUTO_TEST_CASE(a_description_without_our_mark_claims_nothing) {
    BOOST_TEST(panel_mark_of(panel_description(42)).empty());  // ours, put back: no claim
    BOOST_TEST(panel_mark_of("").empty());
    BOOST_TEST(panel_mark_of("VIP customer, call before renewing").empty());  // an operator's note
    BOOST_TEST(panel_mark_of("Bot user: @someone").empty());
    BOOST_TEST(panel_mark_of("cabinet user 42; write 0123").empty());                 // too short
    BOOST_TEST(panel_mark_of("cabinet user 42; write 0123456789ABCDEF").empty());     // not ours: upper case
    BOOST_TEST(panel_mark_of("cabinet user 42; write 0123456789abcdef0").empty());    // too long
    BOOST_TEST(panel_mark_of("cabinet user x; write 0123456789abcdef").empty());      // no user id
    BOOST_TEST(panel_mark_of("note: cabinet user 42; write 0123456789abcdef").empty());
    BOOST_TEST(panel_mark_of("cabinet user 42; write 0123456789abcdef") == "0123456789abcdef");
}

BOOST_AUTO_TEST_CASE(the_user_a_description_names) {
    BOOST_TEST(panel_user_of(panel_description(42, new_panel_mark())).value_or(0) == 42);
    BOOST_TEST(panel_user_of(panel_description(7)).value_or(0) == 7);
    BOOST_TEST(!panel_user_of("cabinet user ; write 0123456789abcdef"));
    BOOST_TEST(!panel_user_of("cabinet user 42; write xyz"));  // a broken mark: not ours
    BOOST_TEST(!panel_user_of("Bot user: @someone"));
}

BOOST_AUTO_TEST_SUITE_END()
