#pragma once
// Every API request since start (not the /__mock/ hooks themselves), so a test can check
// what a client really sent. Kept in memory and capped, oldest first out.
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "util/json.hpp"

namespace mock {

struct JournalEntry {
    int64_t at_ms = 0;
    std::string method, path, query, user_agent, body;
    int status = 0;
};

class Journal {
public:
    static constexpr size_t kCapacity = 10000;

    void record(JournalEntry entry);
    void clear();
    // A JSON array; each body appears as JSON when it parses, else as a string, null when empty.
    void write(cabinet::JsonWriter& w) const;

private:
    mutable std::mutex mu_;
    std::deque<JournalEntry> entries_;
};

}  // namespace mock
