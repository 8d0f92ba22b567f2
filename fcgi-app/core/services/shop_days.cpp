#include "services/shop_days.hpp"

#include "db/overview_repo.hpp"

namespace cabinet {

DayRange shop_day_range(Db& db, const std::string& time_zone, const std::optional<std::string>& from,
                        const std::optional<std::string>& to) {
    if (!from && !to) return {};
    return db.read([&](auto& txn) {
        DayRange r;
        if (from) r.from = shop_day_start(txn, *from, 0, time_zone);
        if (to) r.until = shop_day_start(txn, *to, 1, time_zone);  // the whole last day
        return r;
    });
}

}  // namespace cabinet
