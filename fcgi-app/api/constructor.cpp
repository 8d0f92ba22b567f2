// GET /api/cabinet/constructor: the constructor price list (SPEC-GAPS "Cabinet shapes"):
// periods and traffic packs, each priced for the caller through quote().
#include "api/handlers.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_constructor(Exchange& ex) {
    const Account& a = ex.caller();
    const auto catalog = ex.shared.catalog.get(ex.io.db, a.catalog_version);
    const ConstructorPriceList& list = catalog->constructor;
    const Discounts discounts = discounts_for(a.user, running_sale_pct(catalog->sales, unix_now()));
    const int64_t rate = ex.settings().stars_rate_minor;
    auto price = [&](int64_t list_minor) { return quote(list_minor, discounts, rate).final_minor; };

    JsonObject o(ex.resp.json());
    // The client converts a chosen period + pack to stars itself: max(1, ceil(price / rate))
    // with the rate in minor units per star (SPEC-GAPS "Stars"), the original's integer.
    o.put("currency", a.user.currency).put("stars_rate", rate);
    {
        auto periods = o.array("periods");
        for (const ConstructorPeriod& p : list.periods)
            periods.object().put("id", p.id).put("days", p.days).put("months", p.months).put("price_minor", price(p.price_minor));
    }
    auto packs = o.array("traffic_packs");
    for (const TrafficPack& k : list.packs)
        packs.object().put("id", k.id).put("gb", k.gb).put("price_minor", price(k.price_minor));
}

}  // namespace cabinet::api
