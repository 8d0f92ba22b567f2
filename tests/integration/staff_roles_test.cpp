// The owner's cabinet's roles (issue 47; http/router.hpp AuthKind, api/routes.cpp): every
// /api/admin/* route of the route table is walked with every role. A role the route admits
// gets past authorization (whatever the handler then says of the placeholder input); any
// other gets 403 with a detail and changes nothing (no audit row, no job); a customer gets
// 403 and a caller without a credential 401. The test stack's staff: 100000001 owner
// (ADMIN_IDS), 100000002 support (SUPPORT_IDS), 100000003 viewer (VIEWER_IDS).
#include "api/handlers.hpp"
#include "app/authenticate.hpp"
#include "catalog_support.hpp"

using namespace it;

namespace {

struct Caller {
    const char* name;
    cabinet::StaffRole role;
    int64_t telegram_id;  // 0: a fresh customer
};

const Caller kCallers[] = {
    {"owner", cabinet::StaffRole::owner, kAdminTelegramId},
    {"support", cabinet::StaffRole::support, 100000002},
    {"viewer", cabinet::StaffRole::viewer, 100000003},
    {"customer", cabinet::StaffRole::none, 0},
};

// The route's path with each {placeholder} filled with a value no test data has: the
// handler, if reached, answers 4xx for it and changes nothing.
std::string concrete(std::string_view pattern) {
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '{') {
            out += pattern[i];
            continue;
        }
        const size_t end = pattern.find('}', i);
        out += "zz-role-walk";
        i = end;
    }
    return out;
}

// What an admin write by `actor` leaves after audit row `audit_id` and job `job_id`: its audit
// rows and the jobs it queued (a job names who asked for it). Counted by actor, since the
// worker and earlier cases' deferred work add rows of their own meanwhile.
int64_t traces(const std::string& actor, int64_t audit_id, int64_t job_id) {
    return count("SELECT (SELECT count(*) FROM audit_log WHERE id > " + str(audit_id) + " AND actor = '" + actor + "')"
                 " + (SELECT count(*) FROM jobs WHERE id > " + str(job_id) + " AND payload::text LIKE '%" + actor + "%')");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(staff_roles)

BOOST_AUTO_TEST_CASE(every_admin_route_admits_its_roles_and_refuses_the_others) {
    size_t walked = 0;
    for (const cabinet::Route& route : cabinet::api::routes()) {
        if (!cabinet::is_staff_kind(route.auth)) {
            BOOST_CHECK_MESSAGE(route.pattern.rfind("/api/admin/", 0) != 0, route.pattern << " has no staff kind");
            continue;
        }
        ++walked;
        const std::string method(route.method), path = concrete(route.pattern);
        const std::string body = method == "GET" ? "" : "{}";

        const auto anonymous = http(method, path, kJsonHeaders, body);
        BOOST_CHECK_MESSAGE(anonymous.status == 401, method << " " << path << " without a credential: " << anonymous.status);

        for (const Caller& c : kCallers) {
            const int64_t tg = c.telegram_id ? c.telegram_id : fresh_telegram_id();
            const bool admitted = cabinet::admits(route.auth, c.role);
            const std::string actor = "telegram:" + str(tg);
            const int64_t audit_id = count("SELECT coalesce(max(id), 0) FROM audit_log");
            const int64_t job_id = count("SELECT coalesce(max(id), 0) FROM jobs");
            const auto r = http(method, path, {tma_header(tg, c.name), kJsonContentType}, body);
            if (admitted) {
                BOOST_CHECK_MESSAGE(r.status != 401 && r.status != 403,
                                    c.name << " " << method << " " << path << " was refused: " << r.status << " " << r.body);
            } else {
                BOOST_CHECK_MESSAGE(r.status == 403 && !detail(r).empty(),
                                    c.name << " " << method << " " << path << " answered " << r.status << " " << r.body);
                BOOST_CHECK_MESSAGE(traces(actor, audit_id, job_id) == 0, c.name << " " << method << " " << path << " left a trace");
            }
        }
    }
    BOOST_TEST(walked >= 20u);
}

BOOST_AUTO_TEST_CASE(whoami_names_each_role) {
    for (const Caller& c : kCallers) {
        if (c.role == cabinet::StaffRole::none) continue;
        const auto r = http("GET", "/api/admin/whoami", {tma_header(c.telegram_id, c.name)});
        BOOST_REQUIRE_EQUAL(r.status, 200);
        const auto d = r.json();
        BOOST_TEST(std::string(d["role"].GetString()) == c.name);
        BOOST_TEST(d["telegram_id"].GetInt64() == c.telegram_id);
    }
    BOOST_TEST(http("GET", "/api/admin/whoami", {tma_header(fresh_telegram_id())}).status == 403);
}

// A role is a live setting: an owner adds a support person, who is in at once; taken out
// again, they are refused at once.
BOOST_AUTO_TEST_CASE(a_support_person_added_by_the_owner_is_in_at_once) {
    const int64_t tg = fresh_telegram_id();
    const auto before = http("GET", "/api/admin/whoami", {tma_header(tg)});
    BOOST_TEST(before.status == 403);
    const std::string value = R"({"value":"100000002,)" + str(tg) + R"("})";
    const auto set = http("PUT", "/api/admin/settings/SUPPORT_IDS", {admin_auth(), kJsonContentType}, value);
    BOOST_REQUIRE_MESSAGE(set.status == 200, set.body);
    BOOST_TEST(everywhere([&] {
        const auto r = http("GET", "/api/admin/whoami", {tma_header(tg)});
        return r.status == 200 && std::string(r.json()["role"].GetString()) == "support";
    }));
    BOOST_TEST(http("GET", "/api/admin/settings", {tma_header(tg)}).status == 403);

    BOOST_REQUIRE(http("DELETE", "/api/admin/settings/SUPPORT_IDS", {admin_auth()}).status == 200);
    BOOST_TEST(everywhere([&] { return http("GET", "/api/admin/whoami", {tma_header(tg)}).status == 403; }));
}

BOOST_AUTO_TEST_SUITE_END()
