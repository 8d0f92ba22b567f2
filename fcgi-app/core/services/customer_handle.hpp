#pragma once
// How the owner's lists name a customer beside something of theirs (a payment, a support
// ticket, a broadcast's recipient): enough to show a name and link the card, one shape
// everywhere: {"id", "telegram_id", "username", "first_name"}. A customer's own object (the
// list's row, the support inbox's summary) starts with the same members.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>

#include "db/fields.hpp"
#include "util/json_object.hpp"

namespace cabinet {

struct CustomerHandle {
    int64_t id = 0;
    std::optional<int64_t> telegram_id;
    std::string username, first_name;
};

// Read from a row's `id_column`, telegram_id (may be null), username and first_name.
inline void read_customer_handle(CustomerHandle& c, const pqxx::row& r, const char* id_column = "id") {
    c.id = r[id_column].as<int64_t>();
    c.telegram_id = optional_int(r["telegram_id"]);
    c.username = r["username"].c_str();
    c.first_name = r["first_name"].c_str();
}

// The handle's members in the object being written.
inline JsonObject& put_customer_handle(JsonObject& o, const CustomerHandle& c) {
    o.put("id", c.id).put("telegram_id", c.telegram_id);
    return o.put("username", c.username).put("first_name", c.first_name);
}

// "customer": {…}
inline void write_customer_handle(JsonObject& o, const CustomerHandle& c) {
    JsonObject customer = o.object("customer");
    put_customer_handle(customer, c);
}

}  // namespace cabinet
