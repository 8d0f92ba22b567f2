#pragma once
// A bulk load into tables that already hold indexes and constraints: inserting millions of
// rows one index entry and one foreign-key check at a time is what makes a large seed take
// hours. Inside the caller's transaction, BulkLoadWindow drops the secondary indexes and the
// unique and foreign-key constraints of the given tables (their definitions read from the
// catalogue, so a later migration's are included), and restore() creates them again: one
// sort per index and one set-based check per constraint, the way pg_restore does it. The
// primary keys stay. A failure anywhere rolls the whole transaction back, dropped objects
// included; restore() failing (a duplicate, a dangling reference) is such a failure.
#include <pqxx/pqxx>

#include <string>
#include <vector>

namespace cabinet::ctl {

class BulkLoadWindow {
public:
    // Takes an ACCESS EXCLUSIVE lock on each table until the transaction ends.
    BulkLoadWindow(pqxx::work& txn, const std::vector<std::string>& tables);
    // Recreates everything dropped, unique constraints and indexes before foreign keys.
    void restore();

private:
    pqxx::work& txn_;
    std::vector<std::string> recreate_;  // statements, in the order they must run
};

}  // namespace cabinet::ctl
