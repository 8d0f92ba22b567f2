#include "http_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

#include "util/json.hpp"

namespace it {
namespace {

std::string header(const HttpResult& r, const std::string& name) {
    const auto it = r.headers.find(name);
    return it == r.headers.end() ? std::string() : it->second;
}

}  // namespace

void log_exchange(const std::string& method, const std::string& url, const std::string& request_body,
                  const HttpResult& result) {
    const char* file = std::getenv("CABINET_HTTP_LOG");
    if (!file || !*file) return;
    const std::string base = base_url();
    if (url.compare(0, base.size(), base) != 0) return;
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("method"); w.String(method.c_str());
    w.Key("path"); w.String(url.c_str() + base.size(), static_cast<rapidjson::SizeType>(url.size() - base.size()));
    w.Key("request_body"); w.String(request_body.c_str(), static_cast<rapidjson::SizeType>(request_body.size()));
    w.Key("status"); w.Int64(result.status);
    w.Key("content_type"); w.String(header(result, "content-type").c_str());
    w.Key("retry_after"); w.String(header(result, "retry-after").c_str());
    w.Key("body"); w.String(result.body.c_str(), static_cast<rapidjson::SizeType>(result.body.size()));
    w.EndObject();
    std::string line(buf.GetString(), buf.GetSize());
    line += '\n';
    // One write of the whole line to an O_APPEND file: lines of parallel requests never mix.
    const int fd = ::open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(std::string("cannot open CABINET_HTTP_LOG ") + file);
    const ssize_t n = ::write(fd, line.data(), line.size());
    ::close(fd);
    if (n != static_cast<ssize_t>(line.size())) throw std::runtime_error("short write to CABINET_HTTP_LOG");
}

}  // namespace it
