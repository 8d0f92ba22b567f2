#include "log/logging.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <ctime>

#include "util/strings.hpp"

namespace cabinet {
namespace {

// One JSON object a line. The access logger's message already is `"key":value` pairs.
class JsonFormatter final : public spdlog::formatter {
public:
    explicit JsonFormatter(std::string process) : process_(std::move(process)), pid_(::getpid()) {}

    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
        std::string line;
        line.reserve(160 + msg.payload.size());
        const auto since_epoch = msg.time.time_since_epoch();
        const auto secs = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - secs).count();
        const std::time_t t = static_cast<std::time_t>(secs.count());
        std::tm tm{};
        gmtime_r(&t, &tm);
        char stamp[40];
        const size_t n = std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
        line += "{\"time\":\"";
        line.append(stamp, n);
        char frac[16];
        std::snprintf(frac, sizeof frac, ".%03dZ", static_cast<int>(ms));
        line += frac;
        line += "\",\"level\":\"";
        const auto level = spdlog::level::to_string_view(msg.level);
        line.append(level.data(), level.size());
        line += "\",\"process\":\"";
        append_json_escaped(line, process_);
        line += "\",\"pid\":";
        line += std::to_string(pid_);
        const std::string_view payload(msg.payload.data(), msg.payload.size());
        if (std::string_view(msg.logger_name.data(), msg.logger_name.size()) == kAccessLogger) {
            line += ",\"msg\":\"request\",";
            line += payload;
        } else {
            line += ",\"msg\":\"";
            append_json_escaped(line, payload);
            line += '"';
        }
        line += "}\n";
        dest.append(line.data(), line.data() + line.size());
    }

    std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(process_); }

private:
    std::string process_;
    int pid_;
};

}  // namespace

void append_json_escaped(std::string& out, std::string_view v) {
    const bool utf8 = valid_utf8(v);
    for (unsigned char c : v) {
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else if (c >= 0x80 && !utf8) out += '?';
        else out += static_cast<char>(c);
    }
}

std::string access_fields(const AccessFields& f) {
    std::string out;
    out.reserve(200);
    out += "\"request_id\":\"";
    append_json_escaped(out, f.request_id);
    out += "\",\"method\":\"";
    append_json_escaped(out, f.method);
    out += "\",\"route\":\"";
    append_json_escaped(out, f.route);
    out += "\",\"path\":\"";
    append_json_escaped(out, f.path);
    out += "\",\"status\":";
    out += std::to_string(f.status);
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f", f.duration_ms);
    out += ",\"duration_ms\":";
    out += ms;
    out += ",\"user_id\":";
    if (f.user_id) out += std::to_string(f.user_id);
    else out += "null";
    return out;
}

void setup_logging(const std::string& level, const std::string& process_name, const std::string& format) {
    auto logger = spdlog::stderr_logger_mt(process_name);
    spdlog::set_default_logger(logger);
    // The request lines: same sink, own name, so the json formatter knows their message.
    auto access = std::make_shared<spdlog::logger>(kAccessLogger, logger->sinks().begin(), logger->sinks().end());
    spdlog::register_logger(access);
    if (format == "json") spdlog::set_formatter(std::make_unique<JsonFormatter>(process_name));
    // The access logger's name stays out of text lines: %n would print "access".
    else {
        logger->set_formatter(std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%eZ %n[%P] %l %v", spdlog::pattern_time_type::utc));
        access->set_formatter(std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%eZ " + process_name + "[%P] %l %v", spdlog::pattern_time_type::utc));
    }
    spdlog::set_level(spdlog::level::from_str(level));
    spdlog::flush_on(spdlog::level::info);
}

}  // namespace cabinet
