#pragma once
// Backup archives: one zip with a single entry, the pg_dump custom-format file, encrypted
// with WinZip AES-256 (libzip). The password is handed over in-process, never on a
// command line. Reading checks the password and the whole entry (AES HMAC, size) before
// the caller restores anything.
#include <stdexcept>
#include <string>

namespace cabinet::backup {

// Any failure to write or read an archive, with a message meant for the operator.
class ArchiveError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr const char* kDumpEntry = "cabinet.dump";

// Packs `dump_file` as kDumpEntry into a new zip at `zip_path` (replaced if present).
void write_archive(const std::string& zip_path, const std::string& dump_file, const std::string& password);

// Unpacks kDumpEntry of `zip_path` into `out_file` (created with mode 0600). Throws
// ArchiveError for a damaged or truncated archive, a missing or unencrypted entry, or a
// wrong password; `out_file` is removed then.
void read_archive(const std::string& zip_path, const std::string& password, const std::string& out_file);

}  // namespace cabinet::backup
