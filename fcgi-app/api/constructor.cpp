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

    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("currency");
    write_string(w, a.user.currency);
    // The client converts a chosen period + pack to stars itself: max(1, ceil(price / rate))
    // with the rate in minor units per star (SPEC-GAPS "Stars"), the original's integer.
    w.Key("stars_rate");
    w.Int64(rate);
    w.Key("periods");
    w.StartArray();
    for (const ConstructorPeriod& p : list.periods) {
        w.StartObject();
        w.Key("id");
        w.Int64(p.id);
        w.Key("days");
        w.Int64(p.days);
        w.Key("months");
        w.Int64(p.months);
        w.Key("price_minor");
        w.Int64(price(p.price_minor));
        w.EndObject();
    }
    w.EndArray();
    w.Key("traffic_packs");
    w.StartArray();
    for (const TrafficPack& k : list.packs) {
        w.StartObject();
        w.Key("id");
        w.Int64(k.id);
        w.Key("gb");
        w.Int64(k.gb);
        w.Key("price_minor");
        w.Int64(price(k.price_minor));
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

}  // namespace cabinet::api
