#include "cache/account_generations.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cabinet {
namespace {

static_assert(std::atomic_ref<uint64_t>::is_always_lock_free, "the counters are shared between processes");

[[noreturn]] void fail(const std::string& what, const std::string& path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

size_t slot_of(int64_t user_id) {
    return static_cast<size_t>(static_cast<uint64_t>(user_id) % AccountGenerations::kSlots);
}

}  // namespace

AccountGenerations::AccountGenerations(const std::string& path) : bytes_((kFirstSlotWord + kSlots) * sizeof(uint64_t)) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) fail("cannot open the account generations file", path);
    struct stat st {};
    // Growing a new (or shorter) file is harmless while others map it: new words read 0.
    if (::fstat(fd, &st) != 0 || (static_cast<size_t>(st.st_size) < bytes_ && ::ftruncate(fd, static_cast<off_t>(bytes_)) != 0)) {
        const int saved = errno;
        ::close(fd);
        errno = saved;
        fail("cannot size the account generations file", path);
    }
    void* map = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int saved = errno;
    ::close(fd);  // the mapping stays
    errno = saved;
    if (map == MAP_FAILED) fail("cannot map the account generations file", path);
    words_ = static_cast<uint64_t*>(map);
}

AccountGenerations::~AccountGenerations() {
    if (words_) ::munmap(words_, bytes_);
}

uint64_t* AccountGenerations::counter(size_t index) const { return words_ + index; }

AccountStamp AccountGenerations::stamp(int64_t user_id) const {
    AccountStamp s;
    s.epoch = std::atomic_ref<uint64_t>(*counter(kEpochWord)).load(std::memory_order_acquire);
    s.slot = std::atomic_ref<uint64_t>(*counter(kFirstSlotWord + slot_of(user_id))).load(std::memory_order_acquire);
    return s;
}

void AccountGenerations::bump(int64_t user_id) const {
    std::atomic_ref<uint64_t>(*counter(kFirstSlotWord + slot_of(user_id))).fetch_add(1, std::memory_order_acq_rel);
}

void AccountGenerations::bump_all() const {
    std::atomic_ref<uint64_t>(*counter(kEpochWord)).fetch_add(1, std::memory_order_acq_rel);
}

void AccountGenerations::count_sync() const {
    std::atomic_ref<uint64_t>(*counter(kSyncWord)).fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace cabinet
