#include "services/landing_publish.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "db/app_config_repo.hpp"
#include "db/catalog_repo.hpp"

namespace cabinet {
namespace {

namespace fs = std::filesystem;

// "https://shop.example/cabinet" -> "https://shop.example".
std::string origin_of(const std::string& url) {
    const auto scheme = url.find("://");
    if (scheme == std::string::npos) return {};
    const auto path = url.find('/', scheme + 3);
    return path == std::string::npos ? url : url.substr(0, path);
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

[[noreturn]] void fail(const std::string& what, const fs::path& p) {
    throw std::runtime_error(what + " " + p.string() + ": " + std::strerror(errno));
}

// Written beside the target and renamed over it, so nginx never serves half a page. 0644
// whatever the umask: nginx reads it as another user.
void write_atomically(const fs::path& target, const std::string& body) {
    const fs::path tmp = target.parent_path() / (".index.html." + std::to_string(getpid()));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail("cannot create", tmp);
    size_t done = 0;
    while (done < body.size()) {
        const ssize_t n = ::write(fd, body.data() + done, body.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::close(fd);
            ::unlink(tmp.c_str());
            fail("cannot write", tmp);
        }
        done += static_cast<size_t>(n);
    }
    if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0) {
        ::unlink(tmp.c_str());
        fail("cannot finish", tmp);
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        ::unlink(tmp.c_str());
        fail("cannot rename into", target);
    }
}

}  // namespace

LandingPageInput landing_page_input(Db& db, const Settings& s) {
    LandingPageInput in;
    db.read([&](pqxx::nontransaction& txn) {
        in.theme = load_app_config(txn);
        in.plans = active_plans(txn);
        return 0;
    });
    in.landing = landing_from_ui(in.theme.ui_json, s.web_cabinet_enabled);
    in.currency = s.default_currency;
    if (s.yookassa_enabled) in.payment_methods.emplace_back("yookassa");
    if (s.cryptobot_enabled) in.payment_methods.emplace_back("cryptobot");
    in.payment_methods.emplace_back("stars");  // POST /purchase always takes them
    in.bot_username = s.bot_username;
    if (s.web_cabinet_enabled) in.cabinet_url = s.web_cabinet_url;
    in.site_url = origin_of(!s.web_cabinet_url.empty() ? s.web_cabinet_url : s.miniapp_url);
    return in;
}

LandingPublished publish_landing(Db& db, const Settings& s) {
    if (s.landing_dir.empty()) throw std::runtime_error("LANDING_DIR is not set");
    const fs::path dir(s.landing_dir);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create LANDING_DIR " + dir.string() + ": " + ec.message());
    const std::string page = render_landing_page(landing_page_input(db, s));
    LandingPublished out{(dir / "index.html").string(), false};
    if (read_file(out.path) == page) return out;
    write_atomically(out.path, page);
    out.changed = true;
    return out;
}

}  // namespace cabinet
