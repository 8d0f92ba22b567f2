// The subscription link a VPN client imports: base64 of one vless:// share link per node,
// with the headers client apps read (traffic and expiry, refresh interval, title). The
// links point at *.invalid hosts: subscriptions of the mock cannot carry traffic.
#include "catalog.hpp"
#include "handlers.hpp"
#include "json_output.hpp"
#include "reply.hpp"
#include "user_view.hpp"

namespace mock {
namespace {

std::string base64(std::string_view in) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const auto n = (static_cast<uint32_t>(static_cast<unsigned char>(in[i])) << 16) |
                       (static_cast<uint32_t>(static_cast<unsigned char>(in[i + 1])) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
        out += abc[(n >> 18) & 63];
        out += abc[(n >> 12) & 63];
        out += abc[(n >> 6) & 63];
        out += abc[n & 63];
    }
    if (i < in.size()) {
        uint32_t n = static_cast<uint32_t>(static_cast<unsigned char>(in[i])) << 16;
        if (i + 1 < in.size()) n |= static_cast<uint32_t>(static_cast<unsigned char>(in[i + 1])) << 8;
        out += abc[(n >> 18) & 63];
        out += abc[(n >> 12) & 63];
        out += i + 1 < in.size() ? abc[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::string fragment(std::string_view s) {
    std::string out;
    for (char c : s) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
            out += c;
        } else {
            static const char* hex = "0123456789ABCDEF";
            out += '%';
            out += hex[(static_cast<unsigned char>(c) >> 4) & 15];
            out += hex[static_cast<unsigned char>(c) & 15];
        }
    }
    return out;
}

std::string share_links(const User& u) {
    std::string text;
    for (const auto& n : nodes()) {
        text += "vless://" + u.vless_uuid + "@" + std::string(n.address) +
                ":443?encryption=none&flow=xtls-rprx-vision&security=reality&sni=www.example.com"
                "&fp=chrome&pbk=mock-public-key&sid=6ba85179&type=tcp#" +
                fragment(std::string(n.country_code) + " " + std::string(n.name)) + "\n";
    }
    return text;
}

}  // namespace

// GET /sub/{shortUuid} and /api/sub/{shortUuid}. An unknown or revoked link is 404.
void get_subscription(Services& s, Call& c) {
    const std::string& short_uuid = c.params.at(0);
    const UserPtr user = s.state.user_by_short_uuid(short_uuid);
    if (!user) throw user_not_found();
    c.resp.text("text/plain; charset=utf-8", base64(share_links(*user)));
    c.resp.header("subscription-userinfo", "upload=0; download=" + std::to_string(user->used_traffic_bytes) +
                                               "; total=" + std::to_string(user->traffic_limit_bytes) +
                                               "; expire=" + std::to_string(user->expire_at / 1000));
    c.resp.header("profile-update-interval", "12");
    c.resp.header("profile-title", "base64:" + base64("Cabinet mock panel"));
    c.resp.header("profile-web-page-url", subscription_url(s.settings.public_url, *user));
    c.resp.header("content-disposition", "attachment; filename=\"" + user->username + "\"");
}

}  // namespace mock
