#include "api/connection_links.hpp"

#include <array>
#include <string>

#include "util/json_object.hpp"

namespace cabinet::api {
namespace {

struct ClientApp {
    const char* key;  // also the URL scheme of its import links
    const char* label;
    const char* scheme;  // prefix before the subscription URL
    std::array<std::pair<const char*, const char*>, 6> stores;
};

// Official download pages of each client.
const ClientApp kApps[] = {
    {"happ", "Happ", "happ://add/",
     {{{"ios", "https://apps.apple.com/app/happ-proxy-utility/id6504287215"},
       {"android", "https://play.google.com/store/apps/details?id=com.happproxy"},
       {"macos", "https://apps.apple.com/app/happ-proxy-utility/id6504287215"},
       {"windows", "https://github.com/Happ-proxy/happ-desktop/releases"},
       {"linux", "https://github.com/Happ-proxy/happ-desktop/releases"},
       {"default", "https://www.happ.su/"}}}},
    {"v2raytun", "v2RayTun", "v2raytun://import/",
     {{{"ios", "https://apps.apple.com/app/v2raytun/id6476628951"},
       {"android", "https://play.google.com/store/apps/details?id=com.v2raytun.android"},
       {"macos", "https://apps.apple.com/app/v2raytun/id6476628951"},
       {"windows", "https://v2raytun.com/"},
       {"linux", "https://v2raytun.com/"},
       {"default", "https://v2raytun.com/"}}}},
    {"hiddify", "Hiddify", "hiddify://import/",
     {{{"ios", "https://apps.apple.com/app/hiddify-proxy-vpn/id6596777532"},
       {"android", "https://play.google.com/store/apps/details?id=app.hiddify.com"},
       {"macos", "https://github.com/hiddify/hiddify-app/releases"},
       {"windows", "https://github.com/hiddify/hiddify-app/releases"},
       {"linux", "https://github.com/hiddify/hiddify-app/releases"},
       {"default", "https://hiddify.com/"}}}},
    {"streisand", "Streisand", "streisand://import/",
     {{{"ios", "https://apps.apple.com/app/streisand/id6450534064"},
       {"android", "https://apps.apple.com/app/streisand/id6450534064"},
       {"macos", "https://apps.apple.com/app/streisand/id6450534064"},
       {"windows", "https://apps.apple.com/app/streisand/id6450534064"},
       {"linux", "https://apps.apple.com/app/streisand/id6450534064"},
       {"default", "https://apps.apple.com/app/streisand/id6450534064"}}}},
};

// Each app's "stores" object as JSON text, rendered once at start-up: the pages never
// change, and escaping their 1.2 kB again at every GET /connection was wasted work.
std::string render_stores(const ClientApp& app) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject stores(w);
        for (const auto& [os, page] : app.stores) stores.put(os, page);
    }
    return buf.GetString();
}

const auto kStoresJson = [] {
    std::array<std::string, std::size(kApps)> out;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = render_stores(kApps[i]);
    return out;
}();

std::string link_for(const ClientApp& app, const std::string& url, const std::string& crypto_link) {
    if (std::string_view(app.key) == "happ" && !crypto_link.empty()) return crypto_link;
    return app.scheme + url;
}

}  // namespace

std::optional<ImportLink> parse_import_link(std::string_view link) {
    for (const auto& app : kApps) {
        const std::string_view prefix(app.scheme);
        if (link.substr(0, prefix.size()) == prefix) return ImportLink{app.key, std::string(link.substr(prefix.size()))};
    }
    return std::nullopt;
}

void write_deep_links(JsonWriter& w, const std::string& url, const std::string& crypto_link) {
    JsonObject links(w);
    for (const auto& app : kApps) links.put(app.key, link_for(app, url, crypto_link));
}

void write_apps(JsonWriter& w, const Settings& s, const std::string& url, const std::string& crypto_link) {
    JsonArray apps(w);
    for (const auto& key : s.connection_apps) {
        for (std::size_t i = 0; i < std::size(kApps); ++i) {
            const ClientApp& app = kApps[i];
            if (key != app.key) continue;
            apps.object().put("key", app.key).put("label", app.label).put("deep_link", link_for(app, url, crypto_link))
                .raw("stores", kStoresJson[i]);
        }
    }
}

}  // namespace cabinet::api
