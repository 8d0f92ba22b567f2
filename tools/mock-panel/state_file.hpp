#pragma once
// The bytes of the state files on disk. Writes are atomic (temp file, fsync, rename, fsync
// of the directory): a crash leaves either the old or the new file, never half of one.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mock {

class StateFileError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// nullopt when the file does not exist; throws StateFileError when it cannot be read.
std::optional<std::string> read_state_file(const std::string& path);

// Writes a state file in pieces (a snapshot may be a gigabyte): appends go to a temp file
// beside `path`, commit() makes it the file. Not committed: the temp file is removed.
class StateFileWriter {
public:
    explicit StateFileWriter(std::string path);
    ~StateFileWriter();
    StateFileWriter(const StateFileWriter&) = delete;
    StateFileWriter& operator=(const StateFileWriter&) = delete;
    void append(std::string_view text);
    void commit();
    uint64_t bytes() const { return bytes_; }

private:
    std::string path_, tmp_;
    int fd_ = -1;
    uint64_t bytes_ = 0;
};

// "WHAT PATH: strerror(errno)", the message of a StateFileError for a failed system call.
std::string os_error(const std::string& what, const std::string& path);

// write() until all of `text` is written to `fd`; StateFileError naming `path` when not.
void write_all(int fd, std::string_view text, const std::string& path);
// fsync of the directory holding `path`, so a rename or a new file there lasts.
void sync_directory_of(const std::string& path);

}  // namespace mock
