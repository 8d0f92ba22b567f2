#include "log/logging.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace cabinet {

void setup_logging(const std::string& level, const std::string& process_name) {
    auto logger = spdlog::stderr_logger_mt(process_name);
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %n[%P] %l %v", spdlog::pattern_time_type::utc);
    spdlog::set_level(spdlog::level::from_str(level));
    spdlog::flush_on(spdlog::level::info);
}

}  // namespace cabinet
