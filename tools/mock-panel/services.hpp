#pragma once
// What a handler can reach. One instance, made in main() and living until exit.
#include <cstdint>

#include "catalog.hpp"
#include "faults.hpp"
#include "journal.hpp"
#include "panel_state.hpp"
#include "settings.hpp"

namespace mock {

struct Services {
    const Settings& settings;
    PanelState& state;
    NodeMetrics& metrics;
    Journal& journal;
    Faults& faults;
    int64_t started_ms;
};

}  // namespace mock
