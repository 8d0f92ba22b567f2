#include "pool_direct.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace it {
namespace {

// FastCGI 1.0 as nginx speaks it: one request per connection, the responder role.
enum RecordType : uint8_t { kBeginRequest = 1, kEndRequest = 3, kParams = 4, kStdin = 5, kStdout = 6 };

// A record holds at most 65,535 bytes of content; an empty one ends its stream.
void put_record(std::string& out, RecordType type, std::string_view content) {
    do {
        const size_t n = std::min<size_t>(65535, content.size());
        const char head[8] = {1, static_cast<char>(type), 0, 1, static_cast<char>(n >> 8), static_cast<char>(n & 255), 0, 0};
        out.append(head, 8);
        out.append(content.substr(0, n));
        content.remove_prefix(n);
    } while (!content.empty());
}

void put_length(std::string& out, size_t n) {
    if (n < 128) {
        out.push_back(static_cast<char>(n));
    } else {
        out.push_back(static_cast<char>(0x80 | (n >> 24)));
        out.push_back(static_cast<char>(n >> 16));
        out.push_back(static_cast<char>(n >> 8));
        out.push_back(static_cast<char>(n));
    }
}

std::string params(const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::string out;
    for (const auto& [name, value] : pairs) {
        put_length(out, name.size());
        put_length(out, value.size());
        out += name;
        out += value;
    }
    return out;
}

// Whether `records` holds a whole END_REQUEST record.
bool has_end_request(const std::string& records) {
    for (size_t at = 0; at + 8 <= records.size();) {
        const auto* h = reinterpret_cast<const unsigned char*>(records.data() + at);
        const size_t next = at + 8 + ((size_t{h[4]} << 8) | h[5]) + h[6];
        if (next > records.size()) return false;
        if (h[1] == kEndRequest) return true;
        at = next;
    }
    return false;
}

class Socket {
public:
    explicit Socket(const std::string& path) : fd_(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        if (fd_ < 0 || path.size() >= sizeof(addr.sun_path)) throw std::runtime_error("no socket for " + path);
        std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0)
            throw std::runtime_error("cannot connect to " + path + ": " + std::strerror(errno));
        // A process that stops answering fails the test in 15 s (nginx gives up after 10)
        // rather than hanging the suite.
        const timeval limit{15, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    }
    ~Socket() { ::close(fd_); }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    void send_all(const std::string& bytes) {
        for (size_t at = 0; at < bytes.size();) {
            const ssize_t n = ::send(fd_, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
            if (n <= 0) throw std::runtime_error("the pool process closed its socket while we wrote");
            at += static_cast<size_t>(n);
        }
    }
    // Everything until the process closes the connection.
    std::string receive_all() {
        std::string in;
        char buf[16384];
        for (ssize_t n; (n = ::recv(fd_, buf, sizeof buf, 0)) > 0;) in.append(buf, static_cast<size_t>(n));
        return in;
    }
    // The records of one answer, up to and with END_REQUEST, leaving the connection open.
    std::string receive_answer() {
        std::string in;
        char buf[16384];
        while (!has_end_request(in)) {
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) throw std::runtime_error("the pool process closed the connection before END_REQUEST");
            in.append(buf, static_cast<size_t>(n));
        }
        return in;
    }
    // True when the process has closed its end (nothing more to read, end of file).
    bool closed_by_peer() {
        char c;
        return ::recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
    }

private:
    int fd_;
};

// The STDOUT records' content, in order, up to END_REQUEST.
std::string stdout_of(const std::string& records) {
    std::string out;
    for (size_t at = 0; at + 8 <= records.size();) {
        const auto* h = reinterpret_cast<const unsigned char*>(records.data() + at);
        const size_t length = (size_t{h[4]} << 8) | h[5];
        if (at + 8 + length + h[6] > records.size()) break;
        if (h[1] == kStdout) out.append(records, at + 8, length);
        if (h[1] == kEndRequest) return out;
        at += 8 + length + h[6];
    }
    throw std::runtime_error("the pool process ended its answer without END_REQUEST");
}

// "Status: 200 OK\r\nName: value\r\n\r\nbody", as the pool writes it (http/fcgi_io.cpp).
HttpResult parse_cgi_response(const std::string& out) {
    HttpResult r;
    r.status = 200;
    const size_t end = out.find("\r\n\r\n");
    if (end == std::string::npos) throw std::runtime_error("no header end in the pool's answer");
    r.body = out.substr(end + 4);
    for (size_t at = 0; at < end;) {
        const size_t eol = std::min(out.find("\r\n", at), end);
        const std::string line = out.substr(at, eol - at);
        const size_t colon = line.find(':');
        if (colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            const std::string value = line.substr(std::min(line.size(), line.find_first_not_of(' ', colon + 1)));
            if (name == "status") r.status = std::stol(value);
            else r.headers[name] = value;
        }
        at = eol + 2;
    }
    return r;
}

}  // namespace

int pool_processes() { return std::stoi(env("POOL_PROCS")); }

namespace {

std::string socket_of(int process) { return env("STACK_DIR") + "/run/fcgi-" + std::to_string(process) + ".sock"; }

// The records of one request as nginx sends them; `keep` asks the process to leave the
// connection open after its answer (FCGI_KEEP_CONN, as nginx with fastcgi_keep_conn on).
std::string request_records(const std::string& method, const std::string& path, const std::string& authorization,
                            const std::string& body, bool keep) {
    // Tests hold headers as "Authorization: ..." lines (tma_header); either form is taken.
    std::string credential = authorization;
    if (credential.rfind("Authorization: ", 0) == 0) credential.erase(0, std::strlen("Authorization: "));
    // What nginx passes (nginx/fastcgi_cabinet.conf), the request id left to the process.
    std::vector<std::pair<std::string, std::string>> env_params = {
        {"REQUEST_METHOD", method},
        {"REQUEST_URI", path},
        {"REMOTE_ADDR", "127.0.0.1"},
        {"CONTENT_LENGTH", body.empty() ? "" : std::to_string(body.size())},
        {"CONTENT_TYPE", body.empty() ? "" : "application/json"},
    };
    if (!credential.empty()) env_params.emplace_back("HTTP_AUTHORIZATION", credential);

    std::string request;
    const char begin[8] = {0, 1, static_cast<char>(keep ? 1 : 0), 0, 0, 0, 0, 0};  // responder, flags
    put_record(request, kBeginRequest, std::string_view(begin, 8));
    put_record(request, kParams, params(env_params));
    put_record(request, kParams, "");
    if (!body.empty()) put_record(request, kStdin, body);
    put_record(request, kStdin, "");
    return request;
}

}  // namespace

HttpResult pool_request(int process, const std::string& method, const std::string& path, const std::string& authorization,
                        const std::string& body) {
    Socket s(socket_of(process));
    s.send_all(request_records(method, path, authorization, body, false));
    return parse_cgi_response(stdout_of(s.receive_all()));
}

struct KeptConnection::Impl {
    Socket socket;
};

KeptConnection::KeptConnection(int process) : impl_(new Impl{Socket(socket_of(process))}) {}
KeptConnection::~KeptConnection() = default;

HttpResult KeptConnection::request(const std::string& method, const std::string& path, const std::string& authorization) {
    impl_->socket.send_all(request_records(method, path, authorization, {}, true));
    return parse_cgi_response(stdout_of(impl_->socket.receive_answer()));
}

bool KeptConnection::closed_by_process() { return impl_->socket.closed_by_peer(); }

void on_every_process(const std::string& authorization, const std::string& path,
                      const std::function<void(const rapidjson::Document&)>& check, int times) {
    for (int p = 1; p <= pool_processes(); ++p) {
        for (int i = 0; i < times; ++i) {
            const auto r = pool_request(p, "GET", path, authorization);
            BOOST_REQUIRE_MESSAGE(r.status == 200, path << " answered " << r.status << " from process " << p << ": " << r.body);
            check(r.json());
        }
    }
}

void warm_every_process(const std::string& authorization, const std::string& path) {
    on_every_process(authorization, path, [](const rapidjson::Document&) {});
}

}  // namespace it
