#include "services/host_health.hpp"

namespace cabinet {

std::vector<GaugeRow> host_gauges(Db& db) {
    return db.read([](pqxx::nontransaction& txn) { return read_host_gauges(txn); });
}

void ping_database(Db& db) {
    db.read([](auto& txn) { ping(txn); });
}

}  // namespace cabinet
