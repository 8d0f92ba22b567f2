// Crypto Pay webhook bodies, payments/cryptobot: the signature check and the update parser.
// The first line is the crypto-pay-api-signature header, the rest the body. A body signed
// with our token must pass, any other signature must not; the parser never throws and what
// it accepts names an invoice, a currency and a non-negative amount.
#include <cctype>
#include <string>

#include "fuzz_input.hpp"
#include "payments/cryptobot.hpp"

namespace {
const std::string kToken = "12345:AAfuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view body = fuzz::as_text(data, size);
    const std::string_view signature = fuzz::take(body);
    const std::string good = cabinet::cryptobot_signature(kToken, body);
    if (!cabinet::cryptobot_signature_ok(kToken, body, good)) fuzz::fail("our own signature refused");
    if (cabinet::cryptobot_signature_ok(kToken, body, signature) && signature != good) {
        // Hex is case-insensitive; anything else that passes is a forgery.
        std::string lower(signature);
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower != good) fuzz::fail("a foreign signature passed");
    }
    if (cabinet::cryptobot_signature_ok("", body, signature)) fuzz::fail("an empty token accepted a signature");
    if (const auto u = cabinet::parse_cryptobot_update(body)) {
        if (u->invoice_id.empty() || u->currency.empty() || u->update_type.empty()) fuzz::fail("update missing a field");
        if (u->amount_minor < 0 || u->transaction_id < 0) fuzz::fail("update with a negative amount or id");
    }
    return 0;
}
