#pragma once
// Small, allocation-light string helpers shared by parsers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cabinet {

std::string_view trim(std::string_view s);
std::string to_lower(std::string_view s);  // ASCII letters only
// Every letter lowercased by Unicode's simple case mapping (glibc's C.UTF-8, as PostgreSQL's
// lower() does for a UTF-8 database): "Иван@Почта.РФ" -> "иван@почта.рф". Bytes that are
// not valid UTF-8 are kept as they are.
std::string to_lower_utf8(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
bool starts_with(std::string_view s, std::string_view prefix);
// Whole-string decimal integer, optional leading '-'. False on junk or overflow.
bool parse_int64(std::string_view s, int64_t& out);
// application/x-www-form-urlencoded value: %XX and '+' as space. nullopt on a bad escape.
std::optional<std::string> form_decode(std::string_view s);
// Percent-decoding of a URL path: '+' stays '+'. nullopt on a bad escape.
std::optional<std::string> percent_decode(std::string_view s);
std::string hex_encode(const unsigned char* data, size_t len);
// Exactly 2*out_len hex digits, either case. False otherwise.
bool hex_decode(std::string_view hex, unsigned char* out, size_t out_len);
// The longest prefix of UTF-8 text `s` with at most `max_chars` characters (code points),
// never cutting a multi-byte sequence. Telegram limits count characters, not bytes.
std::string_view utf8_prefix(std::string_view s, size_t max_chars);
// Well-formed UTF-8 (RFC 3629): no stray or overlong bytes, no surrogates (U+D800..DFFF),
// nothing above U+10FFFF. PostgreSQL refuses anything else in a text column.
bool valid_utf8(std::string_view s);
// Any ASCII control character (below 0x20, or DEL): never part of a header value or URL we keep.
bool has_control_chars(std::string_view s);
// 16 lowercase hex characters from the OS's CSPRNG (libsodium).
std::string random_hex(size_t bytes);
// Text safe inside HTML content and quoted attribute values (& < > " ').
std::string html_escape(std::string_view s);
// The same, appended to `out` (a page built in one buffer).
void append_html_escaped(std::string& out, std::string_view s);

// Number of UTF-8 code points in valid UTF-8 text (the "characters" of every length limit).
size_t utf8_length(std::string_view s);
// Appends code point `cp` (a valid one) as UTF-8.
void append_utf8(std::string& out, char32_t cp);

}  // namespace cabinet
