#include "change_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "state_file.hpp"

namespace mock {
namespace {

int open_for_append(const std::string& path) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) throw StateFileError(os_error("cannot open", path));
    return fd;
}

void flush_or_abort(int fd, const std::string& path) {
    if (fdatasync(fd) == 0) return;
    spdlog::critical("cannot flush {}: {}; stopping so a restart replays what is on disk", path, std::strerror(errno));
    std::abort();
}

}  // namespace

ChangeLog::ChangeLog(std::string path) : path_(std::move(path)), fd_(open_for_append(path_)) {
    struct stat st {};
    if (fstat(fd_, &st) == 0) bytes_ = static_cast<uint64_t>(st.st_size);
    sync_directory_of(path_);
}

ChangeLog::~ChangeLog() {
    if (fd_ >= 0) close(fd_);
}

uint64_t ChangeLog::append(const std::string& line) {
    std::unique_lock lock(mu_);
    try {
        write_all(fd_, line, path_);
    } catch (const StateFileError&) {
        if (ftruncate(fd_, static_cast<off_t>(bytes_)) != 0)
            spdlog::error("cannot cut {} back after a failed write: {}", path_, std::strerror(errno));
        throw;
    }
    bytes_ += line.size();
    return ++written_;
}

void ChangeLog::wait_durable(uint64_t seq) {
    std::unique_lock lock(mu_);
    while (durable_ < seq) {
        if (flushing_) {
            flushed_.wait(lock);
            continue;
        }
        // Lead: flush everything written so far for whoever waits.
        flushing_ = true;
        const uint64_t target = written_;
        const int fd = fd_;
        lock.unlock();
        flush_or_abort(fd, path_);
        lock.lock();
        flushing_ = false;
        if (target > durable_) durable_ = target;
        flushed_.notify_all();
    }
}

uint64_t ChangeLog::written() const {
    std::lock_guard lock(mu_);
    return written_;
}

uint64_t ChangeLog::bytes() const {
    std::lock_guard lock(mu_);
    return bytes_;
}

void ChangeLog::flush_all(std::unique_lock<std::mutex>& lock) {
    flushed_.wait(lock, [&] { return !flushing_; });  // a leader may still use the fd
    flush_or_abort(fd_, path_);
    durable_ = written_;
    flushed_.notify_all();
}

void ChangeLog::rotate(const std::string& old_path) {
    std::unique_lock lock(mu_);
    flush_all(lock);
    const int fresh_fd = [&] {
        if (rename(path_.c_str(), old_path.c_str()) != 0) throw StateFileError(os_error("cannot rename", path_));
        return open_for_append(path_);
    }();
    sync_directory_of(path_);
    close(fd_);
    fd_ = fresh_fd;
    bytes_ = 0;
}

void ChangeLog::truncate() {
    std::unique_lock lock(mu_);
    flush_all(lock);
    if (ftruncate(fd_, 0) != 0) throw StateFileError(os_error("cannot truncate", path_));
    flush_or_abort(fd_, path_);
    bytes_ = 0;
}

}  // namespace mock
