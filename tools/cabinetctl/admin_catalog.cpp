// cabinetctl plan|promo-group|user-group|sale|promo|constructor: the operator's catalogue.
// Every "create" is an upsert by its natural key (plan code, group name, sale name, promo
// code, period days, pack gb), so re-running a command converges instead of duplicating.
#include <pqxx/pqxx>

#include <iostream>
#include <optional>

#include "commands.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

constexpr int64_t kGiB = 1024LL * 1024 * 1024;
constexpr int64_t kMaxMinor = 1'000'000'000'000LL;  // 10^10 currency units: far above any real price

[[noreturn]] void fail(const std::string& message) { throw std::runtime_error(message); }

std::string text(const Args& args, const std::string& name, size_t max_len = 200) {
    const std::string v(trim(option(args, name)));
    if (v.empty()) fail(name + " is required");
    if (v.size() > max_len) fail(name + " is longer than " + std::to_string(max_len) + " characters");
    return v;
}

std::optional<int64_t> maybe_int(const Args& args, const std::string& name, int64_t min, int64_t max) {
    if (!flag(args, name)) return std::nullopt;
    int64_t v = 0;
    if (!parse_int64(option(args, name), v) || v < min || v > max)
        fail(name + " must be an integer in " + std::to_string(min) + ".." + std::to_string(max));
    return v;
}

int64_t integer(const Args& args, const std::string& name, int64_t min, int64_t max) {
    if (!flag(args, name)) fail(name + " is required");
    return *maybe_int(args, name, min, max);
}

// ISO-8601 UTC instant, or a bare date meaning its midnight UTC.
std::optional<int64_t> maybe_time(const Args& args, const std::string& name) {
    if (!flag(args, name)) return std::nullopt;
    std::string v = option(args, name);
    if (v.size() == 10) v += "T00:00:00Z";
    const auto t = parse_iso8601(v);
    if (!t) fail(name + " must be ISO-8601, e.g. 2026-01-31T00:00:00Z or 2026-01-31");
    return t;
}

int64_t plan_id(pqxx::transaction_base& txn, const std::string& code) {
    const auto r = txn.exec_params("SELECT id FROM plans WHERE public_code = $1", code);
    if (r.empty()) fail("no plan with code " + code + " (see: cabinetctl plan list)");
    return r[0][0].as<int64_t>();
}

void print_result(const pqxx::result& r) {
    for (const auto& row : r) {
        std::string line;
        for (const auto& f : row) line += (line.empty() ? "" : "  ") + std::string(f.is_null() ? "-" : f.c_str());
        std::cout << line << "\n";
    }
}

// One action of a command: what `args[0]` selects.
const std::string& action_of(const Args& args, const std::string& usage) {
    if (args.empty() || starts_with(args[0], "--")) fail("usage: " + usage);
    return args[0];
}

}  // namespace

int plan(const Args& args) {
    const std::string usage =
        "cabinetctl plan create --code C --name N [--description D] [--traffic-gb G] [--devices K] [--sort S]"
        " | price --code C --days D --months M --price MINOR | enable|disable --code C | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    if (action == "create") {
        const std::string code = text(args, "--code", 64), name = text(args, "--name");
        const auto description = flag(args, "--description") ? std::optional(option(args, "--description")) : std::nullopt;
        const auto gb = maybe_int(args, "--traffic-gb", 0, 1'000'000);  // 0 = unlimited
        const auto devices = maybe_int(args, "--devices", 1, 1000);
        const auto sort = maybe_int(args, "--sort", -1'000'000, 1'000'000);
        // Options left out keep their current value on an existing plan.
        const auto r = txn.exec_params(
            "INSERT INTO plans (public_code, name, description, traffic_limit_bytes, device_limit, sort_order)"
            " VALUES ($1, $2, coalesce($3, ''), NULLIF($4::bigint, 0), coalesce($5::int, 1), coalesce($6::int, 0))"
            " ON CONFLICT (public_code) DO UPDATE SET name = EXCLUDED.name,"
            "   description = coalesce($3, plans.description),"
            "   traffic_limit_bytes = CASE WHEN $4::bigint IS NULL THEN plans.traffic_limit_bytes ELSE NULLIF($4::bigint, 0) END,"
            "   device_limit = coalesce($5::int, plans.device_limit), sort_order = coalesce($6::int, plans.sort_order)"
            " RETURNING id, (xmax = 0) AS inserted",
            code, name, description, gb ? std::optional(*gb * kGiB) : std::nullopt, devices, sort);
        std::cout << (r[0][1].as<bool>() ? "created" : "updated") << " plan " << code << " (id " << r[0][0].c_str() << ")\n";
    } else if (action == "price") {
        const int64_t id = plan_id(txn, text(args, "--code", 64));
        const int64_t days = integer(args, "--days", 1, 36500), months = integer(args, "--months", 0, 1200);
        const int64_t price = integer(args, "--price", 0, kMaxMinor);
        txn.exec_params0("INSERT INTO plan_durations (plan_id, days, months, price_minor) VALUES ($1, $2, $3, $4)"
                         " ON CONFLICT (plan_id, days) DO UPDATE SET months = EXCLUDED.months, price_minor = EXCLUDED.price_minor",
                         id, days, months, price);
        std::cout << "price set: " << days << " days = " << price << " minor units\n";
    } else if (action == "enable" || action == "disable") {
        const int64_t id = plan_id(txn, text(args, "--code", 64));
        txn.exec_params0("UPDATE plans SET is_active = $2 WHERE id = $1", id, action == "enable");
        std::cout << "ok\n";
    } else if (action == "list") {
        std::cout << "id  code  name  active  traffic_gb  devices  sort  durations(days:price)\n";
        print_result(txn.exec(
            "SELECT p.id, p.public_code, p.name, p.is_active, coalesce(p.traffic_limit_bytes / 1073741824, 0),"
            " p.device_limit, p.sort_order,"
            " coalesce(string_agg(d.days || ':' || d.price_minor, ',' ORDER BY d.days), '-')"
            " FROM plans p LEFT JOIN plan_durations d ON d.plan_id = p.id GROUP BY p.id ORDER BY p.sort_order, p.id"));
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    if (action != "list") audit_command(txn, "plan", args);
    txn.commit();
    return 0;
}

int promo_group(const Args& args) {
    const std::string usage = "cabinetctl promo-group create --name N --discount PCT | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    if (action == "create") {
        const std::string name = text(args, "--name", 100);
        const int64_t pct = integer(args, "--discount", 0, 100);
        txn.exec_params0("INSERT INTO promo_groups (name, discount_pct) VALUES ($1, $2)"
                         " ON CONFLICT (name) DO UPDATE SET discount_pct = EXCLUDED.discount_pct", name, pct);
        std::cout << "promo group " << name << ": " << pct << " %\n";
    } else if (action == "list") {
        print_result(txn.exec("SELECT g.name, g.discount_pct, count(u.id) FROM promo_groups g"
                              " LEFT JOIN users u ON u.promo_group_id = g.id GROUP BY g.id ORDER BY g.name"));
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    txn.commit();
    return 0;
}

int user_group(const Args& args) {
    int64_t tg = 0;
    if (!parse_int64(option(args, "--telegram-id"), tg) || tg <= 0) fail("--telegram-id N is required");
    const bool clear = flag(args, "--clear");
    if (clear == flag(args, "--group")) fail("give exactly one of --group NAME or --clear");
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    std::optional<int64_t> group;
    if (!clear) {
        const std::string name = text(args, "--group", 100);
        const auto g = txn.exec_params("SELECT id FROM promo_groups WHERE name = $1", name);
        if (g.empty()) fail("no promo group named " + name + " (create it: cabinetctl promo-group create)");
        group = g[0][0].as<int64_t>();
    }
    const auto r = txn.exec_params("UPDATE users SET promo_group_id = $2, updated_at = now() WHERE telegram_id = $1 RETURNING id",
                                   tg, group);
    if (r.empty()) fail("no user with Telegram id " + std::to_string(tg));
    txn.commit();
    std::cout << "ok\n";
    return 0;
}

int sale(const Args& args) {
    const std::string usage = "cabinetctl sale create --name N --discount PCT --from ISO --until ISO | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    if (action == "create") {
        const std::string name = text(args, "--name", 100);
        const int64_t pct = integer(args, "--discount", 1, 100);
        const auto from = maybe_time(args, "--from"), until = maybe_time(args, "--until");
        if (!from || !until) fail("--from and --until are required");
        if (*until <= *from) fail("--until must be after --from");
        // No unique key on sales.name in the schema: the name is the operator's handle, and
        // a re-run edits the sale of that name instead of adding a second one.
        txn.exec0("LOCK TABLE sales IN SHARE ROW EXCLUSIVE MODE");
        const auto r = txn.exec_params("UPDATE sales SET discount_pct = $2, starts_at = to_timestamp($3), ends_at = to_timestamp($4)"
                                       " WHERE name = $1 RETURNING id", name, pct, *from, *until);
        if (r.empty())
            txn.exec_params0("INSERT INTO sales (name, discount_pct, starts_at, ends_at) VALUES ($1, $2, to_timestamp($3), to_timestamp($4))",
                             name, pct, *from, *until);
        std::cout << (r.empty() ? "created" : "updated") << " sale " << name << ": " << pct << " % from "
                  << iso8601_utc(*from) << " until " << iso8601_utc(*until) << "\n";
    } else if (action == "list") {
        print_result(txn.exec("SELECT name, discount_pct, starts_at, ends_at,"
                              " CASE WHEN starts_at <= now() AND ends_at > now() THEN 'running' ELSE '' END"
                              " FROM sales ORDER BY starts_at"));
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    if (action != "list") audit_command(txn, "sale", args);
    txn.commit();
    return 0;
}

int promo(const Args& args) {
    const std::string usage =
        "cabinetctl promo create --code C --type balance|days|subscription|discount --value V [--plan CODE]"
        " [--max-uses K] [--from ISO] [--until ISO]";
    if (action_of(args, usage) != "create") fail("unknown action " + args[0] + "; usage: " + usage);
    const std::string code = text(args, "--code", 64);
    if (code.size() < 2) fail("--code must be 2..64 characters");
    const std::string type = text(args, "--type", 20);
    if (type != "balance" && type != "days" && type != "subscription" && type != "discount")
        fail("--type must be one of balance, days, subscription, discount");
    const int64_t value = integer(args, "--value", 1, type == "discount" ? 100 : type == "balance" ? kMaxMinor : 36500);
    if ((type == "subscription") != flag(args, "--plan"))
        fail(type == "subscription" ? "--plan CODE is required for --type subscription"
                                    : "--plan only applies to --type subscription");
    const auto max_uses = maybe_int(args, "--max-uses", 1, 1'000'000'000);
    const auto from = maybe_time(args, "--from"), until = maybe_time(args, "--until");
    if (from && until && *until <= *from) fail("--until must be after --from");

    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    std::optional<int64_t> plan;
    if (type == "subscription") plan = plan_id(txn, text(args, "--plan", 64));
    const auto used = txn.exec_params("SELECT uses FROM promo_codes WHERE lower(code) = lower($1)", code);
    if (max_uses && !used.empty() && *max_uses < used[0][0].as<int64_t>())
        fail("--max-uses is below the " + std::string(used[0][0].c_str()) + " uses this code already has");
    // Case-insensitive code (unique index on lower(code)); uses so far are kept on update.
    const auto r = txn.exec_params(
        "INSERT INTO promo_codes (code, reward_type, value, plan_id, max_uses, valid_from, valid_until)"
        " VALUES ($1, $2, $3, $4, $5, to_timestamp($6), to_timestamp($7))"
        " ON CONFLICT ((lower(code))) DO UPDATE SET reward_type = EXCLUDED.reward_type, value = EXCLUDED.value,"
        "   plan_id = EXCLUDED.plan_id, max_uses = EXCLUDED.max_uses, valid_from = EXCLUDED.valid_from,"
        "   valid_until = EXCLUDED.valid_until, is_active = true"
        " RETURNING (xmax = 0) AS inserted, uses",
        code, type, value, plan, max_uses, from, until);
    txn.commit();
    std::cout << (r[0][0].as<bool>() ? "created" : "updated") << " promo code " << code << " (" << type << " " << value
              << ", used " << r[0][1].c_str() << " times)\n";
    return 0;
}

int constructor(const Args& args) {
    const std::string usage = "cabinetctl constructor period --days D --months M --price MINOR | pack --gb G --price MINOR"
                              " (gb 0 = unlimited) | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    if (action == "period") {
        const int64_t days = integer(args, "--days", 1, 36500), months = integer(args, "--months", 0, 1200);
        const int64_t price = integer(args, "--price", 0, kMaxMinor);
        txn.exec_params0("INSERT INTO constructor_periods (days, months, price_minor) VALUES ($1, $2, $3)"
                         " ON CONFLICT (days) DO UPDATE SET months = EXCLUDED.months, price_minor = EXCLUDED.price_minor,"
                         "   is_active = true", days, months, price);
        std::cout << "period " << days << " days = " << price << " minor units\n";
    } else if (action == "pack") {
        const int64_t gb = integer(args, "--gb", 0, 1'000'000), price = integer(args, "--price", 0, kMaxMinor);
        txn.exec_params0("INSERT INTO constructor_packs (gb, price_minor) VALUES ($1, $2)"
                         " ON CONFLICT (gb) DO UPDATE SET price_minor = EXCLUDED.price_minor, is_active = true", gb, price);
        std::cout << "pack " << (gb ? std::to_string(gb) + " GB" : std::string("unlimited")) << " = " << price << " minor units\n";
    } else if (action == "list") {
        print_result(txn.exec("SELECT 'period', days, months, price_minor, is_active FROM constructor_periods"
                              " UNION ALL SELECT 'pack', gb, NULL, price_minor, is_active FROM constructor_packs ORDER BY 1 DESC, 2"));
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    if (action != "list") audit_command(txn, "constructor", args);
    txn.commit();
    return 0;
}

}  // namespace cabinet::ctl
