#include "settings.hpp"

#include <cstdlib>
#include <optional>
#include <string_view>

#include "util/strings.hpp"

namespace mock {
namespace {

std::optional<std::string> env(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    return std::string(v);
}

// http(s)://host[:port][/path], no query or fragment: links are built by appending to it.
bool valid_public_url(std::string_view url) {
    std::string_view rest;
    if (cabinet::starts_with(url, "http://")) rest = url.substr(7);
    else if (cabinet::starts_with(url, "https://")) rest = url.substr(8);
    else return false;
    const auto host_end = rest.find('/');
    const auto host = rest.substr(0, host_end);
    if (host.empty() || host.front() == ':') return false;
    for (char c : url)
        if (c == '?' || c == '#' || c == ' ' || static_cast<unsigned char>(c) < 0x21) return false;
    return true;
}

}  // namespace

Settings load_settings() {
    Settings s;
    if (auto v = env("MOCK_PANEL_STATE")) s.state_path = *v;
    if (s.state_path.back() == '/')
        throw SettingsError("MOCK_PANEL_STATE must name a file, not a directory: " + s.state_path);

    if (auto v = env("MOCK_PANEL_PUBLIC_URL")) s.public_url = *v;
    while (!s.public_url.empty() && s.public_url.back() == '/') s.public_url.pop_back();
    if (!valid_public_url(s.public_url))
        throw SettingsError("MOCK_PANEL_PUBLIC_URL must be an http(s) URL without query, e.g. http://127.0.0.1:3010; got \"" +
                            s.public_url + "\"");

    if (auto v = env("LOG_LEVEL")) s.log_level = cabinet::to_lower(*v);
    static const char* levels[] = {"trace", "debug", "info", "warn", "warning", "error", "critical", "off"};
    bool known = false;
    for (const char* l : levels) known = known || s.log_level == l;
    if (!known) throw SettingsError("LOG_LEVEL must be one of trace, debug, info, warn, error, critical, off");
    return s;
}

}  // namespace mock
