#pragma once
// Telegram Stars payments on the bot webhook. pre_checkout_query is answered ok only for a
// pending Stars transaction with the exact amount; successful_payment marks it paid and
// queues its fulfilment (services/payment_confirmation), once however often Telegram
// repeats it; refunded_payment takes back what the payment bought (services/payment_refund).
// All run whatever the maintenance state and chat: money is never dropped.
#include "app/context.hpp"
#include "util/json.hpp"

namespace cabinet::bot {

void answer_pre_checkout(Exchange& ex, const rapidjson::Value& query);
void record_stars_payment(Exchange& ex, const rapidjson::Value& successful_payment);
void record_stars_refund(Exchange& ex, const rapidjson::Value& refunded_payment);

}  // namespace cabinet::bot
