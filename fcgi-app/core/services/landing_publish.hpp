#pragma once
// Keeps the landing page's static file (LANDING_DIR/index.html, served by nginx at `/`) in
// step with the data it shows: the owner's landing copy and look (app_config), the active
// plans with their list prices, and the settings (payment methods, bot, web cabinet). The
// worker calls it every few seconds and `cabinetctl landing render` on demand; the file is
// rewritten (atomically, by rename) only when the page changed.
#include <string>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "site/landing_page.hpp"

namespace cabinet {

// The page's data from the database and the settings.
LandingPageInput landing_page_input(Db& db, const Settings& s);

struct LandingPublished {
    std::string path;  // the file
    bool changed = false;
};

// Renders and writes LANDING_DIR/index.html when it differs from what is there. Throws on a
// database error or a file that cannot be written. LANDING_DIR must be set.
LandingPublished publish_landing(Db& db, const Settings& s);

}  // namespace cabinet
