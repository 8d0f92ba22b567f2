#include "util/user_agent.hpp"

#include <array>

namespace cabinet {
namespace {

struct Known {
    std::string_view token;  // as it appears in the header, followed by "/version"
    std::string_view name;   // what we say
};

// First match wins: browsers built on Chrome also say "Chrome/" and "Safari/", so the
// specific ones come before Chrome, and Chrome before Safari.
constexpr std::array kBrowsers{
    Known{"YaBrowser/", "Yandex Browser"}, Known{"Edg/", "Edge"},           Known{"EdgA/", "Edge"},
    Known{"EdgiOS/", "Edge"},              Known{"OPR/", "Opera"},          Known{"SamsungBrowser/", "Samsung Internet"},
    Known{"Firefox/", "Firefox"},          Known{"FxiOS/", "Firefox"},      Known{"CriOS/", "Chrome"},
    Known{"Chrome/", "Chrome"},            Known{"Version/", "Safari"},     Known{"curl/", "curl"},
    Known{"Wget/", "Wget"},                Known{"python-requests/", "a Python script"},
};

struct Os {
    std::string_view token;
    std::string_view name;
};

constexpr std::array kSystems{
    Os{"iPhone", "iPhone"}, Os{"iPad", "iPad"},         Os{"Android", "Android"}, Os{"Windows", "Windows"},
    Os{"Macintosh", "macOS"}, Os{"CrOS", "ChromeOS"}, Os{"Linux", "Linux"},
};

// The leading digits after `at` (a major version), at most 4; empty when there are none.
std::string_view major_version(std::string_view ua, size_t at) {
    size_t end = at;
    while (end < ua.size() && end - at < 4 && ua[end] >= '0' && ua[end] <= '9') ++end;
    return ua.substr(at, end - at);
}

}  // namespace

std::string describe_user_agent(std::string_view ua) {
    std::string browser;
    for (const auto& b : kBrowsers) {
        const size_t at = ua.find(b.token);
        if (at == std::string_view::npos) continue;
        // "Version/" says Safari only beside "Safari/" (other engines use it too).
        if (b.token == "Version/" && ua.find("Safari/") == std::string_view::npos) continue;
        browser = b.name;
        const std::string_view v = major_version(ua, at + b.token.size());
        if (!v.empty() && b.name != "a Python script") browser += " " + std::string(v);
        break;
    }
    std::string os;
    for (const auto& o : kSystems)
        if (ua.find(o.token) != std::string_view::npos) {
            os = o.name;
            break;
        }
    if (browser.empty()) browser = "an unknown browser";
    return os.empty() ? browser : browser + " on " + os;
}

std::string plain_ip(std::string_view ip) {
    if (ip.empty() || ip.size() > 45 || ip.find_first_not_of("0123456789abcdefABCDEF.:") != std::string_view::npos)
        return "unknown";
    return std::string(ip);
}

}  // namespace cabinet
