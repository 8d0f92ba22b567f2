// cabinetctl landing render | show: the public landing page (services/landing_publish.hpp).
// `render` writes LANDING_DIR/index.html now (the worker does it within
// --landing-every seconds of any change anyway); `show` prints the page without writing it.
#include <iostream>

#include "commands.hpp"
#include "db/db.hpp"
#include "services/landing_publish.hpp"

namespace cabinet::ctl {

int landing(const Args& args) {
    const std::string what = args.empty() ? "" : args[0];
    if (what != "render" && what != "show") {
        std::cerr << "usage: cabinetctl landing render | show\n";
        return 2;
    }
    const Settings s = load_effective_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    if (what == "show") {
        std::cout << render_landing_page(landing_page_input(db, s));
        return 0;
    }
    if (s.landing_dir.empty()) {
        std::cerr << "cabinetctl landing render: LANDING_DIR is not set (the folder nginx serves / from)\n";
        return 1;
    }
    const LandingPublished out = publish_landing(db, s);
    std::cout << out.path << (out.changed ? ": written" : ": unchanged") << "\n";
    return 0;
}

}  // namespace cabinet::ctl
