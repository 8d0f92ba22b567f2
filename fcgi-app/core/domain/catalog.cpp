#include "domain/catalog.hpp"

#include <algorithm>

namespace cabinet {

int64_t running_sale_pct(const std::vector<Sale>& sales, int64_t now) {
    int64_t pct = 0;
    for (const Sale& s : sales)
        if (s.starts_at <= now && now < s.ends_at) pct = std::max(pct, s.discount_pct);
    return pct;
}

}  // namespace cabinet
