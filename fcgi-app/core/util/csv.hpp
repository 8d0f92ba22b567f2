#pragma once
// CSV cells for the owner's exports (RFC 4180, CRLF lines), safe to open in a spreadsheet.
#include <string>
#include <string_view>

namespace cabinet {

// Appends `v` as one cell: quoted when it holds a separator, a quote or a line break; an
// apostrophe first when it would start a formula (=, +, -, @, tab, CR): customers choose
// their own names, and a name like =HYPERLINK(…) must stay text.
inline void append_csv_cell(std::string& out, std::string_view v) {
    const bool formula = !v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@' || v[0] == '\t' || v[0] == '\r');
    const bool quote = formula || v.find_first_of(",\"\r\n") != std::string_view::npos;
    if (quote) out += '"';
    if (formula) out += '\'';
    for (char c : v) {
        if (c == '"') out += '"';
        out += c;
    }
    if (quote) out += '"';
}

}  // namespace cabinet
