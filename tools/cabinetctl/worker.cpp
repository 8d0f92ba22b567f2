// cabinetctl worker: the background process. For now it stamps the heartbeat that
// GET /health/deep reads (SPEC: once a minute, fresh when <= 180 s old); the job queue
// of the purchase issue runs here too. SIGTERM/SIGINT stop it between two beats.
#include <signal.h>
#include <spdlog/spdlog.h>

#include <ctime>

#include "cache/redis.hpp"
#include "commands.hpp"
#include "log/logging.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {

int worker(const Args& args) {
    const Settings s = load_or_die();
    setup_logging(s.log_level, "cabinet-worker");
    int64_t interval_s = 60;
    if (!parse_int64(option(args, "--heartbeat-every", "60"), interval_s) || interval_s < 1)
        throw std::runtime_error("--heartbeat-every must be a positive number of seconds");

    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigprocmask(SIG_BLOCK, &stop, nullptr);

    Redis redis(parse_redis_url(s.redis_url), s.redis_timeout_ms);
    spdlog::info("worker started, heartbeat every {} s", interval_s);
    while (true) {
        if (redis.set("cabinet:worker:heartbeat", std::to_string(unix_now()), 600)) spdlog::debug("heartbeat");
        else spdlog::warn("heartbeat not stored: redis unavailable");
        const timespec wait{static_cast<time_t>(interval_s), 0};
        const int sig = sigtimedwait(&stop, nullptr, &wait);
        if (sig == SIGTERM || sig == SIGINT) break;
    }
    spdlog::info("worker stopped");
    return 0;
}

}  // namespace cabinet::ctl
