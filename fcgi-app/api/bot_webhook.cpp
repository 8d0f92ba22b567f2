// POST /bot/webhook: updates from the Telegram Bot API, checked by the secret token the Bot
// API sends in X-Telegram-Bot-Api-Secret-Token (set with setWebhook). What the bot does with
// them (Stars payments, /start, the maintenance stub, the admin menu) is api/bot/webhook.
#include "api/bot/webhook.hpp"
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "util/crypto.hpp"

namespace cabinet::api {
namespace {

void check_secret(const Exchange& ex) {
    const std::string& expected = ex.settings().bot_webhook_secret;
    if (expected.empty()) throw forbidden("bot webhook secret is not configured");
    // Compare digests: constant time whatever the lengths.
    if (!digest_equal(sha256(ex.req.telegram_secret_token), sha256(expected))) throw forbidden("bad webhook secret");
}

}  // namespace

void post_bot_webhook(Exchange& ex) {
    check_secret(ex);
    const JsonBody update(ex.req);
    bot::handle_update(ex, update);
    write_ok(ex);
}

}  // namespace cabinet::api
