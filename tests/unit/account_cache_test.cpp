// The pool's account cache (cache/account_cache.hpp) and the host's generations file it
// trusts (cache/account_generations.hpp): two caches on one file stand for two pool
// processes of one host.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>

#include "cache/account_cache.hpp"

using cabinet::Account;
using cabinet::AccountCache;
using cabinet::AccountGenerations;

namespace {

struct GenerationsFile {
    std::string path;
    GenerationsFile() {
        char tmpl[] = "/tmp/cabinet-generations-test-XXXXXX";
        const int fd = mkstemp(tmpl);
        BOOST_REQUIRE(fd >= 0);
        ::close(fd);
        path = tmpl;
    }
    ~GenerationsFile() { ::unlink(path.c_str()); }
    // One pool process's cache, listening.
    std::unique_ptr<AccountCache> process(size_t budget_bytes = 1 << 20, int max_age_s = 300) const {
        auto c = std::make_unique<AccountCache>(std::make_unique<AccountGenerations>(path), budget_bytes,
                                                std::chrono::seconds(max_age_s));
        c->set_listening(true);
        return c;
    }
};

Account account(int64_t id, int64_t telegram_id, int64_t balance) {
    Account a;
    a.user.id = id;
    a.user.telegram_id = telegram_id;
    a.user.balance_minor = balance;
    a.catalog_version = 7;
    return a;
}

// What a request does on a miss: take the ticket, read, keep.
void load(const AccountCache& c, const Account& a) { c.keep_account(c.ticket_for_id(a.user.id), a); }

int64_t balance_of(const AccountCache& c, int64_t id) {
    const auto a = c.account_by_id(id);
    return a ? a->user.balance_minor : -1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(account_cache)

BOOST_AUTO_TEST_CASE(a_kept_account_is_answered_without_its_catalogue_version) {
    GenerationsFile f;
    const auto c = f.process();
    BOOST_TEST(!c->account_by_id(5).has_value());
    load(*c, account(5, 500, 100));
    const auto a = c->account_by_id(5);
    BOOST_REQUIRE(a.has_value());
    BOOST_TEST(a->user.balance_minor == 100);
    // The catalogue is then as fresh as its own listener keeps it, not pinned to version 7.
    BOOST_TEST(!a->catalog_version.has_value());
}

BOOST_AUTO_TEST_CASE(a_write_in_one_process_is_seen_by_the_other_at_once) {
    GenerationsFile f;
    const auto a = f.process();
    const auto b = f.process();
    load(*a, account(5, 500, 100));
    load(*b, account(5, 500, 100));
    load(*b, account(6, 600, 100));
    a->wrote(5);  // process a committed a write of user 5 and is about to answer
    BOOST_TEST(balance_of(*b, 5) == -1);
    BOOST_TEST(balance_of(*a, 5) == -1);
    BOOST_TEST(balance_of(*b, 6) == 100);  // another user's copy stays
    b->wrote_all();
    BOOST_TEST(balance_of(*b, 6) == -1);
}

BOOST_AUTO_TEST_CASE(a_load_that_raced_a_write_is_not_kept_as_fresh) {
    GenerationsFile f;
    const auto a = f.process();
    const auto b = f.process();
    // a takes its ticket, then b's write commits and is bumped, then a's (old) read arrives.
    const auto ticket = a->ticket_for_id(5);
    b->wrote(5);
    a->keep_account(ticket, account(5, 500, 100));
    BOOST_TEST(balance_of(*a, 5) == -1);
    load(*a, account(5, 500, 250));
    BOOST_TEST(balance_of(*a, 5) == 250);
    // A part read under the old stamp arriving after one read under the new: not kept, and
    // the good copy stays.
    a->keep_referral_stats(ticket, {1, 2});
    BOOST_TEST(!a->referral_stats(5).has_value());
    BOOST_TEST(balance_of(*a, 5) == 250);
}

BOOST_AUTO_TEST_CASE(notifications_name_users_or_everyone) {
    GenerationsFile f;
    const auto c = f.process();
    for (int64_t id : {1, 2, 3}) load(*c, account(id, id * 100, 10));
    c->notified("1,3");
    BOOST_TEST(balance_of(*c, 1) == -1);
    BOOST_TEST(balance_of(*c, 2) == 10);
    BOOST_TEST(balance_of(*c, 3) == -1);
    c->notified("*");
    BOOST_TEST(balance_of(*c, 2) == -1);
    load(*c, account(2, 200, 10));
    c->notified("2,x");  // what it cannot read forgets everything rather than nothing
    BOOST_TEST(balance_of(*c, 2) == -1);
    load(*c, account(2, 200, 10));
    c->notified("");
    BOOST_TEST(balance_of(*c, 2) == -1);
}

BOOST_AUTO_TEST_CASE(nothing_is_answered_while_the_listener_is_away_and_all_is_forgotten_after) {
    GenerationsFile f;
    const auto c = f.process();
    load(*c, account(5, 500, 100));
    c->set_listening(false);
    BOOST_TEST(balance_of(*c, 5) == -1);
    load(*c, account(5, 500, 200));  // not kept meanwhile
    c->set_listening(true);
    BOOST_TEST(balance_of(*c, 5) == -1);  // missed notifications: the old copy is gone too
}

BOOST_AUTO_TEST_CASE(by_telegram_id_the_first_load_teaches_the_user_and_a_moved_id_misses) {
    GenerationsFile f;
    const auto c = f.process();
    // Unknown telegram id: the ticket knows no user, so the load is not kept as an account...
    auto t = c->ticket_for_telegram_id(500);
    BOOST_TEST(t.user_id == 0);
    c->keep_account(t, account(5, 500, 100));
    BOOST_TEST(!c->account_by_telegram_id(500).has_value());
    // ...but the next one is.
    t = c->ticket_for_telegram_id(500);
    BOOST_TEST(t.user_id == 5);
    c->keep_account(t, account(5, 500, 100));
    BOOST_REQUIRE(c->account_by_telegram_id(500).has_value());
    BOOST_TEST(c->account_by_telegram_id(500)->user.id == 5);
    // Linking moved telegram id 500 to user 9 and user 5 now has 501: the index's hint fails.
    load(*c, account(5, 501, 100));
    BOOST_TEST(!c->account_by_telegram_id(500).has_value());
}

BOOST_AUTO_TEST_CASE(referral_and_traffic_parts_follow_the_same_stamps) {
    GenerationsFile f;
    const auto c = f.process();
    c->keep_referral_stats(c->ticket_for_id(5), {3, 4500});
    c->keep_traffic_series(c->ticket_for_id(5), {{20780, 10}, {20781, 20}});
    BOOST_REQUIRE(c->referral_stats(5).has_value());
    BOOST_TEST(c->referral_stats(5)->invited_count == 3);
    BOOST_REQUIRE(c->traffic_series(5).has_value());
    BOOST_TEST(c->traffic_series(5)->size() == 2u);
    c->keep_ended_sessions(c->ticket_for_id(5), {});
    BOOST_REQUIRE(c->ended_sessions(5).has_value());
    BOOST_TEST(c->ended_sessions(5)->empty());
    BOOST_TEST(!c->account_by_id(5).has_value());  // only what was kept
    c->notified("5");
    BOOST_TEST(!c->referral_stats(5).has_value());
    BOOST_TEST(!c->traffic_series(5).has_value());
    BOOST_TEST(!c->ended_sessions(5).has_value());
}

// A session ended in one process (its user's slot bumped) is refused by the other at once:
// the other's copy of "no session ended" is no longer served.
BOOST_AUTO_TEST_CASE(an_ended_session_reaches_the_other_process_before_the_answer) {
    GenerationsFile f;
    const auto here = f.process();
    const auto there = f.process();
    there->keep_ended_sessions(there->ticket_for_id(5), {});
    BOOST_REQUIRE(there->ended_sessions(5).has_value());
    here->wrote(5);
    BOOST_TEST(!there->ended_sessions(5).has_value());
    there->keep_ended_sessions(there->ticket_for_id(5), {"sid-1"});
    BOOST_REQUIRE(there->ended_sessions(5).has_value());
    BOOST_TEST((*there->ended_sessions(5) == std::vector<std::string>{"sid-1"}));
}

BOOST_AUTO_TEST_CASE(a_promo_discount_copy_ends_with_the_discount) {
    GenerationsFile f;
    const auto c = f.process();
    Account a = account(5, 500, 100);
    a.user.promo_discount_pct = 15;
    a.user.promo_discount_until = std::time(nullptr) - 1;  // ended a second ago
    load(*c, a);
    BOOST_TEST(!c->account_by_id(5).has_value());
    a.user.promo_discount_until = std::time(nullptr) + 3600;
    load(*c, a);
    BOOST_TEST(c->account_by_id(5).has_value());
}

BOOST_AUTO_TEST_CASE(the_cache_never_holds_more_than_its_budget_and_forgets_the_least_recently_used_first) {
    GenerationsFile f;
    // What one user takes (an account and the telegram index's line), from a roomy cache.
    const auto roomy = f.process();
    for (int64_t id = 1; id <= 16; ++id) load(*roomy, account(id, 1000 + id, id));
    const size_t per_user = roomy->bytes_held() / 16;
    BOOST_TEST(per_user > 100u);

    // Room for six and a half users in each of the 16 shards (user id mod 16).
    const size_t budget = per_user * 16 * 13 / 2;
    const auto c = f.process(budget);
    for (int64_t id = 1; id <= 64; ++id) load(*c, account(id, 1000 + id, id));  // four a shard
    for (int64_t id = 1; id <= 64; ++id) BOOST_TEST(balance_of(*c, id) == id);
    for (int64_t id = 1; id <= 16; ++id) BOOST_TEST(balance_of(*c, id) == id);  // used again
    for (int64_t id = 65; id <= 112; ++id) load(*c, account(id, 1000 + id, id));  // seven a shard
    BOOST_TEST(c->bytes_held() <= budget);
    for (int64_t id = 1; id <= 16; ++id) BOOST_TEST(balance_of(*c, id) == id);   // recently used
    for (int64_t id = 17; id <= 32; ++id) BOOST_TEST(balance_of(*c, id) == -1);  // the oldest
    for (int64_t id = 33; id <= 112; ++id) BOOST_TEST(balance_of(*c, id) == id);

    // Many more users, with their traffic series: the budget holds after every one.
    bool within = true;
    for (int64_t id = 113; id <= 3000; ++id) {
        load(*c, account(id, 1000 + id, id));
        c->keep_traffic_series(c->ticket_for_id(id), {{20780, id}, {20781, 2 * id}});
        within = within && c->bytes_held() <= budget;
    }
    BOOST_TEST(within);
    BOOST_TEST(balance_of(*c, 3000) == 3000);
    BOOST_TEST(c->traffic_series(3000).has_value());
    BOOST_TEST(balance_of(*c, 200) == -1);
}

// A process that once held many users shrinks back to those still in use (a copy that
// can no longer be served is freed as new ones come in), so its memory follows the users
// of the last ACCOUNT_CACHE_MAX_AGE_S, not the busiest hour since it started.
BOOST_AUTO_TEST_CASE(copies_past_their_age_or_behind_a_write_are_freed_as_new_ones_come) {
    GenerationsFile f;
    auto web_user = [](int64_t id) {  // no telegram index line: only the entries are counted
        Account a = account(id, 0, id);
        a.user.telegram_id.reset();
        return a;
    };
    // What 32 users take (two a shard), from a cache that only ever held them.
    const auto reference = f.process();
    for (int64_t id = 101; id <= 132; ++id) load(*reference, web_user(id));
    const size_t two_a_shard = reference->bytes_held();

    // Aged out: four users a shard, a second and a bit later 32 others come.
    const auto aged = f.process(1 << 20, 1);
    for (int64_t id = 1; id <= 64; ++id) load(*aged, web_user(id));
    BOOST_TEST(aged->bytes_held() == 2 * two_a_shard);
    ::usleep(1'100'000);
    for (int64_t id = 101; id <= 132; ++id) load(*aged, web_user(id));
    BOOST_TEST(aged->bytes_held() == two_a_shard);
    BOOST_TEST(balance_of(*aged, 132) == 132);

    // Behind a write: everyone was written since (another process's admin request).
    const auto written = f.process();
    for (int64_t id = 1; id <= 64; ++id) load(*written, web_user(id));
    written->wrote_all();
    for (int64_t id = 101; id <= 132; ++id) load(*written, web_user(id));
    BOOST_TEST(written->bytes_held() == two_a_shard);

    // Copies still good stay, however long unused.
    const auto kept = f.process();
    for (int64_t id = 1; id <= 64; ++id) load(*kept, web_user(id));
    for (int64_t id = 101; id <= 132; ++id) load(*kept, web_user(id));
    BOOST_TEST(kept->bytes_held() == 3 * two_a_shard);
    BOOST_TEST(balance_of(*kept, 1) == 1);
}

BOOST_AUTO_TEST_CASE(off_means_off) {
    GenerationsFile f;
    const AccountCache off(std::make_unique<AccountGenerations>(f.path), 0, std::chrono::seconds(300));
    off.set_listening(true);
    BOOST_TEST(!off.enabled());
    load(off, account(5, 500, 100));
    BOOST_TEST(!off.account_by_id(5).has_value());
    BOOST_TEST(off.bytes_held() == 0u);
}

BOOST_AUTO_TEST_CASE(an_unusable_generations_file_is_an_error_at_start) {
    BOOST_CHECK_THROW(AccountGenerations("/nonexistent-dir/cabinet-generations"), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
