#pragma once
// The range checks of the owner's changes (catalogue, promo codes): a value out of range is
// an ApiError 422 whose detail starts with the admin API's field name, so the admin page can
// put the reason next to that field. Nothing is written when one throws.
#include <cstdint>
#include <optional>
#include <string>

namespace cabinet {

// The largest amount of money a change may name: 10^10 currency units, far above any price.
inline constexpr int64_t kMaxMinor = 1'000'000'000'000LL;

void check_int(const char* field, int64_t v, int64_t min, int64_t max);
void check_int(const char* field, const std::optional<int64_t>& v, int64_t min, int64_t max);
// [min, max] UTF-8 characters.
void check_text(const char* field, const std::string& v, size_t min, size_t max);

}  // namespace cabinet
