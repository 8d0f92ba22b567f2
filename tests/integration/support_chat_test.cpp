// The support chat (issue 7; SPEC-GAPS "Cabinet shapes": GET/POST /support): one open
// ticket per user, also under parallel first messages; what is refused writes nothing;
// support's reply (cabinetctl support reply, the same core function the bot uses) shows in
// GET /support; every user message queues a notification for the tickets topic, which the
// worker delivers to the fake Bot API.
#include <boost/test/unit_test.hpp>

#include <thread>

#include "support.hpp"

using namespace it;

namespace {

HttpResult post_text(const std::string& auth, const std::string& body) {
    return http("POST", "/api/cabinet/support", {auth, "Content-Type: application/json"}, body);
}

rapidjson::Document support_of(const std::string& auth) {
    const auto r = http("GET", "/api/cabinet/support", {auth});
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json();
}

int64_t tickets_of(int64_t tg) { return count("SELECT count(*) FROM support_tickets WHERE user_id = " + str(user_id_of(tg))); }
int64_t messages_of(int64_t tg) {
    return count("SELECT count(*) FROM support_messages m JOIN support_tickets t ON t.id = m.ticket_id WHERE t.user_id = " +
                 str(user_id_of(tg)));
}
int64_t ticket_jobs(int64_t ticket_id) {
    return count("SELECT count(*) FROM jobs WHERE kind = 'send_report' AND payload->>'topic' = 'tickets'"
                 " AND payload->>'text' LIKE '%#" + str(ticket_id) + "\n%'");
}

// Texts the fake Bot API received for the tickets topic (REPORT_TOPIC_TICKETS=78 in the
// test stack) after journal entry `since`.
std::vector<std::string> ticket_notices_since(int64_t since) { return bot_messages_since(since, "-1001000000001", 78); }

}  // namespace

BOOST_AUTO_TEST_SUITE(support_chat)

BOOST_AUTO_TEST_CASE(no_ticket_is_nulls_and_an_empty_list) {
    const auto doc = support_of(tma_header(fresh_telegram_id()));
    BOOST_TEST(doc["ticket_id"].IsNull());
    BOOST_TEST(doc["status"].IsNull());
    BOOST_TEST_REQUIRE(doc["messages"].IsArray());
    BOOST_TEST(doc["messages"].Size() == 0u);
}

BOOST_AUTO_TEST_CASE(first_message_opens_a_ticket_the_second_appends_and_both_are_reported) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const int64_t seq = journal_mark();

    const auto first = post_text(auth, text_body("My VPN does not connect"));
    BOOST_TEST_REQUIRE(first.status == 200, first.body);
    const auto j1 = first.json();
    BOOST_TEST(j1["ok"].GetBool());
    const int64_t ticket = j1["ticket_id"].GetInt64();

    const auto second = post_text(auth, text_body("Still broken, пожалуйста помогите"));
    BOOST_TEST_REQUIRE(second.status == 200, second.body);
    BOOST_TEST(second.json()["ticket_id"].GetInt64() == ticket);

    const auto doc = support_of(auth);
    BOOST_TEST(doc["ticket_id"].GetInt64() == ticket);
    BOOST_TEST(std::string(doc["status"].GetString()) == "open");
    BOOST_TEST_REQUIRE(doc["messages"].Size() == 2u);
    BOOST_TEST(std::string(doc["messages"][0]["from"].GetString()) == "you");
    BOOST_TEST(std::string(doc["messages"][0]["text"].GetString()) == "My VPN does not connect");
    BOOST_TEST(std::string(doc["messages"][1]["text"].GetString()) == "Still broken, пожалуйста помогите");
    BOOST_TEST(std::string(doc["messages"][0]["at"].GetString()).back() == 'Z');
    BOOST_TEST(tickets_of(tg) == 1);

    // One send_report job per message, written with it; the worker delivers them. A
    // customer's message is owed an answer: it retries for hours, as money jobs do.
    BOOST_TEST(ticket_jobs(ticket) == 2);
    BOOST_TEST(count("SELECT min(max_attempts) FROM jobs WHERE kind = 'send_report' AND payload->>'topic' = 'tickets'"
                     " AND payload->>'text' LIKE '%#" + str(ticket) + "\n%'") == 20);
    BOOST_TEST_REQUIRE(wait_until([&] { return ticket_notices_since(seq).size() >= 2; }, 15000));
    bool new_ticket_seen = false;
    for (const auto& t : ticket_notices_since(seq)) {
        if (t.find("#" + str(ticket) + "\n") == std::string::npos) continue;
        BOOST_TEST(t.find("tg " + str(tg)) != std::string::npos, t);
        if (t.find("New ticket #" + str(ticket)) != std::string::npos) {
            new_ticket_seen = true;
            BOOST_TEST(t.find("My VPN does not connect") != std::string::npos, t);
        }
    }
    BOOST_TEST(new_ticket_seen);
}

BOOST_AUTO_TEST_CASE(twenty_parallel_first_messages_make_one_ticket) {
    const int64_t tg = fresh_telegram_id();  // not registered yet: the first contact races too
    const std::string auth = tma_header(tg);
    constexpr int kN = 20;
    std::vector<long> status(kN);
    std::vector<int64_t> ids(kN);
    std::vector<std::thread> threads;
    for (int i = 0; i < kN; ++i)
        threads.emplace_back([&, i] {
            const auto r = post_text(auth, text_body("parallel " + std::to_string(i)));
            status[i] = r.status;
            if (r.status == 200) ids[i] = r.json()["ticket_id"].GetInt64();
        });
    for (auto& t : threads) t.join();
    for (int i = 0; i < kN; ++i) {
        BOOST_TEST(status[i] == 200);
        BOOST_TEST(ids[i] == ids[0]);
    }
    BOOST_TEST(tickets_of(tg) == 1);
    BOOST_TEST(messages_of(tg) == kN);
    BOOST_TEST(support_of(auth)["messages"].Size() == static_cast<rapidjson::SizeType>(kN));
    // Exactly one of the twenty notifications announces a new ticket.
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'send_report' AND payload->>'topic' = 'tickets'"
                     " AND payload->>'text' LIKE 'New ticket #" + str(ids[0]) + "\n%'") == 1);
}

BOOST_AUTO_TEST_CASE(invalid_text_is_400_and_writes_nothing) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    support_of(auth);  // registers the user
    const std::vector<std::string> bodies = {
        text_body(""), text_body("   \n "), text_body(std::string(4097, 'x')),
        R"({"text": 42})", R"({"text": null})", R"({})", R"({"text": ["a"]})", "not json"};
    for (size_t i = 0; i < bodies.size(); ++i) {
        const auto r = post_text(auth, bodies[i]);
        BOOST_TEST(r.status == 400, "body " << i << ": " << r.status << " " << r.body);
        BOOST_TEST(r.json()["detail"].IsString());
    }
    BOOST_TEST(tickets_of(tg) == 0);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'send_report' AND payload->>'text' LIKE '%tg " + str(tg) + "%'") == 0);

    // The limit counts characters, not bytes: 4096 Cyrillic letters (8192 bytes) pass.
    std::string cyr;
    for (int i = 0; i < 4096; ++i) cyr += "\xD0\xB6";
    const auto ok = post_text(auth, text_body(cyr));
    BOOST_TEST(ok.status == 200, ok.body);
    BOOST_TEST(messages_of(tg) == 1);
}

BOOST_AUTO_TEST_CASE(support_reply_shows_as_support_and_sets_waiting_then_close) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const auto r = post_text(auth, text_body("How do I pay by card?"));
    BOOST_TEST_REQUIRE(r.status == 200, r.body);
    const int64_t ticket = r.json()["ticket_id"].GetInt64();

    const auto listed = run(ctl("support list --status open --limit 1000"));
    BOOST_TEST(listed.first == 0, listed.second);
    BOOST_TEST(listed.second.find("#" + str(ticket) + " ") != std::string::npos, listed.second);

    const auto reply = run(ctl("support reply " + str(ticket) + " 'Choose Bank card when you buy.'"));
    BOOST_TEST_REQUIRE(reply.first == 0, reply.second);
    // Every answer, whoever gives it, is queued for the user's Telegram chat.
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'send_user_message' AND payload->>'telegram_id' = '" + str(tg) +
                     "' AND payload->>'text' LIKE 'Support (ticket #" + str(ticket) + "):\nChoose Bank card%'") == 1);
    auto doc = support_of(auth);
    BOOST_TEST(std::string(doc["status"].GetString()) == "waiting");
    BOOST_TEST_REQUIRE(doc["messages"].Size() == 2u);
    BOOST_TEST(std::string(doc["messages"][1]["from"].GetString()) == "support");
    BOOST_TEST(std::string(doc["messages"][1]["text"].GetString()) == "Choose Bank card when you buy.");

    const auto shown = run(ctl("support show " + str(ticket)));
    BOOST_TEST(shown.first == 0, shown.second);
    BOOST_TEST(shown.second.find("Choose Bank card when you buy.") != std::string::npos, shown.second);
    BOOST_TEST(shown.second.find("tg " + str(tg)) != std::string::npos, shown.second);

    // The user's answer reopens it.
    BOOST_TEST(post_text(auth, text_body("Thanks!")).status == 200);
    BOOST_TEST(std::string(support_of(auth)["status"].GetString()) == "open");

    // Closed: GET shows nothing open, a reply is refused, the next message starts a new ticket.
    BOOST_TEST_REQUIRE(run(ctl("support close " + str(ticket))).first == 0);
    doc = support_of(auth);
    BOOST_TEST(doc["ticket_id"].IsNull());
    BOOST_TEST(run(ctl("support reply " + str(ticket) + " late")).first != 0);
    BOOST_TEST(run(ctl("support reply 999999999 hello")).first != 0);
    const auto again = post_text(auth, text_body("One more question"));
    BOOST_TEST_REQUIRE(again.status == 200, again.body);
    BOOST_TEST(again.json()["ticket_id"].GetInt64() != ticket);
    BOOST_TEST(tickets_of(tg) == 2);
    // Who answered and who closed is on record, once each.
    const std::string audit = "SELECT count(*) FROM audit_log WHERE actor = 'cabinetctl' AND entity = 'ticket:" + str(ticket) + "'";
    BOOST_TEST(count(audit + " AND action = 'support.reply'") == 1);
    BOOST_TEST(count(audit + " AND action = 'support.close'") == 1);
}

BOOST_AUTO_TEST_CASE(needs_authentication) {
    BOOST_TEST(http("GET", "/api/cabinet/support").status == 401);
    BOOST_TEST(http("POST", "/api/cabinet/support", {"Content-Type: application/json"}, text_body("hi")).status == 401);
}

// An admin answers from Telegram: a reply, in the reporting group, to the ticket's
// notification lands in the ticket and is passed on to the user; anyone else's reply and
// replies to other messages store nothing.
BOOST_AUTO_TEST_CASE(admin_reply_to_the_notification_in_the_group_answers_the_ticket) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE_EQUAL(post_text(auth, text_body("My VPN does not connect")).status, 200);
    const std::string notified_sql = "SELECT coalesce(max(m.notification_message_id), 0) FROM support_messages m"
                                     " JOIN support_tickets t ON t.id = m.ticket_id WHERE t.user_id = " + str(user_id_of(tg));
    BOOST_REQUIRE(wait_until([&] { return count(notified_sql) > 0; }, 15000));  // the worker sent it
    const int64_t notification = count(notified_sql);

    const auto group_reply = [&](int64_t from, int64_t reply_to, const std::string& text, int64_t id = fresh_telegram_id()) {
        return bot_update(R"({"update_id":)" + str(id) + R"(,"message":{"message_id":)" + str(id) +
                          R"(,"date":1,"chat":{"id":-1001000000001,"type":"supergroup"},"message_thread_id":78,)"
                          R"("from":{"id":)" + str(from) + R"(,"is_bot":false,"first_name":"A"},"text":)" + "\"" + text + "\"" +
                          R"(,"reply_to_message":{"message_id":)" + str(reply_to) + R"(,"date":1,"chat":{"id":-1001000000001,"type":"supergroup"}}}})");
    };
    const int64_t seq = journal_mark();
    // Not an admin, or not a reply to a notification: nothing is stored.
    BOOST_TEST(group_reply(fresh_telegram_id(), notification, "I am not support").status == 200);
    BOOST_TEST(group_reply(100000001, notification + 100000, "wrong message").status == 200);
    BOOST_TEST(messages_of(tg) == 1);
    // Message ids are unique per chat only: once the reporting group has moved, a reply in
    // the new group that quotes the same id is not an answer to this ticket.
    const std::string mine = " WHERE notification_message_id = " + str(notification) +
                             " AND ticket_id IN (SELECT id FROM support_tickets WHERE user_id = " + str(user_id_of(tg)) + ")";
    BOOST_TEST(count("SELECT count(*) FROM support_messages" + mine + " AND notification_chat_id = '-1001000000001'") == 1);
    exec("UPDATE support_messages SET notification_chat_id = '-1009999999999'" + mine);
    BOOST_TEST(group_reply(100000001, notification, "meant for a colleague").status == 200);
    BOOST_TEST(messages_of(tg) == 1);
    exec("UPDATE support_messages SET notification_chat_id = '-1001000000001'" + mine);

    const int64_t answer = fresh_telegram_id();
    BOOST_TEST(group_reply(100000001, notification, "Please update the app", answer).status == 200);
    // Telegram delivers the same update again (our answer to it was late): stored once.
    BOOST_TEST(group_reply(100000001, notification, "Please update the app", answer).status == 200);
    const auto doc = support_of(auth);
    BOOST_TEST(std::string(doc["status"].GetString()) == "waiting");
    BOOST_REQUIRE_EQUAL(doc["messages"].Size(), 2u);
    BOOST_TEST(std::string(doc["messages"][1]["from"].GetString()) == "support");
    BOOST_TEST(std::string(doc["messages"][1]["text"].GetString()) == "Please update the app");
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE action = 'support.reply' AND actor = 'telegram:100000001'"
                     " AND entity = 'ticket:" + str(doc["ticket_id"].GetInt64()) + "'") == 1);
    // The user gets it in Telegram through the worker (a send_user_message job, as for an
    // answer from the web inbox), once; the group a confirmation at once.
    const auto to_user = [&] {
        int n = 0;
        const auto calls = bot_api_calls("sendMessage", seq);
        for (const auto& c : calls.GetArray()) {
            const auto& m = c["json"];
            if (m.IsObject() && std::string(m["chat_id"].GetString()) == str(tg) &&
                std::string(m["text"].GetString()).find("Please update the app") != std::string::npos)
                ++n;
        }
        return n;
    };
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'send_user_message' AND payload->>'telegram_id' = '" + str(tg) + "'") == 1);
    BOOST_TEST(wait_until([&] { return to_user() >= 1; }, 15000));
    BOOST_TEST(to_user() == 1);
    bool confirmed = false;
    for (const auto& t : ticket_notices_since(seq))
        confirmed = confirmed || t.find("Answer stored in ticket #" + str(doc["ticket_id"].GetInt64()) + "; the bot sends it") == 0;
    BOOST_TEST(confirmed);
}

// A ticket is closed only by an operator, and the mini-app polls it every few seconds: the
// user's view holds its last 200 messages, not the whole history.
BOOST_AUTO_TEST_CASE(the_users_view_holds_the_last_two_hundred_messages) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE_EQUAL(post_text(auth, text_body("message 0")).status, 200);
    exec("INSERT INTO support_messages (ticket_id, author, text) SELECT t.id, 'user', 'message ' || n"
         " FROM support_tickets t, generate_series(1, 209) n WHERE t.user_id = " + str(user_id_of(tg)) + " ORDER BY n");
    const auto doc = support_of(auth);
    BOOST_REQUIRE_EQUAL(doc["messages"].Size(), 200u);
    BOOST_TEST(std::string(doc["messages"][0]["text"].GetString()) == "message 10");
    BOOST_TEST(std::string(doc["messages"][199]["text"].GetString()) == "message 209");
}

BOOST_AUTO_TEST_CASE(a_flood_of_messages_is_cut_off_per_user) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    for (int i = 0; i < 20; ++i) BOOST_REQUIRE_EQUAL(post_text(auth, text_body("msg " + std::to_string(i))).status, 200);
    const auto r = post_text(auth, text_body("one too many"));
    BOOST_TEST(r.status == 429);
    BOOST_TEST(r.headers.count("retry-after") == 1u);
    BOOST_TEST(messages_of(tg) == 20);
    // Another user is not affected.
    BOOST_TEST(post_text(tma_header(fresh_telegram_id()), text_body("hello")).status == 200);
}

BOOST_AUTO_TEST_SUITE_END()
