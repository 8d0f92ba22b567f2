#pragma once
// The mock panel's settings, all from the environment (see docs/mock-panel.md). Invalid
// values stop start-up with a message naming the variable.
#include <stdexcept>
#include <string>

namespace mock {

struct Settings {
    std::string state_path = "./mock-panel-state.json";  // MOCK_PANEL_STATE
    std::string public_url = "http://127.0.0.1:3010";     // MOCK_PANEL_PUBLIC_URL, no trailing '/'
    std::string log_level = "info";                       // LOG_LEVEL, shared with the cabinet
};

class SettingsError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

Settings load_settings();

}  // namespace mock
