#include "state_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mock {

std::string os_error(const std::string& what, const std::string& path) {
    return what + " " + path + ": " + std::strerror(errno);
}

namespace {

std::string directory_of(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

}  // namespace

void write_all(int fd, std::string_view text, const std::string& path) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw StateFileError(os_error("cannot write", path));
        done += static_cast<size_t>(n);
    }
}

void sync_directory_of(const std::string& path) {
    const int dir = open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return;
    fsync(dir);
    close(dir);
}

std::optional<std::string> read_state_file(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) return std::nullopt;
    if (fd < 0) throw StateFileError(os_error("cannot open", path));
    // Read straight into one string of the file's size: a snapshot may be a gigabyte.
    struct stat st {};
    std::string text;
    if (fstat(fd, &st) == 0) text.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (true) {
        if (done == text.size()) text.resize(text.size() + 65536);  // it grew meanwhile
        const ssize_t n = read(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const std::string err = os_error("cannot read", path);
            close(fd);
            throw StateFileError(err);
        }
        if (n == 0) break;
        done += static_cast<size_t>(n);
    }
    close(fd);
    text.resize(done);
    return text;
}

StateFileWriter::StateFileWriter(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
    // One writer at a time: the start-up, then one compaction at a time.
    fd_ = open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd_ < 0) throw StateFileError(os_error("cannot create", tmp_));
}

StateFileWriter::~StateFileWriter() {
    if (fd_ < 0) return;
    close(fd_);
    unlink(tmp_.c_str());
}

void StateFileWriter::append(std::string_view text) {
    write_all(fd_, text, tmp_);
    bytes_ += text.size();
}

void StateFileWriter::commit() {
    if (fsync(fd_) != 0) throw StateFileError(os_error("cannot fsync", tmp_));
    close(fd_);
    fd_ = -1;
    if (rename(tmp_.c_str(), path_.c_str()) != 0) {
        const std::string err = os_error("cannot rename onto", path_);
        unlink(tmp_.c_str());
        throw StateFileError(err);
    }
    sync_directory_of(path_);  // makes the rename itself durable
}

}  // namespace mock
