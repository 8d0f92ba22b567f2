// cabinetctl sync-panel reads the panel's user list a page at a time and writes each page
// in one transaction (issue 17). What a user would notice stays as it was with one call
// per user: an expiry an admin changed on the panel shows up with its history row, a
// status changed there shows up without one, a grant that lands while the sync is under
// way is never overwritten by the older figure the sync read, and a subscription whose
// panel user is gone is reported, not changed.
#include <boost/test/unit_test.hpp>

#include "money_support.hpp"
#include "panel/panel_client.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

namespace {

std::string panel_uuid(const Shopper& s) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    return txn.exec_params1("SELECT panel_uuid::text FROM subscriptions WHERE user_id = $1", s.id)[0].c_str();
}

int64_t expire_at(const Shopper& s) {
    return count("SELECT floor(extract(epoch FROM expire_at))::bigint FROM subscriptions WHERE user_id = " + str(s.id));
}

std::string status(const Shopper& s) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    return txn.exec_params1("SELECT status FROM subscriptions WHERE user_id = $1", s.id)[0].c_str();
}

// The panel's expiry of the shopper's user set to `expire` (an admin's edit on the panel,
// or a grant's panel-first write); its limits as ours.
void set_panel_expiry(const Shopper& s, int64_t expire) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    const auto r = txn.exec_params1(
        "SELECT panel_uuid::text, traffic_limit_bytes, device_limit FROM subscriptions WHERE user_id = $1", s.id);
    BOOST_REQUIRE(panel().update_user(r[0].c_str(), {expire, r[1].as<int64_t>(), r[2].as<int64_t>(), true}));
}

int64_t sync_history_rows(const Shopper& s) {
    return count("SELECT count(*) FROM subscription_history WHERE source = 'panel_sync' AND user_id = " + str(s.id));
}

int64_t figures_today(const Shopper& s) {
    return count("SELECT count(*) FROM traffic_snapshots WHERE day = (now() AT TIME ZONE 'UTC')::date AND user_id = " +
                 str(s.id));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(panel_sync)

BOOST_AUTO_TEST_CASE(a_page_keeps_a_concurrent_grant_and_reports_a_gone_user) {
    const int64_t start = cabinet::unix_now() + 10 * kDay;
    const Shopper granted = subscribed_shopper(0, start);
    const Shopper extended = subscribed_shopper(0, start);
    const Shopper disabled = subscribed_shopper(0, start);
    const Shopper gone = subscribed_shopper(0, start);
    // What happened on the panel since the last sync: two expiries moved by an admin, a
    // user disabled, a user deleted.
    set_panel_expiry(granted, start + 2 * kDay);
    set_panel_expiry(extended, start + 5 * kDay);
    panel().disable_user(panel_uuid(disabled));
    const std::string gone_uuid = panel_uuid(gone);
    panel().delete_user(gone_uuid);
    const int64_t history_before = count("SELECT coalesce(max(id), 0) FROM subscription_history");

    // A grant for `granted` holds its lock (as every grant does from its read to its commit)
    // while the sync runs: the sync skips that user instead of waiting (a wait could end in
    // a deadlock with a purchase that locks its referrer after its panel call).
    pqxx::connection grant_conn(env("DATABASE_URL"));
    pqxx::work grant(grant_conn);
    grant.exec_params("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", granted.id);
    const auto [rc, out] = run(ctl("sync-panel"));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    BOOST_TEST(expire_at(granted) == start);  // not the panel's figure: left to the next run
    // Panel first, then the local commit, as a grant writes: 30 days on the old expiry.
    const int64_t granted_expiry = start + 30 * kDay;
    set_panel_expiry(granted, granted_expiry);
    grant.exec_params0("UPDATE subscriptions SET expire_at = to_timestamp($2) WHERE user_id = $1", granted.id,
                       granted_expiry);
    grant.commit();

    // The grant is kept: the sync's figure (start + 2 days) was never written over it.
    BOOST_TEST(expire_at(granted) == granted_expiry);
    BOOST_TEST(sync_history_rows(granted) == 0);
    BOOST_TEST(out.find("changed meanwhile 0,") == std::string::npos, out);
    // The others on the page are synced: the expiry with its history row, the status without.
    BOOST_TEST(expire_at(extended) == start + 5 * kDay);
    BOOST_TEST(count("SELECT count(*) FROM subscription_history WHERE source = 'panel_sync' AND user_id = " +
                     str(extended.id) + " AND expire_before = to_timestamp(" + str(start) +
                     ") AND expire_after = to_timestamp(" + str(start + 5 * kDay) + ") AND id > " +
                     str(history_before)) == 1);
    BOOST_TEST(sync_history_rows(extended) == 1);
    BOOST_TEST(status(disabled) == "disabled");
    BOOST_TEST(expire_at(disabled) == start);
    BOOST_TEST(sync_history_rows(disabled) == 0);
    BOOST_TEST(figures_today(extended) == 1);
    BOOST_TEST(figures_today(disabled) == 1);
    // The deleted panel user is reported and its subscription left as it was.
    BOOST_TEST(out.find("panel user " + gone_uuid + " is gone") != std::string::npos, out);
    BOOST_TEST(out.find("missing 0,") == std::string::npos, out);
    BOOST_TEST(expire_at(gone) == start);
    BOOST_TEST(status(gone) == "active");
    BOOST_TEST(figures_today(gone) == 0);

    // The next run mirrors what the grant left (the panel agrees with it): nothing new.
    BOOST_REQUIRE(run(ctl("sync-panel")).first == 0);
    BOOST_TEST(expire_at(granted) == granted_expiry);
    BOOST_TEST(sync_history_rows(granted) == 0);
    BOOST_TEST(sync_history_rows(extended) == 1);
}

BOOST_AUTO_TEST_CASE(one_user_by_id_is_synced_alone) {
    const int64_t start = cabinet::unix_now() + 10 * kDay;
    const Shopper one = subscribed_shopper(0, start);
    const Shopper other = subscribed_shopper(0, start);
    set_panel_expiry(one, start + 3 * kDay);
    set_panel_expiry(other, start + 4 * kDay);
    const auto [rc, out] = run(ctl("sync-panel --user-id " + str(one.id)));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    BOOST_TEST(out.find("synced 1, missing 0, changed meanwhile 0") != std::string::npos, out);
    BOOST_TEST(expire_at(one) == start + 3 * kDay);
    BOOST_TEST(sync_history_rows(one) == 1);
    BOOST_TEST(expire_at(other) == start);
    BOOST_TEST(sync_history_rows(other) == 0);
}

// An operator revoked the link on the panel (or a link reset's answer was lost): the link we
// hand out no longer works. The sync copies the panel's new one, and the happ crypto link
// made from the old one is dropped.
BOOST_AUTO_TEST_CASE(a_link_changed_on_the_panel_is_the_link_handed_out_after_a_sync) {
    const Shopper s = subscribed_shopper(0, cabinet::unix_now() + 10 * kDay);
    exec("UPDATE subscriptions SET crypto_link = 'happ://crypt/old' WHERE user_id = " + str(s.id));
    const auto before = http("GET", "/api/cabinet/connection", {s.auth});
    BOOST_REQUIRE_MESSAGE(before.status == 200, before.body);
    const std::string old_url = before.json()["subscription_url"].GetString();
    const cabinet::PanelUser revoked = panel().revoke_subscription(panel_uuid(s));
    BOOST_REQUIRE(!revoked.subscription_url.empty());
    BOOST_REQUIRE(revoked.subscription_url != old_url);

    const auto [rc, out] = run(ctl("sync-panel --user-id " + str(s.id)));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    const auto after = http("GET", "/api/cabinet/connection", {s.auth});
    BOOST_REQUIRE_MESSAGE(after.status == 200, after.body);
    BOOST_TEST(std::string(after.json()["subscription_url"].GetString()) == revoked.subscription_url);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE crypto_link = '' AND short_uuid = '" + revoked.short_uuid +
                     "' AND user_id = " + str(s.id)) == 1);
    BOOST_TEST(sync_history_rows(s) == 0);  // the expiry did not move
}

BOOST_AUTO_TEST_SUITE_END()
