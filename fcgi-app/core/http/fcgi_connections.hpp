#pragma once
// The connections nginx keeps open to one FastCGI process between requests
// (`fastcgi_keep_conn on` with an upstream `keepalive` cache): one epoll set holds the
// listening socket and every connection that waits for its next request, and whichever
// thread is free serves the next one that has something to read. A thread is tied to a
// connection only while it answers a request on it, so nginx may keep more connections open
// than the process has threads (libfcgi's own accept loop would pin a thread to each:
// PRACTICE.md "libfcgi"). Connections nginx does not keep (keep_conn off, the tests' own
// FastCGI clients) are closed after their request as before.
//
//   FcgiConnections conns(listen_fd, counter);      // once per process
//   FCGX_Request fr; FcgiConnections::init(fr);     // once per thread
//   while (conns.next(fr)) { ...read, answer...; conns.finish(fr); }
//
// docs/decisions.md "Connections nginx keeps open".
#include <fcgiapp.h>

#include <atomic>

#include "metrics/counter.hpp"

namespace cabinet {

class FcgiConnections {
public:
    // `accepted` counts the connections taken from the listener (metrics). Throws
    // std::system_error when the epoll set cannot be made.
    FcgiConnections(int listen_fd, metrics::Counter accepted);
    ~FcgiConnections();
    FcgiConnections(const FcgiConnections&) = delete;
    FcgiConnections& operator=(const FcgiConnections&) = delete;

    // A thread's request record. It names no listener: libfcgi accepts nothing on its own
    // here, a connection it gives up on (end of file, a malformed request) is closed and
    // FCGX_Accept_r returns instead of blocking in accept().
    static void init(FCGX_Request& fr);

    // Waits for a request on any connection and reads its parameters into `fr`. False once
    // close() was called.
    bool next(FCGX_Request& fr);
    // Ends the request (http/fcgi_io.hpp finish_request) and puts the connection back in the
    // set when nginx keeps it; otherwise it is closed.
    void finish(FCGX_Request& fr);

    // Shutdown, in this order: take the listener out of the set (the caller then closes it,
    // so nginx's new connections go to another process); wait while open() > 0, i.e. until
    // nginx has closed the connections it kept (its upstream keepalive_time and
    // keepalive_timeout bound that) and the last request is answered; then close(): every
    // thread's next() returns false, and what is still open is closed with this object.
    void stop_accepting();
    int open() const { return open_.load(std::memory_order_relaxed); }
    void close();

private:
    void watch(int fd, bool first) const;  // (re)arm one-shot interest in fd
    void drop(int fd);                     // close a connection of ours

    int listen_fd_;
    int epoll_fd_;
    int stop_fd_;  // an eventfd, readable once close() was called: wakes every thread
    metrics::Counter accepted_;
    std::atomic<int> open_{0};
    std::atomic<bool> accepting_{true};
};

}  // namespace cabinet
