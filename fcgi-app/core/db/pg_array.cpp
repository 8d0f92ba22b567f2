#include "db/pg_array.hpp"

namespace cabinet {

std::string pg_array(const std::vector<int64_t>& values) {
    std::string out = "{";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(values[i]);
    }
    return out + '}';
}

std::string pg_array(const std::vector<std::string>& values) {
    std::string out = "{";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        out += '"';
        for (const char c : values[i]) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + '}';
}

}  // namespace cabinet
