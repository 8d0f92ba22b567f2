// The `send_user_message` job (services/user_messages.hpp) against the running worker: it
// sends one bot message to the customer's chat, once; Telegram's final refusals (the
// customer blocked the bot) end it without retries, with the reason on the job row.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include "support.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

std::string fresh_text(const std::string& what) {
    static int n = 0;
    return what + "-" + std::to_string(cabinet::unix_now()) + "-" + std::to_string(getpid()) + "-" + std::to_string(++n);
}

int64_t enqueue_user_message(int64_t tg, const std::string& text) {
    const auto [rc, out] = run(ctl("jobs enqueue send_user_message '{\"telegram_id\":" + str(tg) + ",\"text\":\"" + text +
                                   "\",\"ref\":\"test:" + text + "\"}'"));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    return std::stoll(out);
}

bool job_is(int64_t id, const std::string& cond) {
    return count("SELECT count(*) FROM jobs WHERE id = " + str(id) + " AND " + cond) == 1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(user_messages)

BOOST_AUTO_TEST_CASE(the_worker_sends_one_message_to_the_customers_chat) {
    const int64_t tg = fresh_telegram_id();
    const std::string text = fresh_text("hello");
    const int64_t mark = journal_mark();
    const int64_t id = enqueue_user_message(tg, text);
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'done'"); }, 15000));
    const auto sent = private_bot_messages_since(mark, tg);
    BOOST_REQUIRE_EQUAL(sent.size(), 1u);
    BOOST_TEST(sent[0] == text);
}

BOOST_AUTO_TEST_CASE(a_customer_who_blocked_the_bot_is_not_retried) {
    const int64_t tg = fresh_telegram_id();
    const std::string text = fresh_text("blocked");
    BOOST_REQUIRE(http_url("POST", fake_url("/__fake/fail"), kJsonHeaders,
                           R"({"service":"telegram","count":1,"status":403,"body":{"ok":false,"error_code":403,)"
                           R"("description":"Forbidden: bot was blocked by the user"}})").status == 200);
    const int64_t id = enqueue_user_message(tg, text);
    const bool done = wait_until([&] { return job_is(id, "status = 'done'"); }, 15000);
    http_url("DELETE", fake_url("/__fake/fail"));
    BOOST_REQUIRE(done);
    BOOST_TEST(job_is(id, "attempts = 1 AND payload->>'undelivered' LIKE '%403%'"));
}

BOOST_AUTO_TEST_SUITE_END()
