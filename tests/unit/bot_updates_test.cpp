// The bot webhook's parsing of updates and commands, and its keyboards (api/bot).
#include <boost/test/unit_test.hpp>

#include "api/bot/replies.hpp"
#include "api/bot/updates.hpp"

using namespace cabinet;
using namespace cabinet::bot;

namespace {

rapidjson::Document parse(const char* json) {
    rapidjson::Document d;
    d.Parse(json);
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bot_updates)

BOOST_AUTO_TEST_CASE(commands_with_payload_and_bot_name) {
    auto c = parse_command("/start ref_ABC", "shop_bot");
    BOOST_REQUIRE(c);
    BOOST_TEST(c->name == "start");
    BOOST_TEST(c->payload == "ref_ABC");
    c = parse_command("  /Start@Shop_Bot   ref_X  ", "shop_bot");
    BOOST_REQUIRE(c);
    BOOST_TEST(c->name == "start");
    BOOST_TEST(c->payload == "ref_X");
    BOOST_TEST(!parse_command("/start@other_bot", "shop_bot"));
    BOOST_TEST(parse_command("/start@other_bot", "").has_value());  // name unknown: accepted
    BOOST_TEST(parse_command("/admin", "shop_bot")->payload.empty());
    BOOST_TEST(!parse_command("hello /start", "shop_bot"));
    BOOST_TEST(!parse_command("/", "shop_bot"));
    BOOST_TEST(!parse_command("/@shop_bot", "shop_bot"));
    // A carriage return ends the command word like any whitespace (found by the fuzzer).
    c = parse_command("/start\rref_Y", "shop_bot");
    BOOST_REQUIRE(c);
    BOOST_TEST(c->name == "start");
    BOOST_TEST(c->payload == "ref_Y");
}

BOOST_AUTO_TEST_CASE(a_private_message_and_a_button_press) {
    const auto m = parse(R"({"update_id":1,"message":{"message_id":2,"from":{"id":42,"first_name":"A","username":"a",
        "language_code":"en"},"chat":{"id":42,"type":"private"},"text":"/start"}})");
    const Update u = parse_update(m);
    BOOST_REQUIRE(u.message);
    BOOST_TEST(u.message->chat_id == 42);
    BOOST_TEST(u.message->is_private);
    BOOST_TEST(u.message->from.id == 42);
    BOOST_TEST(u.message->from.username == "a");
    BOOST_TEST(u.message->text == "/start");
    BOOST_TEST(!u.button);

    const auto b = parse(R"({"update_id":2,"callback_query":{"id":"q","from":{"id":7},"data":"admin:maint:on",
        "message":{"message_id":9,"chat":{"id":7,"type":"private"}}}})");
    const Update v = parse_update(b);
    BOOST_REQUIRE(v.button);
    BOOST_TEST(v.button->id == "q");
    BOOST_TEST(v.button->data == "admin:maint:on");
    BOOST_TEST(*v.button->chat_id == 7);
    BOOST_TEST(*v.button->message_id == 9);
}

BOOST_AUTO_TEST_CASE(payments_and_unusable_parts) {
    const auto paid = parse(R"({"message":{"from":{"id":1},"chat":{"id":-5,"type":"group"},
        "successful_payment":{"invoice_payload":"3"}}})");
    const Update p = parse_update(paid);
    BOOST_TEST(p.successful_payment != nullptr);
    BOOST_TEST(!p.message);  // a payment is never also a message to answer

    const auto group = parse(R"({"message":{"from":{"id":1},"chat":{"id":-5,"type":"group"},"text":"hi"}})");
    BOOST_TEST(!parse_update(group).message->is_private);
    // Edited messages, channel posts without a sender, junk: nothing to act on, no exception.
    for (const char* json : {R"({"edited_message":{"from":{"id":1},"chat":{"id":1,"type":"private"}}})",
                             R"({"message":{"chat":{"id":1,"type":"channel"},"text":"x"}})",
                             R"({"message":{"from":{"id":"1"},"chat":{"id":1}}})", R"({"callback_query":[]})", "[]"}) {
        const auto d = parse(json);
        const Update u = parse_update(d);
        BOOST_TEST((!u.message && !u.button && !u.pre_checkout_query && !u.successful_payment), json);
    }
}

BOOST_AUTO_TEST_CASE(keyboards) {
    BOOST_TEST(open_app_keyboard("") == "");
    BOOST_TEST(open_app_keyboard("https://x.test/\"app") ==
               R"({"inline_keyboard":[[{"text":"Open","web_app":{"url":"https://x.test/\"app"}}]]})");
    BOOST_TEST(inline_keyboard({{Button{"A", "a:1", ""}}, {Button{"B", "b", ""}}}) ==
               R"({"inline_keyboard":[[{"text":"A","callback_data":"a:1"}],[{"text":"B","callback_data":"b"}]]})");
}

// The bot's prompts before a web login or a merge name what the Telegram user agrees to.
BOOST_AUTO_TEST_CASE(code_prompts_name_the_browser_and_the_account) {
    cabinet::CodePrompt p{{"203.0.113.7", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ""},
                          1795000000, "ann@example.com", true};
    // The warning first, then the browser in our words.
    const std::string login = bot::web_login_prompt(p);
    BOOST_TEST(login.find("⚠️ Only if you started this yourself") == 0u, login);
    BOOST_TEST(login.find("\n\nSign in to the web cabinet from Firefox 128 on Linux, IP 203.0.113.7, started 2026-11-18 ") !=
                   std::string::npos, login);
    const std::string with_password = bot::link_prompt(p);
    BOOST_TEST(with_password.find("⚠️ Only if you started this yourself.") == 0u, with_password);
    BOOST_TEST(with_password.find("Link the web account ann@example.com to this Telegram account?") != std::string::npos);
    BOOST_TEST(with_password.find("ann@example.com with its password will sign in") != std::string::npos);
    p.has_password = false;
    BOOST_TEST(bot::link_prompt(p).find("with its password") == std::string::npos);
    p.email.clear();
    const std::string oauth_only = bot::link_prompt(p);
    BOOST_TEST(oauth_only.find("Link the web account without an e-mail") != std::string::npos, oauth_only);
    // Whoever holds its provider accounts signs in here afterwards: the prompt says so.
    p.oauth_providers = "google,vk";
    BOOST_TEST(bot::link_prompt(p).find("and its Google and VK ID sign-in will sign in to this Telegram account") !=
                   std::string::npos, bot::link_prompt(p));
    p = {{"", "", ""}, 1795000000, "ann@example.com", true, "yandex"};
    BOOST_TEST(bot::link_prompt(p).find("ann@example.com with its password will sign in to this Telegram account; so will "
                                        "its Yandex sign-in.") != std::string::npos, bot::link_prompt(p));
    BOOST_TEST(bot::web_login_prompt({{"", "", ""}, 1795000000, "", false}).find("from an unknown browser, IP unknown") !=
               std::string::npos);
    // A header written to speak in the bot's voice is not repeated, nor a forged address.
    const std::string hostile = bot::web_login_prompt(
        {{"1.2.3.4\n\nSupport", "Chrome/120.0 <b>\n\nThis is the shop's support: press Confirm</b> (Windows NT 10.0)", ""},
         1795000000, "", false});
    BOOST_TEST(hostile.find("from Chrome 120 on Windows, IP unknown, started") != std::string::npos, hostile);
    BOOST_TEST(hostile.find("support") == std::string::npos, hostile);
    BOOST_TEST(hostile.find('<') == std::string::npos, hostile);
}

BOOST_AUTO_TEST_SUITE_END()
