#pragma once
// The public landing page at `/` as one HTML document (../shared/FRONTEND.md "The landing is
// real HTML"): rendered from the same data as GET /public/landing and /public/plans, written
// to a static file by the worker (services/landing_publish.hpp) and served by nginx, so the
// page has its content, title and Open Graph tags before any script runs. Pure: no I/O.
#include <string>
#include <vector>

#include "domain/app_config.hpp"
#include "domain/catalog.hpp"
#include "domain/landing.hpp"

namespace cabinet {

struct LandingPageInput {
    ThemeConfig theme;
    Landing landing;
    std::vector<Plan> plans;             // active plans with list prices
    std::string currency;                // the shop's (ISO code)
    std::vector<std::string> payment_methods;  // ids a guest can pay with: yookassa, cryptobot, stars
    std::string bot_username;            // t.me/<it>; may be empty
    std::string cabinet_url;             // the web cabinet, no trailing slash; empty when it is off
    std::string site_url;                // the site's origin for canonical and og:url; may be empty
};

// The language of the page's own labels (the owner's copy is in whatever language it was
// written): "ru" when the headline and subheadline are mostly Cyrillic, else "en".
std::string landing_language(const Landing& l);

// A price in minor units as the landing shows it: "299 ₽", "4.99 $", "12.50 EUR".
std::string landing_money(int64_t minor, const std::string& currency, const std::string& lang);

// The whole document. Asset paths are /static/__RELEASE__/…: nginx writes the release id
// in, as for the other entry pages. Every value from the data is escaped.
std::string render_landing_page(const LandingPageInput& in);

}  // namespace cabinet
