#include "raw_http.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <stdexcept>

#include "util/strings.hpp"

namespace it {
namespace {

// The body of a chunked answer (the app's answers to HTTP/1.1 have no Content-Length).
std::string dechunk(const std::string& body) {
    std::string out;
    size_t pos = 0;
    while (pos < body.size()) {
        const auto eol = body.find("\r\n", pos);
        if (eol == std::string::npos) break;
        const size_t len = std::stoul(body.substr(pos, eol - pos), nullptr, 16);
        if (len == 0) break;
        out += body.substr(eol + 2, len);
        pos = eol + 2 + len + 2;
    }
    return out;
}

void parse_response(const std::string& raw, HttpResult& out) {
    const auto head_end = raw.find("\r\n\r\n");
    const std::string head = raw.substr(0, head_end);
    out.body = head_end == std::string::npos ? std::string() : raw.substr(head_end + 4);
    const auto lines = cabinet::split(head, '\n');
    if (lines.empty() || !cabinet::starts_with(lines[0], "HTTP/1.")) return;
    out.status = std::stol(std::string(lines[0].substr(9, 3)));
    for (size_t i = 1; i < lines.size(); ++i) {
        const auto colon = lines[i].find(':');
        if (colon == std::string_view::npos) continue;
        out.headers[cabinet::to_lower(lines[i].substr(0, colon))] = std::string(cabinet::trim(lines[i].substr(colon + 1)));
    }
    if (out.headers["transfer-encoding"] == "chunked") out.body = dechunk(out.body);
}

}  // namespace

HttpResult raw_http(const std::string& request) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) throw std::runtime_error("socket failed");
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(std::stoi(env("HTTP_PORT"))));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        throw std::runtime_error("connect to nginx failed");
    }
    for (size_t sent = 0; sent < request.size();) {
        const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;  // nginx may answer and close before reading it all
        sent += static_cast<size_t>(n);
    }
    std::string raw;
    char buf[8192];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) raw.append(buf, static_cast<size_t>(n));
    ::close(fd);
    HttpResult out;
    parse_response(raw, out);
    return out;
}

}  // namespace it
