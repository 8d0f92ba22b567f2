// nginx site, systemd units and the next steps of `cabinetctl setup` (setup_host.hpp).
#include "setup_host.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <vector>

extern char** environ;

namespace cabinet::ctl {
namespace fs = std::filesystem;
namespace {

constexpr const char* kSite = "/etc/nginx/sites-available/cabinet";
constexpr const char* kMockSite = "/etc/nginx/sites-available/cabinet-mock-panel";
constexpr const char* kSnakeoilCert = "/etc/ssl/certs/ssl-cert-snakeoil.pem";
constexpr const char* kSnakeoilKey = "/etc/ssl/private/ssl-cert-snakeoil.key";

// Runs a program (PATH searched) with this process's stdout and stderr; true on exit 0.
bool run(const std::vector<std::string>& argv, std::ostream& out) {
    out << "  $";
    for (const auto& a : argv) out << " " << a;
    out << std::endl;
    std::vector<char*> c_argv;
    for (const auto& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
    c_argv.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawnp(&pid, c_argv[0], nullptr, nullptr, c_argv.data(), environ) != 0) return false;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return false;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void link_site(const std::string& available, std::ostream& out) {
    const fs::path enabled = fs::path("/etc/nginx/sites-enabled") / fs::path(available).filename();
    std::error_code ec;
    if (!fs::exists(enabled, ec)) fs::create_symlink(available, enabled);
    out << "  enabled " << enabled.string() << "\n";
}

// The site for the domain (rendered by the packaged tools/render-nginx, the one template of
// docs/operations.md), without HSTS and with Debian's self-signed certificate until certbot
// has one; the mock panel's site when asked. Then `nginx -t`.
bool nginx_site(const HostPlan& p, bool& snakeoil, std::ostream& out) {
    const std::string le_cert = "/etc/letsencrypt/live/" + p.domain + "/fullchain.pem";
    snakeoil = !fs::exists(le_cert);
    if (snakeoil && !fs::exists(kSnakeoilCert) && !run({"make-ssl-cert", "generate-default-snakeoil"}, out)) {
        std::cerr << "setup: no certificate yet and none could be made (apt-get install ssl-cert)\n";
        return false;
    }
    std::vector<std::string> render = {(p.share_dir / "tools/render-nginx").string(),
                                       "--server-name", p.domain, "--pool", std::to_string(p.pool),
                                       "--static-root", (p.share_dir / "nginx/html").string(), "--install-snippets",
                                       "-o", kSite};
    if (snakeoil) render.insert(render.end(), {"--no-hsts", "--cert", kSnakeoilCert, "--key", kSnakeoilKey});
    fs::create_directories("/var/www/letsencrypt");
    if (!run(render, out)) {
        std::cerr << "setup: the nginx site could not be rendered (above)\n";
        return false;
    }
    link_site(kSite, out);
    if (p.mock_panel) {
        fs::copy_file(p.share_dir / "nginx/cabinet-mock-panel.site", kMockSite, fs::copy_options::overwrite_existing);
        link_site(kMockSite, out);
    }
    if (!run({"nginx", "-t", "-q"}, out)) {
        std::cerr << "setup: nginx -t fails (above): fix the site, then: systemctl reload nginx\n";
        return false;
    }
    return true;
}

std::vector<std::string> units(const HostPlan& p) {
    std::vector<std::string> u;
    for (int i = 1; i <= p.pool; ++i) u.push_back("cabinet-fcgi@" + std::to_string(i) + ".socket");
    u.insert(u.end(), {"cabinet-worker.service", "cabinet-sync.timer", "cabinet-backup.timer",
                       "cabinet-watchdog.timer", "cabinet-cleanup.timer"});
    if (p.mock_panel) u.push_back("cabinet-mock-panel.service");
    return u;
}

void next_steps(const HostPlan& p, bool snakeoil, std::ostream& out) {
    const std::string render = (p.share_dir / "tools/render-nginx").string() + " --server-name " + p.domain +
                               " --pool " + std::to_string(p.pool) + " --static-root " +
                               (p.share_dir / "nginx/html").string() + " --install-snippets -o " + kSite;
    out << "\nNext steps\n";
    if (snakeoil) {
        out << "1. TLS: point " << p.domain << " at this host, then get a certificate with certbot's nginx plugin:\n"
            << "     apt-get install certbot python3-certbot-nginx\n"
            << "     certbot --nginx -d " << p.domain << "\n"
            << "   Once https://" << p.domain << "/health answers with it, turn on HSTS (Let's Encrypt's paths):\n"
            << "     " << render << " && nginx -t && systemctl reload nginx\n";
    } else {
        out << "1. TLS: the certificate of " << p.domain << " from Let's Encrypt is in use.\n";
    }
    out << "2. The bot's webhook (Telegram sends updates to /bot/webhook with the secret):\n"
        << "     set -a; . " << p.env_file << "; set +a\n"
        << "     curl -s \"$TELEGRAM_API_BASE/bot$BOT_TOKEN/setWebhook\" -d url=https://" << p.domain
        << "/bot/webhook -d secret_token=\"$BOT_WEBHOOK_SECRET\"\n"
        << "3. Check: curl -s https://" << p.domain << "/health/deep\n";
}

}  // namespace

int switch_host_on(const HostPlan& p, std::ostream& out) {
    bool snakeoil = true;
    if (p.nginx) {
        out << "nginx site for " << p.domain << ":\n";
        if (!nginx_site(p, snakeoil, out)) return 1;
    }
    const auto list = units(p);
    if (p.systemd) {
        out << "systemd units:\n";
        std::vector<std::string> enable = {"systemctl", "enable", "--now"};
        enable.insert(enable.end(), list.begin(), list.end());
        if (!run({"systemctl", "daemon-reload"}, out) || !run(enable, out) ||
            (p.nginx && !run({"systemctl", "reload-or-restart", "nginx"}, out))) {
            std::cerr << "setup: systemctl failed (above); the settings are written: fix that and run setup again\n";
            return 1;
        }
    } else {
        out << "systemd is not running here (or --no-systemd): enable these units where it runs:\n  systemctl enable --now";
        for (const auto& u : list) out << " " << u;
        out << "\n";
    }
    next_steps(p, snakeoil, out);
    return 0;
}

}  // namespace cabinet::ctl
