#include "state_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mock {
namespace {

std::string os_error(const std::string& what, const std::string& path) {
    return what + " " + path + ": " + std::strerror(errno);
}

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
    if (access(path.c_str(), F_OK) != 0 && errno == ENOENT) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw StateFileError(os_error("cannot open", path));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw StateFileError(os_error("cannot read", path));
    return text.str();
}

void write_state_file(const std::string& path, std::string_view text) {
    const std::string tmp = path + ".tmp";  // one writer at a time: start-up, then one compaction at a time
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw StateFileError(os_error("cannot create", tmp));
    try {
        write_all(fd, text, tmp);
    } catch (const StateFileError&) {
        close(fd);
        unlink(tmp.c_str());
        throw;
    }
    if (fsync(fd) != 0) {
        const std::string err = os_error("cannot fsync", tmp);
        close(fd);
        unlink(tmp.c_str());
        throw StateFileError(err);
    }
    close(fd);
    if (rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string err = os_error("cannot rename onto", path);
        unlink(tmp.c_str());
        throw StateFileError(err);
    }
    sync_directory_of(path);  // makes the rename itself durable
}

}  // namespace mock
