#pragma once
// The append-only file beside the snapshot that holds every change since the snapshot,
// one JSON line per change. A change is written under the state's lock (cheap: one
// write() into the page cache) and answered once it is flushed: threads that wait at the
// same time share one fdatasync (group commit), so a burst of changes costs a few
// flushes, not one each, and no lock is held while the disk works.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

namespace mock {

class ChangeLog {
public:
    // Opens (creating) the file at `path` for appending.
    explicit ChangeLog(std::string path);
    ~ChangeLog();
    ChangeLog(const ChangeLog&) = delete;
    ChangeLog& operator=(const ChangeLog&) = delete;

    // Appends one line (`line` ends with '\n') and returns its number, to wait for. Throws
    // StateFileError when it cannot, after cutting the file back to where it was, so a
    // failed change leaves no half line behind. The caller serialises appends.
    uint64_t append(const std::string& line);
    // Returns once line `seq` and every line before it are on disk. A failed flush
    // aborts the process: what the kernel dropped cannot be told apart from what it kept
    // (PostgreSQL does the same), and a restart replays what the disk really holds.
    void wait_durable(uint64_t seq);
    // The number of the last line appended, and the file's size.
    uint64_t written() const;
    uint64_t bytes() const;

    // Flushes what is written, renames the file to `old_path` and starts an empty one at
    // the old path. The caller serialises this with append().
    void rotate(const std::string& old_path);
    // Flushes and empties the file (after a snapshot that holds all it says).
    void truncate();

private:
    void flush_all(std::unique_lock<std::mutex>& lock);

    std::string path_;
    int fd_ = -1;
    mutable std::mutex mu_;
    std::condition_variable flushed_;
    uint64_t written_ = 0, durable_ = 0;
    uint64_t bytes_ = 0;
    bool flushing_ = false;
};

}  // namespace mock
