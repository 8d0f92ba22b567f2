#include "bulk_load.hpp"

namespace cabinet::ctl {
namespace {

std::string table_array(pqxx::work& txn, const std::vector<std::string>& tables) {
    std::string out = "ARRAY[";
    for (size_t i = 0; i < tables.size(); ++i) out += (i ? "," : "") + txn.quote(tables[i]);
    return out + "]::regclass[]";
}

}  // namespace

BulkLoadWindow::BulkLoadWindow(pqxx::work& txn, const std::vector<std::string>& tables) : txn_(txn) {
    const std::string rels = table_array(txn, tables);
    for (const auto& t : tables) txn.exec0("LOCK TABLE " + txn.quote_name(t) + " IN ACCESS EXCLUSIVE MODE");
    // Unique and exclusion constraints first (a foreign key may rest on one), then the rest.
    const auto constraints = txn.exec(
        "SELECT conrelid::regclass::text, quote_ident(conname), pg_get_constraintdef(oid), contype = 'f' AS fk"
        " FROM pg_constraint c WHERE conrelid = ANY(" + rels + ") AND contype IN ('u', 'x', 'f')"
        // a unique constraint that another table's foreign key rests on stays
        "  AND NOT (contype <> 'f' AND EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f'"
        "           AND f.conindid = c.conindid AND NOT f.conrelid = ANY(" + rels + ")))"
        " ORDER BY contype = 'f', conrelid, conname");
    // Plain indexes: neither a primary key nor backing a constraint.
    const auto indexes = txn.exec(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i"
        " WHERE i.indrelid = ANY(" + rels + ") AND NOT i.indisprimary"
        "  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)"
        " ORDER BY 1");
    std::vector<std::string> foreign_keys;
    for (const auto& c : constraints) {
        const std::string table = c[0].c_str(), name = c[1].c_str();
        (c[3].as<bool>() ? foreign_keys : recreate_)
            .push_back("ALTER TABLE " + table + " ADD CONSTRAINT " + name + " " + c[2].c_str());
    }
    for (const auto& i : indexes) recreate_.push_back(i[1].c_str());
    recreate_.insert(recreate_.end(), foreign_keys.begin(), foreign_keys.end());
    // Foreign keys dropped first: a unique constraint cannot go while one rests on it.
    for (auto it = constraints.rbegin(); it != constraints.rend(); ++it)
        txn.exec0("ALTER TABLE " + std::string((*it)[0].c_str()) + " DROP CONSTRAINT " + (*it)[1].c_str());
    for (const auto& i : indexes) txn.exec0("DROP INDEX " + std::string(i[0].c_str()));
}

void BulkLoadWindow::restore() {
    for (const auto& sql : recreate_) txn_.exec0(sql);
    recreate_.clear();
}

}  // namespace cabinet::ctl
