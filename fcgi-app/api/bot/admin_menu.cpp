#include "api/bot/admin_menu.hpp"

#include <vector>

#include "api/bot/replies.hpp"
#include "services/bot_admin.hpp"
#include "services/maintenance.hpp"
#include "util/time.hpp"

namespace cabinet::bot {
namespace {

constexpr std::string_view kSwitchOn = "admin:maint:on";
constexpr std::string_view kSwitchOff = "admin:maint:off";
constexpr std::string_view kRefresh = "admin:maint:status";

std::string menu_text(const MaintenanceState& m) {
    std::string t = "Maintenance mode: ";
    if (m.enabled) t += m.source == MaintenanceSource::automatic ? "ON (automatic, panel watchdog)" : "ON (manual)";
    else t += "OFF";
    if (m.changed_at > 0) t += "\nChanged " + iso8601_utc(m.changed_at) + " by " + m.changed_by;
    else t += "\nNever switched; the default comes from " + m.changed_by;
    if (m.enabled) t += "\nUsers see: " + m.message;
    if (m.panel_failures > 0) t += "\nPanel checks failed in a row: " + std::to_string(m.panel_failures);
    return t;
}

// The owner's cabinet beside the mini-app: MINIAPP_URL's ".../app/" as ".../admin/"; empty
// when the mini-app has no URL (then the menu has no such button).
std::string owner_cabinet_url(const std::string& miniapp_url) {
    if (miniapp_url.empty()) return {};
    std::string base = miniapp_url.substr(0, miniapp_url.find_first_of("?#"));
    while (!base.empty() && base.back() == '/') base.pop_back();
    if (base.size() >= 4 && base.compare(base.size() - 4, 4, "/app") == 0) base.resize(base.size() - 4);
    return base + "/admin/";
}

std::string menu_keyboard(const MaintenanceState& m, const Settings& s) {
    const Button toggle = m.enabled ? Button{"Turn maintenance OFF", std::string(kSwitchOff), ""}
                                    : Button{"Turn maintenance ON", std::string(kSwitchOn), ""};
    std::vector<std::vector<Button>> rows{{toggle}, {Button{"Refresh", std::string(kRefresh), ""}}};
    // Opened as a web app, the owner's cabinet gets the admin's init data, as the mini-app does.
    if (const std::string url = owner_cabinet_url(s.miniapp_url); !url.empty())
        rows.push_back({Button{"Open the owner's cabinet", "", url}});
    return inline_keyboard(rows);
}

// Fresh from the database, not the pool's cached copy: the admin wants what is true now.
MaintenanceState current_state(Exchange& ex) { return load_maintenance(ex.io.db, ex.settings()); }

}  // namespace

void send_admin_menu(Exchange& ex, BotApi& api, int64_t chat_id) {
    const MaintenanceState m = current_state(ex);
    api.send_message(std::to_string(chat_id), "", menu_text(m), menu_keyboard(m, ex.settings()));
}

void press_admin_button(Exchange& ex, BotApi& api, const ButtonPress& press) {
    MaintenanceState m;
    if (press.data == kSwitchOn || press.data == kSwitchOff) {
        m = switch_maintenance_as(ex.io.db, ex.settings(), press.from, press.data == kSwitchOn);
        // Committed before anything is sent: if Telegram does not hear back and repeats the
        // update, the switch finds its target state and changes nothing.
        api.answer_callback_query(press.id, m.enabled ? "Maintenance is ON" : "Maintenance is OFF", false);
    } else if (press.data == kRefresh) {
        m = current_state(ex);
        api.answer_callback_query(press.id, "", false);
    } else {
        api.answer_callback_query(press.id, "This button is out of date: send /admin again.", false);
        return;
    }
    if (press.chat_id && press.message_id)
        api.edit_message_text(std::to_string(*press.chat_id), *press.message_id, menu_text(m),
                              menu_keyboard(m, ex.settings()));
}

}  // namespace cabinet::bot
