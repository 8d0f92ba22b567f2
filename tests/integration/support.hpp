#pragma once
// Helpers for integration tests: they talk to the real stack that `tools/stack test`
// started (nginx -> pool -> PostgreSQL/Redis), never to in-process code paths.
#include <pqxx/pqxx>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "auth/init_data.hpp"
#include "util/json.hpp"

namespace it {

struct HttpResult {
    long status = 0;
    std::string body;
    std::map<std::string, std::string> headers;  // lower-case names
    rapidjson::Document json() const;
};

std::string env(const char* name);
std::string base_url();

HttpResult http(const std::string& method, const std::string& path,
                const std::vector<std::string>& headers = {}, const std::string& body = {});
// Same, to a full URL (the mock panel, a subscription link).
HttpResult http_url(const std::string& method, const std::string& url,
                    const std::vector<std::string>& headers = {}, const std::string& body = {});

// The same, sent from another loopback address (127.0.0.2 ...): a second client, as nginx
// and the app see it.
HttpResult http_from(const std::string& source_ip, const std::string& method, const std::string& path,
                     const std::vector<std::string>& headers = {}, const std::string& body = {});
HttpResult http_url_from(const std::string& source_ip, const std::string& method, const std::string& url,
                         const std::vector<std::string>& headers = {}, const std::string& body = {});

// A URL of the mock panel (PANEL_PORT).
std::string mock_panel_url(const std::string& path);
// A URL of the fakes (tests/fakes/server.mjs: gateways, Bot API, journal) on FAKES_PORT.
std::string fake_url(const std::string& path);
// The newest sequence number in the fakes' journal (0 when empty): calls after it are new.
int64_t journal_mark();
// The fake Bot API's calls of `method` (sendMessage, ...) after journal entry `since`, oldest
// first: a JSON array of journal entries, each with the call's fields in "json".
rapidjson::Document bot_api_calls(const std::string& method, int64_t since);
// POST /bot/webhook as Telegram sends it, with the stack's secret token unless told otherwise.
HttpResult bot_update(const std::string& json, const std::string& secret = env("BOT_WEBHOOK_SECRET"));

// The header of a JSON body, alone and as a request's only header.
inline const std::string kJsonContentType = "Content-Type: application/json";
inline const std::vector<std::string> kJsonHeaders = {kJsonContentType};

// The test stack's admin (ADMIN_IDS; the demo user of sql/demo.sql).
inline constexpr int64_t kAdminTelegramId = 100000001;

// "Authorization: tma ..." for a Telegram user, signed with the stack's BOT_TOKEN. Each
// call gives another header (a query_id of its own, as each opening of the app has); nginx
// sends all of a Telegram user's requests to one pool process whatever the header
// (nginx/cabinet_http.conf): requests that must reach every process go past it
// (pool_direct.hpp).
std::string tma_header(int64_t telegram_id, const std::string& first_name = "Test",
                       const std::string& start_param = {}, int64_t auth_date = 0);
std::string tma_header_for(const cabinet::TelegramUser& u, const std::string& start_param = {}, int64_t auth_date = 0);
// A fresh Telegram id no other test uses.
int64_t fresh_telegram_id();
// The admin's "Authorization: tma ..." header.
std::string admin_auth();

// Returns once every pool process's change listener has handled what was notified before
// (cache/account_cache.hpp): writes made outside the pool (the tests' SQL, cabinetctl, the
// worker) reach the pool's account and catalogue copies through NOTIFY, a few milliseconds
// late at most, and a test reads them back at once. exec, count and run call it.
void settle_caches(pqxx::connection& conn);
void settle_caches();

// One statement on a new connection (the stack's database may have been restarted by an
// earlier test): `exec` commits, `count` returns the first column of the first row.
void exec(const std::string& sql);
int64_t count(const std::string& sql);
// The status of transaction `id` as stored ("pending", "completed", ...).
std::string transaction_status(int64_t id);
// Numbers spliced into SQL and paths.
inline std::string str(int64_t v) { return std::to_string(v); }
// A JSON value's text when it is a string, else "".
inline std::string str(const rapidjson::Value& v) { return v.IsString() ? v.GetString() : ""; }
// The "detail" of an error answer, "" when it has none.
std::string detail(const HttpResult& r);
// A subquery giving the users.id of Telegram user `tg`, for SQL about that user.
inline std::string uid_of(int64_t tg) { return "(SELECT id FROM users WHERE telegram_id = " + std::to_string(tg) + ")"; }
// The users.id of Telegram user `tg`.
inline int64_t user_id_of(int64_t tg) { return count("SELECT id FROM users WHERE telegram_id = " + str(tg)); }
// Telegram user `tg`'s balance in minor units, as PostgreSQL has it.
int64_t balance_of(int64_t tg);
// Whole days from now to the expiry of `tg`'s subscription (rounded: a grant counts from
// the moment of its lock); 0 without one.
int64_t days_left(int64_t tg);
// Rows of the audit log matching an SQL condition.
int64_t audit_rows(const std::string& where = "true");
// POST /purchase of the standard plan for 30 days (sql/demo.sql) with `method`, and an
// Idempotency-Key when one is given.
HttpResult buy_standard(const std::string& auth, const std::string& method, const std::string& idempotency_key = {});
// YooKassa (the fake) says the payment of `transaction_id` succeeded, and its notification
// is posted as YooKassa would: the webhook's answer.
HttpResult yookassa_pays(int64_t transaction_id);
// Sets a user's balance as an operator does: through the ledger (ledger_set_balance), since
// the database refuses a balance change without its ledger row.
void set_balance(int64_t telegram_id, int64_t minor);

// The constructor's first period and first traffic pack, as GET /constructor lists them for
// this caller (the shop in SALES_MODE=constructor), and the price of both together.
struct ConstructorChoice {
    int64_t period_id = 0, pack_id = 0, days = 0, gb = 0, price_minor = 0;
    // The POST /purchase body that buys them from the balance.
    std::string purchase_body() const;
};
ConstructorChoice first_constructor_choice(const std::string& auth);

// Runs a shell command; exit code and combined output.
std::pair<int, std::string> run(const std::string& command);
// The shell command for `tools/stack ctl ARGS` (cabinetctl with this stack's settings).
std::string ctl(const std::string& args);

// tools/stack svc start|stop NAME for this test stack.
void stack_svc(const std::string& action, const std::string& name, const std::string& extra_env = {});
// Restarts the pool with a few settings changed ("A=1 B=2"), and with the stack's own
// settings again when it goes out of scope.
struct PoolWith {
    explicit PoolWith(const std::string& extra_env);
    ~PoolWith();
    PoolWith(const PoolWith&) = delete;
    PoolWith& operator=(const PoolWith&) = delete;
};

// The texts of the sendMessage calls to `chat_id` / topic `thread_id` that the fake Bot
// API received after journal entry `since` (journal_mark()).
std::vector<std::string> bot_messages_since(int64_t since, const std::string& chat_id, int64_t thread_id);
// The same for the private chat of Telegram user `tg` (the bot's messages to a customer).
std::vector<std::string> private_bot_messages_since(int64_t since, int64_t tg);
// {"text": TEXT} as JSON (a support message or answer).
std::string text_body(const std::string& text);

// Polls GET path until it answers `status` (or fails the test after `tries` * 100 ms).
bool wait_for_status(const std::string& path, long status, int tries = 100);
bool wait_for_status_url(const std::string& url, long status, int tries = 100);
// Sleeps until every pool thread has dropped its cached maintenance state
// (MAINTENANCE_CACHE_TTL_MS of the stack, plus a margin).
void wait_for_maintenance_cache();
// Polls `cond` every 50 ms until it holds or `timeout_ms` passed; its last answer.
bool wait_until(const std::function<bool()>& cond, int timeout_ms);

// The token of the verification link in the `nth` mail (from 1) the fake SMTP server got
// for `to`, waited for (the worker sends it); fails the test when none comes.
std::string mailed_verification_token(const std::string& to, size_t nth = 1);

// nginx's access log of the stack, whole; and the line of one request (found by its
// `rid=`), waited for, since the stack's log is written in batches (flush=1s); "" if none.
std::string nginx_access_log();
std::string access_log_line(const std::string& request_id, int timeout_ms = 5000);

}  // namespace it
