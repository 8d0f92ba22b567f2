#pragma once
// The bytes of the state file on disk. Writes are atomic (temp file, fsync, rename, fsync
// of the directory): a crash leaves either the old or the new state, never half of one.
#include <optional>
#include <stdexcept>
#include <string>

namespace mock {

class StateFileError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// nullopt when the file does not exist; throws StateFileError when it cannot be read.
std::optional<std::string> read_state_file(const std::string& path);
void write_state_file(const std::string& path, const std::string& text);

}  // namespace mock
