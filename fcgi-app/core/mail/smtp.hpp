#pragma once
// Outgoing mail: the MIME message (pure, unit-tested) and its delivery over SMTP with
// libcurl (used by the worker's `send_mail` job, never by a pool thread).
#include <cstdint>
#include <string>
#include <string_view>

#include "config/settings.hpp"

namespace cabinet {

inline constexpr const char* kSendMailJob = "send_mail";

struct MailMessage {
    std::string from;  // "Name <addr>" or "addr"
    std::string to;    // a bare address
    std::string subject;
    std::string text;
    std::string html;
};

// The bare address of "Name <addr>" (or the input itself).
std::string mail_address(std::string_view from);

// RFC 5322 + MIME: From, To, Subject (RFC 2047 when not ASCII), Date, Message-ID,
// multipart/alternative of text/plain and text/html (UTF-8; 7bit when the part is ASCII
// with short lines, else base64). CRLF line ends. Fixed `message_id` and `boundary` make
// the output reproducible in tests.
std::string compose_mime(const MailMessage& m, int64_t unix_time, std::string_view message_id,
                         std::string_view boundary);
// The same with a random Message-ID (at the sender's domain) and boundary.
std::string compose_mime(const MailMessage& m, int64_t unix_time);

// Delivers over SMTP_URL (smtp:// with STARTTLS when offered, or smtps://), with
// SMTP_USER/SMTP_PASSWORD when set. Throws std::runtime_error with curl's reason.
void send_mail_smtp(const Settings& s, const MailMessage& m);

}  // namespace cabinet
