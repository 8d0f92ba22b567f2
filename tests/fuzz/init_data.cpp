// Telegram init data (Authorization: tma ...), auth/init_data. The first line picks the way in:
//   "raw"     the rest as the header carries it: nearly always stopped by the signature;
//   "signed"  the rest as key=value&... fields, signed with the bot token first, so the
//             parsing behind the signature (user JSON, auth_date, start_param) is reached.
// Only ApiError 401 may come out; whatever verify() accepts must be what the spec allows.
#include <string>
#include <utility>
#include <vector>

#include "auth/init_data.hpp"
#include "auth/init_data_signer.hpp"
#include "errors.hpp"
#include "fuzz_input.hpp"
#include "util/strings.hpp"

namespace {

// The bot token and time of tests/fixtures/init-data/vectors.json, so its signed cases
// (the raw seeds) pass the signature check as they are.
constexpr int64_t kNow = 1700000400;
const std::string kToken = "1234567890:TEST-fixture-token_abcdefghijklmnop";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const cabinet::InitDataVerifier verifier(kToken, 86400);
    std::string_view rest = fuzz::as_text(data, size);
    const std::string_view mode = fuzz::take(rest);
    std::string raw(rest);
    if (mode == "signed") {
        std::vector<std::pair<std::string, std::string>> fields;
        for (auto part : cabinet::split(rest, '&')) {
            const std::string_view key = fuzz::take(part, "=");
            fields.emplace_back(std::string(key), std::string(part));
        }
        raw = cabinet::sign_init_data_fields(kToken, std::move(fields));
    }
    try {
        const cabinet::InitData d = verifier.verify(raw, kNow);
        if (d.user.id <= 0) fuzz::fail("accepted a user without a positive id");
        if (d.auth_date <= 0 || d.auth_date > kNow + 60 || kNow - d.auth_date > 86400)
            fuzz::fail("accepted an auth_date outside the allowed window");
        if (d.start_param.size() > 512) fuzz::fail("start_param longer than 512 bytes");
        if (mode != "signed" && raw.find("hash=") == std::string::npos) fuzz::fail("accepted unsigned data");
    } catch (const cabinet::ApiError& e) {
        if (e.status() != 401) fuzz::fail("init data refused with a status other than 401");
    }
    return 0;
}
