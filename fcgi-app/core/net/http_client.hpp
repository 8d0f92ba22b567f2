#pragma once
// Outbound HTTP for one thread (libcurl easy handle, reused so connections stay alive).
// Transport failures and timeouts become TransportError; the caller decides what a
// status code means.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cabinet {

struct HttpResponse {
    long status = 0;
    std::string body;
};

class TransportError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

class HttpClient {
public:
    HttpClient(int64_t connect_timeout_ms, int64_t timeout_ms);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    HttpResponse send(const std::string& method, const std::string& url,
                      const std::vector<std::string>& headers, const std::string& body = {});

private:
    void* curl_;
    int64_t connect_timeout_ms_;
    int64_t timeout_ms_;
};

}  // namespace cabinet
