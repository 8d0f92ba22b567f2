#pragma once
// Requests straight to one pool process, by its FastCGI socket, past nginx.
//
// nginx sends a Telegram user's requests to one process (nginx/cabinet_http.conf), so no
// request through it can show what another process would answer. The promise these tests
// check is that it does not matter which process answers (cache/account_cache.hpp,
// cache/catalog_cache.hpp): they ask each process in turn, as nginx would if the pool's
// membership changed or a web session of the same user were hashed elsewhere.
#include <functional>
#include <memory>
#include <string>

#include "support.hpp"

namespace it {

// How many pool processes the test stack runs (POOL_PROCS), each on run/fcgi-N.sock.
int pool_processes();

// `method path` as nginx would pass it to process `process` (1 .. pool_processes()), with
// `authorization` as the Authorization header when not empty. Status and body as the
// process wrote them; headers lower-cased.
HttpResult pool_request(int process, const std::string& method, const std::string& path,
                        const std::string& authorization = {}, const std::string& body = {});

// One connection to pool process `process` that stays open between requests, as nginx keeps
// them (fastcgi_keep_conn on): each request asks the process to keep it.
class KeptConnection {
public:
    explicit KeptConnection(int process);
    ~KeptConnection();
    KeptConnection(const KeptConnection&) = delete;
    KeptConnection& operator=(const KeptConnection&) = delete;
    HttpResult request(const std::string& method, const std::string& path, const std::string& authorization = {});
    // True once the process has closed its end.
    bool closed_by_process();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// GET `path` with `authorization` from every pool process in turn, `times` each (a process
// spreads them over its threads): each must answer 200, and `check` sees each answer.
void on_every_process(const std::string& authorization, const std::string& path,
                      const std::function<void(const rapidjson::Document&)>& check, int times = 12);
// The same, only that each answers 200 (and so has read what it serves).
void warm_every_process(const std::string& authorization, const std::string& path);

}  // namespace it
