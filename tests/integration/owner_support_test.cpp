// The owner's support inbox (issue 48; api/admin_support.cpp, services/support_admin.cpp):
// a customer's message is unread in the inbox and its counts until someone who may answer
// opens it; a web answer is stored as a group answer is, shown to the customer and queued
// for their Telegram chat (send_user_message), which the worker delivers once; a group
// answer shows in the web thread; what is refused writes nothing; one Idempotency-Key is
// one answer, also in parallel; close and reopen are audited. Every route's roles:
// staff_roles_test.
#include <boost/test/unit_test.hpp>

#include <set>
#include <thread>

#include "support.hpp"

using namespace it;

namespace {

constexpr int64_t kSupportTg = 100000002, kViewerTg = 100000003;

HttpResult as(int64_t staff_tg, const std::string& method, const std::string& path, const std::string& body = {},
              const std::string& key = {}) {
    std::vector<std::string> h = {tma_header(staff_tg, "Staff"), kJsonContentType};
    if (!key.empty()) h.push_back("Idempotency-Key: " + key);
    return http(method, path, h, body);
}

rapidjson::Document ok_json(const HttpResult& r) {
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    return r.json();
}

// A customer (with `name`) writes `text`; their ticket's id.
int64_t customer_writes(int64_t tg, const std::string& text, const std::string& name = "Test") {
    const auto r = http("POST", "/api/cabinet/support", {tma_header(tg, name), kJsonContentType}, text_body(text));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json()["ticket_id"].GetInt64();
}

rapidjson::Document counts() { return ok_json(as(kSupportTg, "GET", "/api/admin/support/counts")); }
std::string ticket_path(int64_t id, const std::string& tail = {}) { return "/api/admin/support/tickets/" + str(id) + tail; }

// The inbox's item for ticket `id` among a customer's tickets (found by Telegram id), or null.
rapidjson::Document item_of(int64_t tg, int64_t id, const std::string& status = "all") {
    auto page = ok_json(as(kViewerTg, "GET", "/api/admin/support/tickets?status=" + status + "&q=" + str(tg)));
    rapidjson::Document out;
    for (auto& it : page["items"].GetArray())
        if (it["id"].GetInt64() == id) out.CopyFrom(it, out.GetAllocator());
    return out;
}

int64_t messages_in(int64_t id) { return count("SELECT count(*) FROM support_messages WHERE ticket_id = " + str(id)); }
int64_t user_message_jobs(int64_t tg) {
    return count("SELECT count(*) FROM jobs WHERE kind = 'send_user_message' AND payload->>'telegram_id' = '" + str(tg) + "'");
}
}  // namespace

BOOST_AUTO_TEST_SUITE(owner_support)

BOOST_AUTO_TEST_CASE(a_customers_message_is_unread_until_support_opens_it) {
    const int64_t tg = fresh_telegram_id();
    const std::string name = "<img src=x onerror=alert(1)>";
    const auto before = counts();
    const int64_t id = customer_writes(tg, "<b>Help</b> my VPN is down", name);

    auto item = item_of(tg, id, "open");
    BOOST_REQUIRE(item.IsObject());
    BOOST_TEST(item["unread"].GetBool());
    BOOST_TEST(str(item["status"]) == "open");
    BOOST_TEST(item["message_count"].GetInt64() == 1);
    BOOST_TEST(item["customer"]["telegram_id"].GetInt64() == tg);
    BOOST_TEST(str(item["customer"]["first_name"]) == name);  // as text, as written
    BOOST_TEST(str(item["last_message"]["author"]) == "user");
    BOOST_TEST(str(item["last_message"]["text"]) == "<b>Help</b> my VPN is down");
    auto now = counts();
    BOOST_TEST(now["unread"].GetInt64() == before["unread"].GetInt64() + 1);
    BOOST_TEST(now["open"].GetInt64() == before["open"].GetInt64() + 1);

    // Unread tickets come before read ones, whatever their age.
    const auto page = ok_json(as(kSupportTg, "GET", "/api/admin/support/tickets?status=all&limit=200"));
    bool seen_read = false;
    for (const auto& it : page["items"].GetArray()) {
        if (!it["unread"].GetBool()) seen_read = true;
        else BOOST_TEST(!seen_read, "an unread ticket after a read one: #" << it["id"].GetInt64());
    }

    // A viewer's look leaves it unread; support opening it reads it.
    const auto viewed = ok_json(as(kViewerTg, "GET", ticket_path(id)));
    BOOST_TEST(viewed["unread"].GetBool());
    BOOST_TEST(item_of(tg, id)["unread"].GetBool());
    const auto opened = ok_json(as(kSupportTg, "GET", ticket_path(id)));
    BOOST_TEST(!opened["unread"].GetBool());
    BOOST_REQUIRE_EQUAL(opened["messages"].Size(), 1u);
    BOOST_TEST(str(opened["messages"][0]["text"]) == "<b>Help</b> my VPN is down");
    BOOST_TEST(str(opened["customer"]["first_name"]) == name);
    BOOST_TEST(opened["customer"]["id"].GetInt64() == user_id_of(tg));
    BOOST_TEST(opened["more_before"].IsNull());
    BOOST_TEST(!item_of(tg, id)["unread"].GetBool());
    BOOST_TEST(counts()["unread"].GetInt64() == now["unread"].GetInt64() - 1);

    // The customer writes again: unread again.
    customer_writes(tg, "Anyone?", name);
    BOOST_TEST(item_of(tg, id)["unread"].GetBool());
}

BOOST_AUTO_TEST_CASE(a_web_answer_reaches_the_customers_app_and_telegram_once) {
    const int64_t tg = fresh_telegram_id();
    const int64_t id = customer_writes(tg, "How do I pay by card?");
    const int64_t mark = journal_mark();
    const auto t = ok_json(as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("Choose <i>Bank card</i> when you buy.")));
    BOOST_TEST(str(t["status"]) == "waiting");
    BOOST_TEST(!t["unread"].GetBool());
    BOOST_REQUIRE_EQUAL(t["messages"].Size(), 2u);
    BOOST_TEST(str(t["messages"][1]["author"]) == "support");

    // The customer's app shows it.
    const auto mine = http("GET", "/api/cabinet/support", {tma_header(tg)});
    BOOST_REQUIRE_EQUAL(mine.status, 200);
    const auto doc = mine.json();
    BOOST_REQUIRE_EQUAL(doc["messages"].Size(), 2u);
    BOOST_TEST(str(doc["messages"][1]["from"]) == "support");
    BOOST_TEST(str(doc["messages"][1]["text"]) == "Choose <i>Bank card</i> when you buy.");
    BOOST_TEST(str(doc["status"]) == "waiting");

    // Queued with it, and delivered by the worker once.
    BOOST_TEST(user_message_jobs(tg) == 1);
    BOOST_REQUIRE(wait_until([&] { return !private_bot_messages_since(mark, tg).empty(); }, 15000));
    const auto sent = private_bot_messages_since(mark, tg);
    BOOST_REQUIRE_EQUAL(sent.size(), 1u);
    BOOST_TEST(sent[0] == "Support (ticket #" + str(id) + "):\nChoose <i>Bank card</i> when you buy.");
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE action = 'support.reply' AND actor = 'telegram:" + str(kSupportTg) +
                     "' AND entity = 'ticket:" + str(id) + "'") == 1);
}

BOOST_AUTO_TEST_CASE(a_group_answer_shows_in_the_web_thread) {
    const int64_t tg = fresh_telegram_id();
    const int64_t id = customer_writes(tg, "Is there a discount?");
    const std::string notified = "SELECT coalesce(max(notification_message_id), 0) FROM support_messages WHERE ticket_id = " + str(id);
    BOOST_REQUIRE(wait_until([&] { return count(notified) > 0; }, 15000));
    const int64_t answer = fresh_telegram_id();
    const auto r = bot_update(R"({"update_id":)" + str(answer) + R"(,"message":{"message_id":)" + str(answer) +
                              R"(,"date":1,"chat":{"id":-1001000000001,"type":"supergroup"},"message_thread_id":78,)"
                              R"("from":{"id":100000001,"is_bot":false,"first_name":"A"},"text":"Yes, code SPRING",)"
                              R"("reply_to_message":{"message_id":)" + str(count(notified)) +
                              R"(,"date":1,"chat":{"id":-1001000000001,"type":"supergroup"}}}})");
    BOOST_REQUIRE_EQUAL(r.status, 200);
    const auto t = ok_json(as(kViewerTg, "GET", ticket_path(id)));
    BOOST_REQUIRE_EQUAL(t["messages"].Size(), 2u);
    BOOST_TEST(str(t["messages"][1]["author"]) == "support");
    BOOST_TEST(str(t["messages"][1]["text"]) == "Yes, code SPRING");
    BOOST_TEST(str(t["status"]) == "waiting");
    BOOST_TEST(!t["unread"].GetBool());  // answered from the group: read
    BOOST_TEST(user_message_jobs(tg) == 1);  // the same path to the customer as a web answer
}

BOOST_AUTO_TEST_CASE(refused_input_writes_nothing) {
    const int64_t tg = fresh_telegram_id();
    const int64_t id = customer_writes(tg, "hello");
    const int64_t audit = count("SELECT coalesce(max(id), 0) FROM audit_log");
    const std::vector<std::pair<std::string, long>> bodies = {
        {text_body(""), 422}, {text_body(" \n\t "), 422}, {text_body(std::string(5000, 'x')), 422},
        {R"({"text": 42})", 400}, {R"({})", 400}, {R"({"text": null})", 400}, {"not json", 400}};
    for (const auto& [body, status] : bodies) {
        const auto r = as(kSupportTg, "POST", ticket_path(id, "/reply"), body);
        BOOST_TEST(r.status == status, body.substr(0, 40) << ": " << r.status << " " << r.body);
        BOOST_TEST(!detail(r).empty());
    }
    BOOST_TEST(as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("x"), std::string(101, 'k')).status == 400);
    BOOST_TEST(as(kSupportTg, "POST", ticket_path(999999999, "/reply"), text_body("hi")).status == 404);
    BOOST_TEST(as(kSupportTg, "POST", ticket_path(999999999, "/close")).status == 404);
    BOOST_TEST(as(kSupportTg, "POST", ticket_path(999999999, "/reopen")).status == 404);
    BOOST_TEST(as(kSupportTg, "GET", ticket_path(999999999)).status == 404);
    BOOST_TEST(as(kSupportTg, "GET", "/api/admin/support/tickets/abc").status == 404);
    BOOST_TEST(as(kSupportTg, "GET", "/api/admin/support/tickets?status=nope").status == 400);
    BOOST_TEST(as(kSupportTg, "GET", "/api/admin/support/tickets?cursor=1.2").status == 400);
    BOOST_TEST(as(kSupportTg, "GET", "/api/admin/support/tickets?limit=0").status == 400);
    BOOST_TEST(as(kSupportTg, "GET", "/api/admin/support/tickets?q=" + std::string(101, 'q')).status == 400);
    // A closed ticket takes no answer.
    BOOST_REQUIRE_EQUAL(as(kSupportTg, "POST", ticket_path(id, "/close")).status, 200);
    const auto late = as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("late"));
    BOOST_TEST(late.status == 409, late.body);
    BOOST_TEST(messages_in(id) == 1);
    BOOST_TEST(user_message_jobs(tg) == 0);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE id > " + str(audit) + " AND entity = 'ticket:" + str(id) +
                     "' AND action <> 'support.close'") == 0);
}

BOOST_AUTO_TEST_CASE(one_idempotency_key_is_one_answer_also_in_parallel) {
    const int64_t tg = fresh_telegram_id();
    const int64_t id = customer_writes(tg, "hello");
    const auto first = as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("Once"), "key-1");
    BOOST_REQUIRE_EQUAL(first.status, 200);
    const auto again = as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("Once"), "key-1");
    BOOST_TEST(again.status == 200, again.body);
    BOOST_TEST(again.json()["messages"].Size() == 2u);
    BOOST_TEST(messages_in(id) == 2);

    constexpr int kN = 8;
    std::vector<long> status(kN);
    std::vector<std::thread> threads;
    for (int i = 0; i < kN; ++i)
        threads.emplace_back([&, i] { status[i] = as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("Twice?"), "key-2").status; });
    for (auto& t : threads) t.join();
    for (int i = 0; i < kN; ++i) BOOST_TEST(status[i] == 200);
    BOOST_TEST(messages_in(id) == 3);
    BOOST_TEST(user_message_jobs(tg) == 2);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE action = 'support.reply' AND entity = 'ticket:" + str(id) + "'") == 2);
    // Without a key, each request is an answer.
    BOOST_REQUIRE_EQUAL(as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("Twice?")).status, 200);
    BOOST_TEST(messages_in(id) == 4);
}

BOOST_AUTO_TEST_CASE(close_and_reopen_are_audited_and_a_newer_ticket_wins) {
    const int64_t tg = fresh_telegram_id();
    const int64_t id = customer_writes(tg, "hello");
    BOOST_REQUIRE_EQUAL(as(kSupportTg, "POST", ticket_path(id, "/reply"), text_body("Hi!")).status, 200);
    auto t = ok_json(as(kAdminTelegramId, "POST", ticket_path(id, "/close")));
    BOOST_TEST(str(t["status"]) == "closed");
    BOOST_TEST(str(ok_json(as(kAdminTelegramId, "POST", ticket_path(id, "/close")))["status"]) == "closed");  // twice is fine
    t = ok_json(as(kSupportTg, "POST", ticket_path(id, "/reopen")));
    BOOST_TEST(str(t["status"]) == "waiting");  // support spoke last
    BOOST_TEST(str(ok_json(as(kSupportTg, "POST", ticket_path(id, "/reopen")))["status"]) == "waiting");
    const std::string audit = "SELECT count(*) FROM audit_log WHERE entity = 'ticket:" + str(id) + "' AND action = ";
    BOOST_TEST(count(audit + "'support.close' AND actor = 'telegram:" + str(kAdminTelegramId) + "'") == 1);
    BOOST_TEST(count(audit + "'support.reopen' AND actor = 'telegram:" + str(kSupportTg) + "'") == 1);
    // The customer's words reach the reopened ticket.
    BOOST_TEST(customer_writes(tg, "still here") == id);

    // Closed again, the customer writes: a new ticket; the old one cannot come back beside it.
    BOOST_REQUIRE_EQUAL(as(kSupportTg, "POST", ticket_path(id, "/close")).status, 200);
    const int64_t newer = customer_writes(tg, "new question");
    BOOST_TEST(newer != id);
    const auto refused = as(kSupportTg, "POST", ticket_path(id, "/reopen"));
    BOOST_TEST(refused.status == 409, refused.body);
    BOOST_TEST(detail(refused).find("#" + str(newer)) != std::string::npos, detail(refused));
    BOOST_TEST(str(ok_json(as(kSupportTg, "GET", ticket_path(id)))["status"]) == "closed");
    BOOST_TEST(count(audit + "'support.reopen'") == 1);
}

BOOST_AUTO_TEST_CASE(pages_of_the_inbox_and_of_a_long_thread) {
    // Three customers' tickets, found by name; two pages of two and one.
    const std::string tag = "Pager" + str(fresh_telegram_id());
    std::vector<int64_t> ids;
    for (int i = 0; i < 3; ++i) ids.push_back(customer_writes(fresh_telegram_id(), "page " + std::to_string(i), tag));
    std::set<int64_t> seen;
    std::string cursor;
    int pages = 0;
    do {
        const auto page = ok_json(as(kViewerTg, "GET", "/api/admin/support/tickets?status=open&limit=2&q=" + tag +
                                                           (cursor.empty() ? "" : "&cursor=" + cursor)));
        for (const auto& it : page["items"].GetArray()) BOOST_TEST(seen.insert(it["id"].GetInt64()).second);
        cursor = str(page["next_cursor"]);
        ++pages;
    } while (!cursor.empty() && pages < 5);
    BOOST_TEST(seen == std::set<int64_t>(ids.begin(), ids.end()));
    // Newest activity first among the unread.
    const auto first = ok_json(as(kViewerTg, "GET", "/api/admin/support/tickets?status=open&limit=1&q=" + tag));
    BOOST_TEST(first["items"][0]["id"].GetInt64() == ids[2]);

    // A thread of 250 messages: the newest 200, then the 50 before them.
    exec("INSERT INTO support_messages (ticket_id, author, text) SELECT " + str(ids[0]) +
         ", 'user', 'm ' || n FROM generate_series(1, 249) n ORDER BY n");
    const auto newest = ok_json(as(kSupportTg, "GET", ticket_path(ids[0])));
    BOOST_REQUIRE_EQUAL(newest["messages"].Size(), 200u);
    BOOST_TEST(str(newest["messages"][199]["text"]) == "m 249");
    BOOST_TEST(newest["message_count"].GetInt64() == 250);
    const std::string before = str(newest["more_before"]);
    BOOST_REQUIRE(!before.empty());
    const auto older = ok_json(as(kSupportTg, "GET", ticket_path(ids[0]) + "?before=" + before));
    BOOST_REQUIRE_EQUAL(older["messages"].Size(), 50u);
    BOOST_TEST(str(older["messages"][0]["text"]) == "page 0");
    BOOST_TEST(older["more_before"].IsNull());
}

BOOST_AUTO_TEST_SUITE_END()
