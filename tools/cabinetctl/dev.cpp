// Developer helpers: signed init data for curl and benchmarks.
#include <iostream>

#include "commands.hpp"
#include "auth/init_data_signer.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {

int dev_init_data(const Args& args) {
    const Settings s = load_or_die();
    int64_t tg = 0, auth_date = unix_now(), count = 1;
    if (!parse_int64(option(args, "--telegram-id"), tg) || tg <= 0) throw std::runtime_error("--telegram-id N is required");
    if (!parse_int64(option(args, "--auth-date", std::to_string(auth_date)), auth_date)) throw std::runtime_error("bad --auth-date");
    // --count K prints K lines for ids tg..tg+K-1 (benchmark input).
    if (!parse_int64(option(args, "--count", "1"), count) || count < 1) throw std::runtime_error("bad --count");
    for (int64_t i = 0; i < count; ++i) {
        TelegramUser u;
        u.id = tg + i;
        u.first_name = option(args, "--first-name", count > 1 ? "Bench " + std::to_string(u.id - 900000000) : "Demo");
        u.username = option(args, "--username", count > 1 ? "bench" + std::to_string(u.id - 900000000) : "");
        u.language_code = option(args, "--language-code", "en");
        std::cout << sign_init_data(s.bot_token, u, auth_date, option(args, "--start-param")) << "\n";
    }
    return 0;
}

}  // namespace cabinet::ctl
