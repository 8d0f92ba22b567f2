// Bot API webhook bodies, api/bot/updates: parse_update() on any JSON value and parse_command()
// on the text it finds (or a button's data). Both promise never to throw; a command name is
// lower case, without a bot mention or whitespace, and its payload is trimmed.
#include <string>

#include "api/bot/updates.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view body = fuzz::as_text(data, size);
    rapidjson::Document doc;
    doc.Parse<cabinet::kStrictParse>(body.data(), body.size());
    if (doc.HasParseError()) return 0;
    const cabinet::bot::Update u = cabinet::bot::parse_update(doc);
    if (u.pre_checkout_query && !u.pre_checkout_query->IsObject()) fuzz::fail("pre_checkout_query is not an object");
    if (u.successful_payment && !u.successful_payment->IsObject()) fuzz::fail("successful_payment is not an object");
    if (u.message && u.message->text.find('\0') != std::string::npos) fuzz::fail("message text holds a NUL");
    std::string_view text = u.message ? std::string_view(u.message->text) : std::string_view();
    if (u.button) text = u.button->data;
    for (const std::string_view bot : {"", "cabinet_demo_bot"}) {
        const auto cmd = cabinet::bot::parse_command(text, bot);
        if (!cmd) continue;
        constexpr std::string_view kSpace = " \t\r\n";  // what the bot's trim() removes
        if (cmd->name.empty() || cmd->name.find_first_of(kSpace) != std::string::npos || cmd->name.find('@') != std::string::npos)
            fuzz::fail("command name empty, or holding whitespace or a bot mention");
        for (unsigned char c : cmd->name)
            if (c >= 'A' && c <= 'Z') fuzz::fail("command name not lower case");
        if (!cmd->payload.empty() && (kSpace.find(cmd->payload.front()) != std::string_view::npos ||
                                      kSpace.find(cmd->payload.back()) != std::string_view::npos))
            fuzz::fail("command payload not trimmed");
    }
    return 0;
}
