// YooKassa on the wire, payments/yookassa: the webhook notification and the payment object
// read back from the API (the same parser serves both: fuzzed JSON stands for either).
// Neither may throw; what they accept carries a plausible id and a non-negative amount.
#include <string>

#include "fuzz_input.hpp"
#include "payments/yookassa.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view body = fuzz::as_text(data, size);
    if (const auto note = cabinet::parse_yookassa_notification(body)) {
        if (!cabinet::plausible_yookassa_id(note->payment_id)) fuzz::fail("notification with an implausible id");
    }
    rapidjson::Document doc;
    doc.Parse<cabinet::kStrictParse>(body.data(), body.size());
    if (doc.HasParseError()) return 0;
    const rapidjson::Value* object = &doc;
    if (doc.IsObject() && doc.HasMember("object")) object = &doc["object"];
    if (const auto p = cabinet::parse_yookassa_payment(*object)) {
        if (p->id.empty() || p->status.empty() || p->currency.empty()) fuzz::fail("payment without id/status/currency");
        if (p->amount_minor < 0 || p->transaction_id < 0) fuzz::fail("payment with a negative amount or id");
    }
    return 0;
}
