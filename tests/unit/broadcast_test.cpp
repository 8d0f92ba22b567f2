// The pure parts of the owner's broadcasts: Telegram's HTML as the Bot API takes it
// (domain/telegram_html.hpp), the pacing of messages (telegram/send_pacer.hpp) and what a Bot API
// answer means for a recipient (telegram/message_delivery.hpp).
#include <boost/test/unit_test.hpp>

#include "domain/telegram_html.hpp"
#include "telegram/message_delivery.hpp"
#include "telegram/send_pacer.hpp"

using namespace cabinet;
using namespace std::chrono_literals;

namespace {

std::string refusal(const std::string& html) {
    try {
        parse_telegram_html(html);
    } catch (const TelegramHtmlError& e) {
        return e.what();
    }
    return "";
}

std::string tree(const std::string& html) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    write_html_nodes(w, parse_telegram_html(html));
    return buf.GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(broadcast)

BOOST_AUTO_TEST_CASE(telegram_html_is_read_as_the_bot_api_reads_it) {
    BOOST_TEST(tree("<b>Hi</b> &amp; <a href=\"https://x.y/?a=1&amp;b=2\">you</a>") ==
               R"([{"tag":"b","children":[{"text":"Hi"}]},{"text":" & "},{"tag":"a","href":"https://x.y/?a=1&b=2","children":[{"text":"you"}]}])");
    BOOST_TEST(tree("<strong>a</strong><em>b</em><ins>c</ins><del>d</del><span class=\"tg-spoiler\">e</span>") ==
               R"([{"tag":"b","children":[{"text":"a"}]},{"tag":"i","children":[{"text":"b"}]},{"tag":"u","children":[{"text":"c"}]},{"tag":"s","children":[{"text":"d"}]},{"tag":"tg-spoiler","children":[{"text":"e"}]}])");
    BOOST_TEST(tree("<pre><code class=\"language-cpp\">int x;</code></pre>") ==
               R"([{"tag":"pre","children":[{"tag":"code","children":[{"text":"int x;"}]}]}])");
    BOOST_TEST(tree("<blockquote expandable>q</blockquote>") == R"([{"tag":"blockquote","children":[{"text":"q"}]}])");
    BOOST_TEST(tree("&lt;b&gt; &#65;&#x42; &quot;") == R"([{"text":"<b> AB \""}])");
    BOOST_TEST(tree("Tom & Jerry") == R"([{"text":"Tom & Jerry"}])");  // a lone & is text, as Telegram takes it
    BOOST_TEST(tree("<B>caps</B>") == R"([{"tag":"b","children":[{"text":"caps"}]}])");
}

BOOST_AUTO_TEST_CASE(what_telegram_refuses_is_refused_with_where) {
    BOOST_TEST(refusal("<b>open") == "<b> is never closed (at character 8)");
    BOOST_TEST(refusal("<b><i>x</b></i>") == "</b> comes before </i>: tags must close in order (at character 12)");
    BOOST_TEST(refusal("x</b>") == "</b> closes nothing open (at character 6)");
    BOOST_TEST(refusal("1 < 2").find("a \"<\" that starts no tag: write &lt;") == 0);
    BOOST_TEST(refusal("<script>x</script>").find("<script> is not a tag Telegram formats") == 0);
    BOOST_TEST(refusal("<img src=x onerror=alert(1)>").find("<img> is not a tag") == 0);
    BOOST_TEST(refusal("<a href=\"javascript:alert(1)\">x</a>").find("<a> needs href") == 0);
    BOOST_TEST(refusal("<a>x</a>").find("<a> needs href") == 0);
    BOOST_TEST(refusal("<b onclick=\"x\">x</b>").find("<b> takes no attribute onclick") == 0);
    BOOST_TEST(refusal("<span>x</span>").find("<span> is formatted only as") == 0);
    BOOST_TEST(refusal("<code><b>x</b></code>").find("<code> holds text only") == 0);
    BOOST_TEST(refusal("<a href=\"https://a.b\"><a href=\"https://a.b\">x</a></a>").find("<a> cannot be inside another") == 0);
    BOOST_TEST(refusal("&nbsp;").find("&nbsp; is not an entity Telegram knows") == 0);
    BOOST_TEST(refusal("&#0;").find("&#0; is not a character") == 0);
    BOOST_TEST(refusal("&#xD800;").find("is not a character") != std::string::npos);
    BOOST_TEST(refusal("<b").find("is never finished") != std::string::npos);
    BOOST_TEST(refusal("<tg-emoji emoji-id=\"x\">e</tg-emoji>").find("emoji-id") != std::string::npos);
    BOOST_TEST(refusal("Привет, <b>мир</b>!") == "");
}

BOOST_AUTO_TEST_CASE(the_length_is_telegrams_and_blank_text_shows_nothing) {
    BOOST_TEST(telegram_text_length(parse_telegram_html("<b>News</b> for &lt;you&gt;")) == 14u);
    BOOST_TEST(telegram_text_length(parse_telegram_html("Привет")) == 6u);
    BOOST_TEST(telegram_text_length(parse_telegram_html("\xF0\x9F\x98\x80")) == 2u);  // an emoji: two UTF-16 units
    BOOST_TEST(!has_visible_text(parse_telegram_html(" <b> </b>\n")));
    BOOST_TEST(has_visible_text(parse_telegram_html("<i>x</i>")));
}

BOOST_AUTO_TEST_CASE(a_button_links_over_http_only) {
    BOOST_TEST(is_button_url("https://example.com/a?b=c"));
    BOOST_TEST(is_button_url("http://example.com"));
    BOOST_TEST(!is_button_url("javascript:alert(1)"));
    BOOST_TEST(!is_button_url("tg://resolve?domain=x"));
    BOOST_TEST(!is_button_url("https://"));
    BOOST_TEST(!is_button_url("https:///path"));
    BOOST_TEST(!is_button_url("https://exa mple.com"));
    BOOST_TEST(!is_button_url("https://example.com/\x01"));
    BOOST_TEST(!is_button_url("https://example.com/" + std::string(500, 'a')));
}

BOOST_AUTO_TEST_CASE(messages_are_spaced_evenly_one_a_second_per_chat_and_a_429_pauses_all) {
    SendPacer pacer;
    const auto t0 = SendPacer::Clock::now();
    // 30 a second: each slot 1/30 s after the last, from now on.
    for (int i = 0; i < 60; ++i) {
        const auto at = pacer.reserve(1000 + i, 30, t0);
        BOOST_TEST(std::chrono::duration<double>(at - t0).count() == i / 30.0, boost::test_tools::tolerance(1e-6));
    }
    // A second message to one chat waits a second after its first, whatever the rate.
    SendPacer chat;
    const auto first = chat.reserve(7, 1000, t0);
    const auto second = chat.reserve(7, 1000, t0);
    BOOST_TEST(std::chrono::duration<double>(second - first).count() >= 1.0);
    // A 429 with retry_after 3: nobody before then.
    SendPacer flood;
    flood.pause_for(3, t0);
    BOOST_TEST(std::chrono::duration<double>(flood.reserve(8, 30, t0) - t0).count() >= 3.0);
}

BOOST_AUTO_TEST_CASE(a_bot_api_answer_says_what_became_of_the_message) {
    BOOST_TEST((classify_bot_answer(200, R"({"ok":true,"result":{"message_id":5}})").kind == Delivery::Kind::delivered));
    const Delivery blocked = classify_bot_answer(403, R"({"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"})");
    BOOST_TEST((blocked.kind == Delivery::Kind::blocked));
    BOOST_TEST(blocked.error == "Forbidden: bot was blocked by the user");
    const Delivery flood = classify_bot_answer(429, R"({"ok":false,"error_code":429,"description":"Too Many Requests: retry after 7","parameters":{"retry_after":7}})");
    BOOST_TEST((flood.kind == Delivery::Kind::retry_after));
    BOOST_TEST(flood.retry_after_s == 7);
    BOOST_TEST(classify_bot_answer(429, "{}").retry_after_s == 1);  // no hint: a second
    BOOST_TEST((classify_bot_answer(400, R"({"ok":false,"description":"Bad Request: chat not found"})").kind == Delivery::Kind::failed));
    BOOST_TEST((classify_bot_answer(502, "<html>bad gateway</html>").kind == Delivery::Kind::failed));
    BOOST_TEST(classify_bot_answer(502, "<html>").error == "Bot API answered 502");
    // The button is one URL button under the text; the text goes as written, with parse_mode HTML.
    BOOST_TEST(html_message_json(5, "<b>x</b>", UrlButton{"Go", "https://a.b"}) ==
               R"({"chat_id":5,"text":"<b>x</b>","parse_mode":"HTML","reply_markup":{"inline_keyboard":[[{"text":"Go","url":"https://a.b"}]]}})");
}

BOOST_AUTO_TEST_SUITE_END()
