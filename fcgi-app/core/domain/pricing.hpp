#pragma once
// The one price rule of the shop (SPEC "Price rules"). GET /plans and GET /constructor show
// exactly what POST /purchase charges, because both call quote().
//
//   discount_pct = min(100, personal + promo group + promo-code offer + running sale)
//   final_minor  = list - floor(list * discount_pct / 100)     (rounded in the shop's favour:
//                  a discount never takes off more than its exact share; 100 % is free)
//   stars        = ceil(final_minor / stars_rate_minor)         (0 only when free)
#include <cstdint>

namespace cabinet {

struct Discounts {
    int64_t personal_pct = 0;
    int64_t group_pct = 0;
    int64_t promo_pct = 0;
    int64_t sale_pct = 0;

    int64_t total_pct() const;
};

struct Quote {
    int64_t list_minor = 0;
    int64_t discount_pct = 0;
    int64_t final_minor = 0;
    int64_t stars = 0;
};

// `list_minor` >= 0, `stars_rate_minor` > 0. No overflow for any int64 list price.
Quote quote(int64_t list_minor, const Discounts& d, int64_t stars_rate_minor);

}  // namespace cabinet
