#include "net/http_client.hpp"

#include <curl/curl.h>

#include <memory>

namespace cabinet {
namespace {

constexpr size_t kMaxResponseBytes = 8 * 1024 * 1024;

size_t collect_capped(char* data, size_t size, size_t n, void* user) {
    auto* out = static_cast<std::string*>(user);
    if (out->size() + size * n > kMaxResponseBytes) return 0;  // aborts the transfer
    out->append(data, size * n);
    return size * n;
}

struct SlistFree {
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

HttpClient::HttpClient(int64_t connect_timeout_ms, int64_t timeout_ms)
    : curl_(curl_easy_init()), connect_timeout_ms_(connect_timeout_ms), timeout_ms_(timeout_ms) {
    if (!curl_) throw std::runtime_error("curl_easy_init failed");
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

HttpResponse HttpClient::send(const std::string& method, const std::string& url,
                              const std::vector<std::string>& headers, const std::string& body) {
    CURL* c = static_cast<CURL*>(curl_);
    curl_easy_reset(c);  // keeps the connection cache, forgets the previous request's options
    HttpResponse out;
    std::unique_ptr<curl_slist, SlistFree> list;
    for (const auto& h : headers) list.reset(curl_slist_append(list.release(), h.c_str()));
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect_timeout_ms_));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms_));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM-based DNS timeouts
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect_capped);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &out.body);
    if (!body.empty() || method == "POST" || method == "PATCH" || method == "PUT") {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    }
    const CURLcode rc = curl_easy_perform(c);
    if (rc != CURLE_OK) throw TransportError(std::string(method) + " " + url + ": " + curl_easy_strerror(rc));
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.status);
    return out;
}

}  // namespace cabinet
