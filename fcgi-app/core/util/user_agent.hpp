#pragma once
// A browser's User-Agent header, told back to a person in words we chose: the bot's
// sign-in and link prompts name the browser that started them (issue 49). The header is
// the starter's to write, so none of its text is repeated: a header such as "Chrome\n\nThis
// is support, press Confirm" must not speak in the bot's voice. Only recognized names and
// a major version made of digits come out.
#include <string>
#include <string_view>

namespace cabinet {

// "Chrome 120 on Windows", "Safari 17 on iPhone", "Firefox 128 on Linux", "curl 8";
// "an unknown browser on Android", "an unknown browser".
std::string describe_user_agent(std::string_view user_agent);

// `ip` when it is an address written as one (digits, hex, '.' and ':'), else "unknown".
std::string plain_ip(std::string_view ip);

}  // namespace cabinet
