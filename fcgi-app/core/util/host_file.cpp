#include "util/host_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cabinet {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

uint64_t* map_host_file(const std::string& path, size_t bytes, const std::string& what) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) fail("cannot open the " + what + " file", path);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || (static_cast<size_t>(st.st_size) < bytes && ::ftruncate(fd, static_cast<off_t>(bytes)) != 0)) {
        const int saved = errno;
        ::close(fd);
        errno = saved;
        fail("cannot size the " + what + " file", path);
    }
    void* map = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int saved = errno;
    ::close(fd);  // the mapping stays
    errno = saved;
    if (map == MAP_FAILED) fail("cannot map the " + what + " file", path);
    return static_cast<uint64_t*>(map);
}

void unmap_host_file(uint64_t* words, size_t bytes) {
    if (words) ::munmap(words, bytes);
}

}  // namespace cabinet
