#pragma once
// Telegram Stars payments on the bot webhook. pre_checkout_query is answered ok only for a
// pending Stars transaction with the exact amount; successful_payment marks it paid and
// queues its fulfilment (services/payment_confirmation), once however often Telegram
// repeats it. Both run whatever the maintenance state and chat: money is never dropped.
#include "app/context.hpp"
#include "util/json.hpp"

namespace cabinet::bot {

void answer_pre_checkout(Exchange& ex, const rapidjson::Value& query);
void record_stars_payment(Exchange& ex, const rapidjson::Value& successful_payment);

}  // namespace cabinet::bot
