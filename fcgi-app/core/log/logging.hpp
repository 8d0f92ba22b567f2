#pragma once
#include <string>

namespace cabinet {
// One line per event to stderr (journald adds host and unit), UTC timestamps.
void setup_logging(const std::string& level, const std::string& process_name);
}
