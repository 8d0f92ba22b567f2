#include "domain/pricing.hpp"

#include <algorithm>
#include <stdexcept>

namespace cabinet {

int64_t Discounts::total_pct() const {
    auto clamp = [](int64_t p) { return std::clamp<int64_t>(p, 0, 100); };
    return std::min<int64_t>(100, clamp(personal_pct) + clamp(group_pct) + clamp(promo_pct) + clamp(sale_pct));
}

Quote quote(int64_t list_minor, const Discounts& d, int64_t stars_rate_minor) {
    if (list_minor < 0 || stars_rate_minor <= 0) throw std::invalid_argument("quote: negative price or bad stars rate");
    Quote q;
    q.list_minor = list_minor;
    q.discount_pct = d.total_pct();
    // floor(list * pct / 100) without overflow: list = 100a + b, so it is a*pct + floor(b*pct/100).
    const int64_t off = (list_minor / 100) * q.discount_pct + (list_minor % 100) * q.discount_pct / 100;
    q.final_minor = list_minor - off;
    // max(1, ceil(price / rate)), as the original's clients compute it (SPEC-GAPS "Stars").
    q.stars = std::max<int64_t>(1, q.final_minor / stars_rate_minor + (q.final_minor % stars_rate_minor != 0 ? 1 : 0));
    return q;
}

}  // namespace cabinet
