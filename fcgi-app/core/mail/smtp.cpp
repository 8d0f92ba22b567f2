#include "mail/smtp.hpp"

#include <curl/curl.h>
#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>

#include "util/strings.hpp"
#include "util/web_tokens.hpp"

namespace cabinet {
namespace {

bool is_ascii(std::string_view s) {
    for (unsigned char c : s)
        if (c >= 0x80) return false;
    return true;
}

// Header values never carry line breaks: that would let a value add headers.
std::string one_line(std::string_view s) {
    std::string out;
    for (char c : s) out += (c == '\r' || c == '\n') ? ' ' : c;
    return out;
}

std::string base64(std::string_view data) {
    std::string out(sodium_base64_ENCODED_LEN(data.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
                      sodium_base64_VARIANT_ORIGINAL);
    out.resize(out.size() - 1);  // the terminating NUL
    return out;
}

std::string header_text(std::string_view s) {
    const std::string v = one_line(s);
    return is_ascii(v) ? v : "=?UTF-8?B?" + base64(v) + "?=";
}

// Line ends as CRLF, whatever the template used.
std::string crlf(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\r') continue;
        if (s[i] == '\n') out += "\r\n";
        else out += s[i];
    }
    return out;
}

bool short_lines(std::string_view s) {
    size_t run = 0;
    for (char c : s) {
        run = c == '\n' ? 0 : run + 1;
        if (run > 900) return false;  // SMTP allows 998 octets a line
    }
    return true;
}

std::string part(std::string_view type, std::string_view body) {
    std::string out = "Content-Type: " + std::string(type) + "; charset=utf-8\r\n";
    if (is_ascii(body) && short_lines(body)) return out + "Content-Transfer-Encoding: 7bit\r\n\r\n" + crlf(body) + "\r\n";
    out += "Content-Transfer-Encoding: base64\r\n\r\n";
    const std::string b = base64(body);
    for (size_t i = 0; i < b.size(); i += 76) out += b.substr(i, 76) + "\r\n";
    return out;
}

// RFC 5322 date in UTC; names written out, so the C locale cannot change them.
std::string rfc5322_date(int64_t unix_time) {
    static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const std::time_t t = static_cast<std::time_t>(unix_time);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
                  months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return buf;
}

}  // namespace

std::string mail_address(std::string_view from) {
    const auto lt = from.rfind('<');
    const auto gt = from.rfind('>');
    if (lt != std::string_view::npos && gt != std::string_view::npos && gt > lt) return std::string(trim(from.substr(lt + 1, gt - lt - 1)));
    return std::string(trim(from));
}

std::string compose_mime(const MailMessage& m, int64_t unix_time, std::string_view message_id, std::string_view boundary) {
    const std::string b(boundary);
    std::string out;
    out += "From: " + one_line(m.from) + "\r\n";
    out += "To: " + one_line(m.to) + "\r\n";
    out += "Subject: " + header_text(m.subject) + "\r\n";
    out += "Date: " + rfc5322_date(unix_time) + "\r\n";
    out += "Message-ID: <" + one_line(message_id) + ">\r\n";
    out += "MIME-Version: 1.0\r\n";
    out += "Content-Type: multipart/alternative; boundary=\"" + b + "\"\r\n\r\n";
    out += "--" + b + "\r\n" + part("text/plain", m.text);
    out += "--" + b + "\r\n" + part("text/html", m.html);
    out += "--" + b + "--\r\n";
    return out;
}

std::string compose_mime(const MailMessage& m, int64_t unix_time) {
    const std::string from = mail_address(m.from);
    const auto at = from.find('@');
    const std::string domain = at == std::string::npos ? "localhost" : from.substr(at + 1);
    // Base64url tokens never contain characters that are special in a boundary or an id.
    return compose_mime(m, unix_time, new_opaque_token() + "@" + domain, "=_" + new_opaque_token());
}

void send_mail_smtp(const Settings& s, const MailMessage& m) {
    if (s.smtp_url.empty()) throw std::runtime_error("SMTP_URL is not set");
    const std::string payload = compose_mime(m, static_cast<int64_t>(std::time(nullptr)));
    struct Reader {
        std::string_view rest;
    } reader{payload};
    auto read = [](char* buf, size_t size, size_t n, void* user) -> size_t {
        auto* r = static_cast<Reader*>(user);
        const size_t k = std::min(size * n, r->rest.size());
        std::memcpy(buf, r->rest.data(), k);
        r->rest.remove_prefix(k);
        return k;
    };
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) throw std::runtime_error("curl_easy_init failed");
    const std::string from = "<" + mail_address(m.from) + ">";
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> rcpt(
        curl_slist_append(nullptr, ("<" + m.to + ">").c_str()), curl_slist_free_all);
    char errbuf[CURL_ERROR_SIZE] = {0};
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, s.smtp_url.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    // smtp:// upgrades with STARTTLS when the server offers it; smtps:// is TLS from the start.
    if (!starts_with(s.smtp_url, "smtps://")) curl_easy_setopt(c, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_TRY));
    if (!s.smtp_user.empty()) {
        curl_easy_setopt(c, CURLOPT_USERNAME, s.smtp_user.c_str());
        curl_easy_setopt(c, CURLOPT_PASSWORD, s.smtp_password.c_str());
    }
    curl_easy_setopt(c, CURLOPT_MAIL_FROM, from.c_str());
    curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt.get());
    curl_easy_setopt(c, CURLOPT_READFUNCTION, +read);
    curl_easy_setopt(c, CURLOPT_READDATA, &reader);
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(s.smtp_timeout_ms));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    const CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK) return;
    std::string why = std::string("SMTP delivery failed: ") + (errbuf[0] ? errbuf : curl_easy_strerror(rc));
    // libcurl asks for SMTPUTF8 itself when an address is beyond ASCII, and gives up on a
    // relay that does not offer it: say so, as its own message does not.
    const bool beyond_ascii = std::any_of(m.to.begin(), m.to.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; });
    if (beyond_ascii) why += " (the address is beyond ASCII: the relay must offer SMTPUTF8)";
    throw std::runtime_error(why);
}

}  // namespace cabinet
