#include "http/fcgi_connections.hpp"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "http/fcgi_io.hpp"

// libfcgi 2.4.2 (Debian's libfcgi0ldbl, the version CMake links) has no call that reads a
// request from a connection the program accepted itself, but FCGX_Accept_r does exactly that
// with the connection in the record's `ipcFd` (its header asks programs not to touch the
// fields from there on; these two are stable since 2.4.0 and this file is the only place that
// does). Checked against the library's code: FCGX_Accept_r first calls FCGX_Finish_r, which
// closes `ipcFd` unless `keepConnection` is set, then reads the begin record from `ipcFd`
// when it is >= 0 and accepts on `listen_sock` only when it is not. After the request,
// FCGX_Finish_r leaves the connection open exactly when nginx's begin record asked to keep
// it (FCGI_KEEP_CONN sets `keepConnection`). tests/integration/pool_test.cpp covers each path.

namespace cabinet {
namespace {

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

}  // namespace

FcgiConnections::FcgiConnections(int listen_fd, metrics::Counter accepted)
    : listen_fd_(listen_fd), epoll_fd_(epoll_create1(EPOLL_CLOEXEC)), stop_fd_(eventfd(0, EFD_CLOEXEC)),
      accepted_(accepted) {
    if (epoll_fd_ < 0 || stop_fd_ < 0) fail("epoll set");
    // Non-blocking, so that a thread woken for a connection another one took meanwhile (or
    // one that went away) gets EAGAIN from accept4 instead of waiting in it.
    const int flags = fcntl(listen_fd_, F_GETFL);
    if (flags < 0 || fcntl(listen_fd_, F_SETFL, flags | O_NONBLOCK) < 0) fail("listener non-blocking");
    epoll_event stop{};
    stop.events = EPOLLIN;  // level-triggered: once readable, every epoll_wait returns it
    stop.data.fd = stop_fd_;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, stop_fd_, &stop) < 0) fail("epoll stop event");
    watch(listen_fd_, true);
}

FcgiConnections::~FcgiConnections() {
    ::close(epoll_fd_);
    ::close(stop_fd_);
}

void FcgiConnections::init(FCGX_Request& fr) { FCGX_InitRequest(&fr, -1, 0); }

// One-shot: the thread that epoll_wait hands an fd to owns it until it arms it again, so no
// two threads ever read one connection (or accept for the same wake-up). A connection is
// added to the set after its first request (served straight from accept), so arming it
// then finds it missing and adds it.
void FcgiConnections::watch(int fd, bool first) const {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
    ev.data.fd = fd;
    if (epoll_ctl(epoll_fd_, first ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev) == 0) return;
    // Re-arming the listener fails only once stop_accepting() has taken it out (and the
    // caller closed it): nothing to do.
    if (!first && fd == listen_fd_) return;
    if (!first && errno == ENOENT && epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) == 0) return;
    fail("epoll watch");  // the kernel out of memory: let the supervisor restart the process
}

void FcgiConnections::drop(int fd) {
    ::close(fd);
    open_.fetch_sub(1, std::memory_order_relaxed);
}

bool FcgiConnections::next(FCGX_Request& fr) {
    for (;;) {
        epoll_event ev{};
        const int n = epoll_wait(epoll_fd_, &ev, 1, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("epoll_wait");
        }
        if (n == 0) continue;
        if (ev.data.fd == stop_fd_) return false;
        int fd = ev.data.fd;
        if (fd == listen_fd_) {
            fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);  // a blocking socket, as libfcgi reads it
            if (accepting_.load(std::memory_order_relaxed)) watch(listen_fd_, false);
            if (fd < 0) {
                // EAGAIN: another thread took it, or the peer gave up. Out of descriptors: the
                // listener is still readable, so pause instead of spinning on it.
                if (errno == EMFILE || errno == ENFILE) usleep(10000);
                continue;
            }
            open_.fetch_add(1, std::memory_order_relaxed);
            accepted_.add();
            // nginx writes the request right after connecting: read it now rather than after
            // another turn through the set, but only once something has arrived, so that a
            // peer that connects and sends nothing never holds a thread (libfcgi reads
            // blocking).
            char first;
            if (recv(fd, &first, 1, MSG_PEEK | MSG_DONTWAIT) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                watch(fd, true);
                continue;
            }
        }
        // Set `keepConnection` so that FCGX_Accept_r's own FCGX_Finish_r leaves fd open.
        fr.ipcFd = fd;
        fr.keepConnection = 1;
        if (FCGX_Accept_r(&fr) >= 0) return true;
        // End of file (nginx closed a connection it kept) or a request libfcgi could not
        // read: libfcgi closed fd, then failed to accept on no listener.
        fr.ipcFd = -1;
        open_.fetch_sub(1, std::memory_order_relaxed);
    }
}

void FcgiConnections::finish(FCGX_Request& fr) {
    finish_request(fr);  // closes the connection unless nginx keeps it
    const int fd = fr.ipcFd;
    if (fd < 0) {
        open_.fetch_sub(1, std::memory_order_relaxed);
        return;
    }
    fr.ipcFd = -1;  // the set holds it now, not this thread's record
    try {
        watch(fd, false);
    } catch (...) {
        drop(fd);
        throw;
    }
}

void FcgiConnections::stop_accepting() {
    accepting_.store(false, std::memory_order_relaxed);
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
}

void FcgiConnections::close() {
    const uint64_t one = 1;
    if (::write(stop_fd_, &one, sizeof one) != sizeof one) fail("epoll stop event");
}

}  // namespace cabinet
