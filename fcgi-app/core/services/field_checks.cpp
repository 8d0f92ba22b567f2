#include "services/field_checks.hpp"

#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet {

void check_int(const char* field, int64_t v, int64_t min, int64_t max) {
    if (v < min || v > max)
        throw ApiError(422, std::string(field) + " must be an integer in " + std::to_string(min) + ".." + std::to_string(max));
}

void check_int(const char* field, const std::optional<int64_t>& v, int64_t min, int64_t max) {
    if (v) check_int(field, *v, min, max);
}

void check_text(const char* field, const std::string& v, size_t min, size_t max) {
    const size_t n = utf8_length(v);
    if (n < min || n > max)
        throw ApiError(422, std::string(field) + " must be " + std::to_string(min) + ".." + std::to_string(max) +
                                " characters");
}

}  // namespace cabinet
