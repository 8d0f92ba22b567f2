#pragma once
// The bytes of the state file on disk. Writes are atomic (temp file, fsync, rename, fsync
// of the directory): a crash leaves either the old or the new state, never half of one.
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
void write_state_file(const std::string& path, std::string_view text);

// write() until all of `text` is written to `fd`; StateFileError naming `path` when not.
void write_all(int fd, std::string_view text, const std::string& path);
// fsync of the directory holding `path`, so a rename or a new file there lasts.
void sync_directory_of(const std::string& path);

}  // namespace mock
