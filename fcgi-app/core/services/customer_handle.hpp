#pragma once
// How the owner's lists name a customer beside something of theirs (a payment, a support
// ticket, a broadcast's recipient): enough to show a name and link the card, one shape
// everywhere: {"id", "telegram_id", "username", "first_name"}.
#include <cstdint>
#include <optional>
#include <string>

#include "util/json_fields.hpp"

namespace cabinet {

struct CustomerHandle {
    int64_t id = 0;
    std::optional<int64_t> telegram_id;
    std::string username, first_name;
};

// "customer": {…}
inline void write_customer_handle(JsonWriter& w, const CustomerHandle& c) {
    write_key(w, "customer");
    w.StartObject();
    put_int(w, "id", c.id);
    put_int(w, "telegram_id", c.telegram_id);
    put_text(w, "username", c.username);
    put_text(w, "first_name", c.first_name);
    w.EndObject();
}

}  // namespace cabinet
