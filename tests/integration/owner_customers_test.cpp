// The owner's customers (issue 48; api/admin_customers.cpp, services/customer_*): a
// customer is found by every handle an owner has of them; the card shows what the owner
// did, with the reason; money moves only through the ledger and time through the grant
// path (the panel's expiry with it); one Idempotency-Key does one thing however often and
// however concurrently it is sent; a refused action writes nothing; the CSV export is the
// list's rows, spreadsheet-safe.
#include <boost/test/unit_test.hpp>

#include <future>
#include <limits>
#include <sstream>

#include "catalog_support.hpp"
#include "money_support.hpp"
#include "staff_calls.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

namespace {

std::string action_path(int64_t id, const std::string& action) {
    return "/api/admin/customers/" + std::to_string(id) + "/" + action;
}

// The ids of a search's items, in order.
std::vector<int64_t> found(const std::string& query) {
    const auto r = owner("GET", "/api/admin/customers?" + query);
    BOOST_REQUIRE_MESSAGE(r.status == 200, "?" + query + " -> " + std::to_string(r.status) + " " + r.body);
    std::vector<int64_t> ids;
    const rapidjson::Document page = r.json();  // kept alive through the loop (ASan)
    for (const auto& c : page["items"].GetArray()) ids.push_back(c["id"].GetInt64());
    return ids;
}
bool finds(const std::string& query, int64_t id) {
    const auto ids = found(query);
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::string url_encoded(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.') out += static_cast<char>(c);
        else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

int64_t admin_action_rows(const std::string& key) {
    return count("SELECT count(*) FROM admin_actions WHERE idempotency_key = '" + key + "'");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(owner_customers)

BOOST_AUTO_TEST_CASE(a_customer_is_found_by_every_handle) {
    const Shopper s = subscribed_shopper(0, cabinet::unix_now() + 20 * kDay);
    const std::string tag = std::to_string(s.tg);
    const std::string name = "Zebrafinch" + tag;
    exec("UPDATE users SET username = 'Zfinch_" + tag + "', first_name = '" + name + "', last_name = 'Q',"
         " email = 'zfinch" + tag + "@example.test' WHERE id = " + str(s.id));
    const std::string url = [&] {
        pqxx::connection c(env("DATABASE_URL"));
        return std::string(pqxx::nontransaction(c).exec1("SELECT subscription_url FROM subscriptions WHERE user_id = " +
                                                         str(s.id))[0].c_str());
    }();
    const std::string short_id = url.substr(url.rfind('/') + 1);

    BOOST_TEST(found("q=" + tag) == std::vector<int64_t>{s.id});                       // Telegram id
    BOOST_TEST(found("q=" + str(s.id)).front() == s.id);                               // our id
    BOOST_TEST(found("q=" + url_encoded("@zfinch_" + tag)) == std::vector<int64_t>{s.id});  // @username, any case
    BOOST_TEST(found("q=" + url_encoded("ZFINCH" + tag + "@exa")) == std::vector<int64_t>{s.id});  // e-mail prefix
    BOOST_TEST(found("q=" + url_encoded(url)) == std::vector<int64_t>{s.id});          // the link
    BOOST_TEST(found("q=" + url_encoded(short_id)) == std::vector<int64_t>{s.id});     // its short id alone
    BOOST_TEST(found("q=" + url_encoded("ebrafinch" + tag.substr(0, 6))).size() >= 1u);  // a name fragment
    BOOST_TEST(finds("q=" + url_encoded("ebrafinch" + tag.substr(0, 6)), s.id));
    BOOST_TEST(found("q=" + url_encoded("zebrafinch" + tag + " q")) == std::vector<int64_t>{s.id});  // first + last

    // The filters: it is active, not trial, not without a subscription, not blocked.
    const std::string mine = "q=" + tag + "&status=";
    BOOST_TEST(finds(mine + "active", s.id));
    BOOST_TEST(!finds(mine + "trial", s.id));
    BOOST_TEST(!finds(mine + "expired", s.id));
    BOOST_TEST(!finds(mine + "none", s.id));
    BOOST_TEST(!finds(mine + "blocked", s.id));
    const int64_t newcomer = new_user();  // no subscription
    BOOST_TEST(finds("status=none&q=" + str(newcomer), user_id_of(newcomer)));
    exec("UPDATE subscriptions SET expire_at = now() - interval '1 day' WHERE user_id = " + str(s.id));
    BOOST_TEST(finds(mine + "expired", s.id));
    BOOST_TEST(!finds(mine + "active", s.id));
    exec("UPDATE subscriptions SET expire_at = now() + interval '20 days' WHERE user_id = " + str(s.id));

    // Joined between: today's customer is in today, not in a range that ended yesterday.
    const std::string today = shop_today();
    BOOST_TEST(finds("q=" + tag + "&joined_from=" + today + "&joined_to=" + today, s.id));
    BOOST_TEST(!finds("q=" + tag + "&joined_to=2020-01-01", s.id));

    // A promo group.
    Cleanup cleanup;
    cleanup.add("DELETE FROM promo_groups WHERE name = 'it-group-" + tag + "'");
    exec("INSERT INTO promo_groups (name, discount_pct) VALUES ('it-group-" + tag + "', 5)");
    BOOST_TEST(!finds("promo_group=it-group-" + tag, s.id));
    exec("UPDATE users SET promo_group_id = (SELECT id FROM promo_groups WHERE name = 'it-group-" + tag + "') WHERE id = " + str(s.id));
    BOOST_TEST(found("promo_group=it-group-" + tag) == std::vector<int64_t>{s.id});

    // Paging: newest first, each page after the last one's id.
    const auto first = owner("GET", "/api/admin/customers?limit=2").json();
    BOOST_REQUIRE(first["items"].Size() == 2u);
    const std::string cursor = first["next_cursor"].GetString();
    const auto second = found("limit=2&cursor=" + cursor);
    BOOST_REQUIRE(!second.empty());
    BOOST_TEST(second.front() < first["items"][1]["id"].GetInt64());

    // What cannot be searched is said, not guessed at.
    BOOST_TEST(owner("GET", "/api/admin/customers?q=ab").status == 422);
    BOOST_TEST(owner("GET", "/api/admin/customers?status=gone").status == 400);
    BOOST_TEST(owner("GET", "/api/admin/customers?joined_from=yesterday").status == 400);
    BOOST_TEST(owner("GET", "/api/admin/customers?limit=0").status == 400);
    BOOST_TEST(owner("GET", "/api/admin/customers?q=%25%25%25").json()["items"].Size() == 0u);  // LIKE's % is literal
    BOOST_TEST(as(support_auth(), "GET", "/api/admin/customers?q=" + tag).status == 200);
    BOOST_TEST(as(viewer_auth(), "GET", "/api/admin/customers?q=" + tag).status == 200);
    BOOST_TEST(as(tma_header(s.tg), "GET", "/api/admin/customers?q=" + tag).status == 403);
}

// Money only through the ledger, with the owner's reason on the row and in the audit log.
BOOST_AUTO_TEST_CASE(balance_moves_through_the_ledger_with_the_reason) {
    const Shopper s = new_shopper();
    const Books before = books(s);
    const auto added = owner("POST", action_path(s.id, "balance"), R"({"delta_minor": 12345, "reason": "refund by hand"})", new_key());
    BOOST_REQUIRE_MESSAGE(added.status == 200, added.body);
    BOOST_TEST(added.json()["customer"]["balance_minor"].GetInt64() == before.balance + 12345);
    const auto taken = owner("POST", action_path(s.id, "balance"), R"({"delta_minor": -345, "reason": "typo"})", new_key());
    BOOST_REQUIRE_MESSAGE(taken.status == 200, taken.body);
    const Books after = books(s);
    BOOST_TEST(after.balance == before.balance + 12000);
    BOOST_TEST(after.ledger_sum == after.balance);
    BOOST_TEST(after.ledger_rows == before.ledger_rows + 2);
    BOOST_TEST(get_as(s.tg, "/api/cabinet/me")["user"]["balance_minor"].GetInt64() == after.balance);

    // More than the balance holds: 422, nothing written, the key not spent.
    const int64_t audits = audit_rows();
    const std::string key = new_key();
    const auto over = owner("POST", action_path(s.id, "balance"), R"({"delta_minor": -999999999, "reason": "x"})", key);
    BOOST_TEST(over.status == 422);
    BOOST_TEST(detail(over).rfind("delta_minor", 0) == 0, detail(over));
    BOOST_TEST(books(s).balance == after.balance);
    BOOST_TEST(audit_rows() == audits);
    BOOST_TEST(admin_action_rows(key) == 0);

    // The card shows the rows, the reasons and who did it.
    const auto card = owner("GET", "/api/admin/customers/" + str(s.id)).json();
    BOOST_TEST(std::string(card["ledger"][0]["note"].GetString()) == "typo");
    BOOST_TEST(std::string(card["ledger"][1]["note"].GetString()) == "refund by hand");
    BOOST_TEST(std::string(card["ledger"][0]["reason"].GetString()) == "admin");
    BOOST_TEST(std::string(card["audit"][0]["action"].GetString()) == "customer.balance");
    BOOST_TEST(std::string(card["audit"][0]["actor"].GetString()) == "telegram:" + str(kAdminTelegramId));
    BOOST_TEST(std::string(card["audit"][0]["payload"]["reason"].GetString()) == "typo");
    BOOST_TEST(card["audit"][0]["payload"]["after_minor"].GetInt64() == after.balance);
}

BOOST_AUTO_TEST_CASE(bad_action_input_is_refused_and_writes_nothing) {
    const Shopper s = new_shopper();
    const int64_t audits = audit_rows();
    const Books before = books(s);
    for (const auto& [action, body] : std::vector<std::pair<std::string, std::string>>{
             {"balance", R"({"delta_minor": 0, "reason": "x"})"},
             {"balance", R"({"delta_minor": 100, "reason": ""})"},
             {"balance", R"({"delta_minor": 100})"},
             {"balance", R"({"delta_minor": "100", "reason": "x"})"},
             {"extend", R"({"days": 0, "reason": "x"})"},
             {"extend", R"({"days": 99999, "reason": "x"})"},
             {"extend", R"({"days": 5, "reason": "no subscription yet"})"},
             {"grant", R"({"days": 5, "plan_code": "no-such-plan", "reason": "x"})"},
             {"discount", R"({"personal_discount_pct": 101, "reason": "x"})"},
             {"promo-group", R"({"promo_group": "no-such-group", "reason": "x"})"},
             {"message", R"({"text": "", "reason": "x"})"},
             {"reset-link", R"({"reason": "no subscription yet"})"},
             {"unbind-device", R"({"hwid": "nope", "reason": "x"})"},
             {"block", R"([1])"}}) {
        const auto r = owner("POST", action_path(s.id, action), body, new_key());
        BOOST_TEST((r.status >= 400 && r.status < 500), action << " " << body << " -> " << r.status << " " << r.body);
        BOOST_TEST(!detail(r).empty());
    }
    BOOST_TEST(owner("POST", action_path(s.id, "block"), R"({"reason": "x"})").status == 400);  // no key
    BOOST_TEST(owner("POST", action_path(999999999, "block"), R"({"reason": "x"})", new_key()).status == 404);
    BOOST_TEST(owner("POST", action_path(s.id, "nonsense"), R"({"reason": "x"})", new_key()).status == 404);
    BOOST_TEST(audit_rows() == audits);
    const Books after = books(s);
    BOOST_TEST(after.balance == before.balance);
    BOOST_TEST(after.ledger_rows == before.ledger_rows);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + str(s.id) + " AND (is_blocked OR personal_discount_pct <> 0)") == 0);
}

// Time through the grant path: PostgreSQL and the panel move together, by exactly the days.
BOOST_AUTO_TEST_CASE(extend_and_grant_move_both_sides_by_the_days) {
    const int64_t expire = cabinet::unix_now() + 10 * kDay;
    const Shopper s = subscribed_shopper(0, expire);
    const auto r = owner("POST", action_path(s.id, "extend"), R"({"days": 7, "reason": "outage compensation"})", new_key());
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    Books b = books(s);
    BOOST_TEST(b.expire_at == expire + 7 * kDay);
    BOOST_TEST(b.panel_expire_at == b.expire_at);
    BOOST_TEST(count("SELECT count(*) FROM subscription_history WHERE user_id = " + str(s.id) + " AND source = 'admin' AND days = 7") == 1);

    const auto g = owner("POST", action_path(s.id, "grant"), R"({"plan_code": "standard", "days": 30, "reason": "gift"})", new_key());
    BOOST_REQUIRE_MESSAGE(g.status == 200, g.body);
    b = books(s);
    BOOST_TEST(b.expire_at == expire + 37 * kDay);
    BOOST_TEST(b.panel_expire_at == b.expire_at);

    // The panel down: 502, nothing here or there, and the same key works once it is back.
    const std::string key = new_key();
    panel_refuses_next("PATCH");
    const auto down = owner("POST", action_path(s.id, "extend"), R"({"days": 3, "reason": "x"})", key);
    panel_normal();
    BOOST_TEST(down.status == 502, down.body);
    BOOST_TEST(books(s).expire_at == b.expire_at);
    BOOST_TEST(books(s).panel_expire_at == b.expire_at);
    BOOST_TEST(admin_action_rows(key) == 0);
    const auto again = owner("POST", action_path(s.id, "extend"), R"({"days": 3, "reason": "x"})", key);
    BOOST_REQUIRE_MESSAGE(again.status == 200, again.body);
    BOOST_TEST(books(s).expire_at == b.expire_at + 3 * kDay);
}

// Two owners, or one double click: the same key sent eight times at once does it once and
// answers all eight alike; eight keys do it eight times. The sums are checked, not the answers.
BOOST_AUTO_TEST_CASE(one_key_sent_in_parallel_does_one_thing) {
    const int64_t expire = cabinet::unix_now() + 5 * kDay;
    const Shopper s = subscribed_shopper(0, expire);
    const Books before = books(s);
    constexpr int kParallel = 8;
    const auto send_all = [&](const std::string& action, const std::string& body, bool one_key) {
        const std::string shared = new_key();
        std::vector<std::future<HttpResult>> calls;
        for (int i = 0; i < kParallel; ++i)
            calls.push_back(std::async(std::launch::async, [&, i] {
                return owner("POST", action_path(s.id, action), body, one_key ? shared : shared + "-" + std::to_string(i));
            }));
        std::vector<HttpResult> out;
        for (auto& c : calls) out.push_back(c.get());
        return std::make_pair(shared, out);
    };
    const auto [key, answers] = send_all("balance", R"({"delta_minor": 1000, "reason": "race"})", true);
    int replays = 0;
    for (const auto& a : answers) {
        BOOST_TEST(a.status == 200, a.body);
        BOOST_TEST(a.body == answers[0].body);
        replays += a.headers.count("idempotent-replayed") ? 1 : 0;
    }
    BOOST_TEST(replays == kParallel - 1);
    Books b = books(s);
    BOOST_TEST(b.balance == before.balance + 1000);
    BOOST_TEST(b.ledger_rows == before.ledger_rows + 1);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE action = 'customer.balance' AND entity = 'user:" + str(s.id) + "'") == 1);

    send_all("balance", R"({"delta_minor": 1000, "reason": "eight"})", false);
    b = books(s);
    BOOST_TEST(b.balance == before.balance + 9000);
    BOOST_TEST(b.ledger_rows == before.ledger_rows + 9);
    BOOST_TEST(b.ledger_sum == b.balance);

    send_all("extend", R"({"days": 2, "reason": "race"})", true);
    b = books(s);
    BOOST_TEST(b.expire_at == expire + 2 * kDay);
    BOOST_TEST(b.panel_expire_at == b.expire_at);
    send_all("extend", R"({"days": 1, "reason": "eight"})", false);
    b = books(s);
    BOOST_TEST(b.expire_at == expire + 10 * kDay);
    BOOST_TEST(b.panel_expire_at == b.expire_at);

    // The key names one action: used again for another, it is refused.
    BOOST_TEST(owner("POST", action_path(s.id, "block"), R"({"reason": "x"})", key).status == 409);
}

BOOST_AUTO_TEST_CASE(blocked_customers_are_shut_out_until_unblocked) {
    const Shopper s = new_shopper();
    const auto blocked = as(support_auth(), "POST", action_path(s.id, "block"), R"({"reason": "chargeback fraud"})", new_key());
    BOOST_REQUIRE_MESSAGE(blocked.status == 200, blocked.body);
    BOOST_TEST(blocked.json()["customer"]["is_blocked"].GetBool());
    settle_caches();
    const auto me = http("GET", "/api/cabinet/me", {s.auth});
    BOOST_TEST(me.status == 403);
    BOOST_TEST(detail(me).find("blocked") != std::string::npos);
    BOOST_TEST(finds("status=blocked", s.id));
    BOOST_REQUIRE(as(support_auth(), "POST", action_path(s.id, "unblock"), R"({"reason": "cleared"})", new_key()).status == 200);
    settle_caches();
    BOOST_TEST(http("GET", "/api/cabinet/me", {s.auth}).status == 200);
    const auto card = owner("GET", "/api/admin/customers/" + str(s.id)).json();
    BOOST_TEST(std::string(card["audit"][0]["action"].GetString()) == "customer.unblock");
    BOOST_TEST(std::string(card["audit"][1]["payload"]["reason"].GetString()) == "chargeback fraud");
    BOOST_TEST(std::string(card["audit"][1]["actor"].GetString()) == "telegram:100000002");

    // Support may not touch money or time; the viewer may do nothing.
    BOOST_TEST(as(support_auth(), "POST", action_path(s.id, "balance"), R"({"delta_minor": 1, "reason": "x"})", new_key()).status == 403);
    BOOST_TEST(as(support_auth(), "POST", action_path(s.id, "extend"), R"({"days": 1, "reason": "x"})", new_key()).status == 403);
    BOOST_TEST(as(viewer_auth(), "POST", action_path(s.id, "block"), R"({"reason": "x"})", new_key()).status == 403);
    BOOST_TEST(as(viewer_auth(), "GET", "/api/admin/customers/" + str(s.id)).status == 200);
}

BOOST_AUTO_TEST_CASE(link_devices_discount_group_message_and_sync) {
    const Shopper s = subscribed_shopper(0, cabinet::unix_now() + 30 * kDay);
    const std::string sub_url = "SELECT subscription_url FROM subscriptions WHERE user_id = " + str(s.id);
    pqxx::connection c(env("DATABASE_URL"));
    const std::string old_url = pqxx::nontransaction(c).exec1(sub_url)[0].c_str();
    BOOST_REQUIRE(as(support_auth(), "POST", action_path(s.id, "reset-link"), R"({"reason": "leaked"})", new_key()).status == 200);
    BOOST_TEST(std::string(pqxx::nontransaction(c).exec1(sub_url)[0].c_str()) != old_url);

    const auto devices = owner("GET", "/api/admin/customers/" + str(s.id) + "/devices");
    BOOST_REQUIRE_MESSAGE(devices.status == 200, devices.body);
    BOOST_TEST(devices.json()["items"].IsArray());
    BOOST_REQUIRE(as(support_auth(), "POST", action_path(s.id, "reset-devices"), R"({"reason": "lost phone"})", new_key()).status == 200);
    BOOST_TEST(owner("GET", "/api/admin/customers/" + str(s.id) + "/devices").json()["items"].Size() == 0u);

    BOOST_REQUIRE(owner("POST", action_path(s.id, "discount"), R"({"personal_discount_pct": 15, "reason": "loyal"})", new_key()).status == 200);
    BOOST_TEST(count("SELECT personal_discount_pct FROM users WHERE id = " + str(s.id)) == 15);

    const std::string tag = std::to_string(s.tg);
    Cleanup cleanup;
    cleanup.add("DELETE FROM promo_groups WHERE name = 'it-vip-" + tag + "'");
    exec("INSERT INTO promo_groups (name, discount_pct) VALUES ('it-vip-" + tag + "', 10)");
    const auto grouped = owner("POST", action_path(s.id, "promo-group"), R"({"promo_group": "it-vip-)" + tag + R"(", "reason": "vip"})", new_key());
    BOOST_REQUIRE_MESSAGE(grouped.status == 200, grouped.body);
    BOOST_TEST(std::string(grouped.json()["customer"]["promo_group"].GetString()) == "it-vip-" + tag);
    BOOST_REQUIRE(owner("POST", action_path(s.id, "promo-group"), R"({"promo_group": null, "reason": "out"})", new_key()).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + str(s.id) + " AND promo_group_id IS NULL") == 1);

    // A message goes out through the worker's queue, once for its key.
    const std::string key = new_key();
    const std::string body = R"({"text": "Your server moved <b>today</b>", "reason": "notice"})";
    BOOST_REQUIRE(as(support_auth(), "POST", action_path(s.id, "message"), body, key).status == 200);
    BOOST_REQUIRE(as(support_auth(), "POST", action_path(s.id, "message"), body, key).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'send_user_message' AND dedupe_key = 'user_message:admin_action:" + key +
                     "' AND payload->>'text' = 'Your server moved <b>today</b>' AND (payload->>'telegram_id')::bigint = " +
                     str(s.tg)) == 1);

    // Sync: a worker job that mirrors the panel for this customer.
    const std::string sync_key = new_key();
    BOOST_REQUIRE(as(support_auth(), "POST", action_path(s.id, "sync"), R"({"reason": "check"})", sync_key).status == 200);
    BOOST_TEST(wait_until([&] {
        return count("SELECT count(*) FROM jobs WHERE kind = 'sync_user' AND status = 'done' AND dedupe_key = 'admin_action:" +
                     sync_key + "'") == 1;
    }, 30000));
}

// The export is the list's rows (every page of it), a cell that would start a formula
// defused, and is written as it is read.
BOOST_AUTO_TEST_CASE(the_csv_export_is_the_list_and_spreadsheet_safe) {
    const std::string tag = std::to_string(fresh_telegram_id());
    std::vector<int64_t> ids;
    for (int i = 0; i < 3; ++i) {
        const Shopper s = new_shopper();
        ids.push_back(s.id);
        exec("UPDATE users SET first_name = '=HYPERLINK(\"x\")', last_name = 'Csvtest" + tag + "', username = 'a,b\"c' WHERE id = " + str(s.id));
    }
    const auto r = owner("GET", "/api/admin/customers/export?q=csvtest" + tag);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(r.headers.at("content-type").rfind("text/csv", 0) == 0);
    BOOST_TEST(r.headers.at("content-disposition").find("attachment") != std::string::npos);
    std::istringstream lines(r.body);
    std::string line;
    std::getline(lines, line);
    BOOST_TEST(line.rfind("id,telegram_id,username,first_name,last_name,email,balance_minor", 0) == 0);
    std::vector<std::string> rows;
    while (std::getline(lines, line))
        if (!line.empty()) rows.push_back(line);
    BOOST_REQUIRE(rows.size() == 3u);
    BOOST_TEST(rows[0].rfind(str(ids[2]) + ",", 0) == 0);  // newest first, as the list
    BOOST_TEST(rows[0].find(R"X("a,b""c","'=HYPERLINK(""x"")",Csvtest)X") != std::string::npos, rows[0]);
    BOOST_TEST(as(support_auth(), "GET", "/api/admin/customers/export").status == 403);
    BOOST_TEST(as(viewer_auth(), "GET", "/api/admin/customers/export?q=csvtest" + tag).status == 200);

    // Longer than one of its batches (2000 rows a read): every customer once, in order.
    Cleanup cleanup;
    cleanup.add("DELETE FROM users WHERE last_name = 'Bulk" + tag + "'");
    exec("INSERT INTO users (telegram_id, first_name, last_name, referral_code)"
         " SELECT " + tag + "000 + i, 'Many', 'Bulk" + tag + "', 'BULK" + tag + "-' || i FROM generate_series(1, 4500) i");
    const auto all = owner("GET", "/api/admin/customers/export?q=bulk" + tag);
    BOOST_REQUIRE(all.status == 200);
    std::istringstream every(all.body);
    std::getline(every, line);
    int64_t rows_seen = 0, last = std::numeric_limits<int64_t>::max();
    bool ordered = true;
    while (std::getline(every, line)) {
        if (line.empty()) continue;
        const int64_t id = std::stoll(line.substr(0, line.find(',')));
        ordered = ordered && id < last;
        last = id;
        ++rows_seen;
    }
    BOOST_TEST(ordered);
    BOOST_TEST(rows_seen == 4500);
}

BOOST_AUTO_TEST_SUITE_END()
